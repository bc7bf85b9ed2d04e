// IHipdnnBackend over symbols resolved at run time from libhipdnn_backend (see
// DynamicBackendLibrary.hpp). A missing symbol makes construction fail with its name.
#pragma once

#include <hipdnn_frontend/detail/DynamicBackendLibrary.hpp>
#include <hipdnn_frontend/detail/HipdnnBackendInterface.hpp>

#include <stdexcept>

namespace hipdnn_frontend::detail
{

class HipdnnDynamicBackendWrapper : public IHipdnnBackend
{
public:
    /// Throws std::runtime_error naming the library problem or the missing symbol.
    HipdnnDynamicBackendWrapper()
    {
        auto& lib = DynamicBackendLibrary::instance();
        if(lib.handle() == nullptr)
        {
            throw std::runtime_error(lib.error());
        }
        resolve(_create, "hipdnnCreate");
        resolve(_destroy, "hipdnnDestroy");
        resolve(_setStream, "hipdnnSetStream");
        resolve(_getStream, "hipdnnGetStream");
        resolve(_createDescriptor, "hipdnnBackendCreateDescriptor");
        resolve(_destroyDescriptor, "hipdnnBackendDestroyDescriptor");
        resolve(_execute, "hipdnnBackendExecute");
        resolve(_finalize, "hipdnnBackendFinalize");
        resolve(_getAttribute, "hipdnnBackendGetAttribute");
        resolve(_setAttribute, "hipdnnBackendSetAttribute");
        resolve(_deserialize, "hipdnnBackendCreateAndDeserializeGraph_ext");
        resolve(_errorString, "hipdnnGetErrorString");
        resolve(_lastError, "hipdnnGetLastErrorString");
        resolve(_logging, "hipdnnLoggingCallback_ext");
        resolve(_pluginPaths, "hipdnnSetEnginePluginPaths_ext");
        resolve(_userLog, "hipdnnSetUserLogCallback_ext");
        resolve(_setLevel, "hipdnnBackendSetGlobalLogLevel_ext");
        resolve(_getLevel, "hipdnnBackendGetGlobalLogLevel_ext");
        resolve(_version, "hipdnnVersionString_ext");
    }

    hipdnnStatus_t create(hipdnnHandle_t* h) override { return _create(h); }
    hipdnnStatus_t destroy(hipdnnHandle_t h) override { return _destroy(h); }
    hipdnnStatus_t setStream(hipdnnHandle_t h, hipStream_t s) override { return _setStream(h, s); }
    hipdnnStatus_t getStream(hipdnnHandle_t h, hipStream_t* s) override { return _getStream(h, s); }
    hipdnnStatus_t backendCreateDescriptor(hipdnnBackendDescriptorType_t t, hipdnnBackendDescriptor_t* d) override
    {
        return _createDescriptor(t, d);
    }
    hipdnnStatus_t backendDestroyDescriptor(hipdnnBackendDescriptor_t d) override { return _destroyDescriptor(d); }
    hipdnnStatus_t backendExecute(hipdnnHandle_t h, hipdnnBackendDescriptor_t p, hipdnnBackendDescriptor_t v) override
    {
        return _execute(h, p, v);
    }
    hipdnnStatus_t backendFinalize(hipdnnBackendDescriptor_t d) override { return _finalize(d); }
    hipdnnStatus_t backendGetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n,
                                       hipdnnBackendAttributeType_t t, int64_t r, int64_t* c, void* v) override
    {
        return _getAttribute(d, n, t, r, c, v);
    }
    hipdnnStatus_t backendSetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n,
                                       hipdnnBackendAttributeType_t t, int64_t c, const void* v) override
    {
        return _setAttribute(d, n, t, c, v);
    }
    hipdnnStatus_t backendCreateAndDeserializeGraphExt(hipdnnBackendDescriptor_t* d, const uint8_t* p, size_t n) override
    {
        return _deserialize(d, p, n);
    }
    const char* getErrorString(hipdnnStatus_t s) override { return _errorString(s); }
    void getLastErrorString(char* m, size_t n) override { _lastError(m, n); }
    void loggingCallbackExt(hipdnnSeverity_t s, const char* m) override { _logging(s, m); }
    hipdnnStatus_t setEnginePluginPathsExt(size_t n, const char* const* p, hipdnnPluginLoadingMode_ext_t m) override
    {
        return _pluginPaths(n, p, m);
    }
    hipdnnStatus_t setUserLogCallbackExt(hipdnnUserLogCallback_t cb, hipdnnSeverity_t l, hipdnnLogCallbackMode_t m,
                                         hipdnnUserLogCallbackHandle_t u) override
    {
        return _userLog(cb, l, m, u);
    }
    hipdnnStatus_t backendSetGlobalLogLevelExt(hipdnnSeverity_t l) override { return _setLevel(l); }
    hipdnnStatus_t backendGetGlobalLogLevelExt(hipdnnSeverity_t* l) override { return _getLevel(l); }
    const char* versionString() override { return _version(); }

private:
    template <typename F>
    void resolve(F& slot, const char* name)
    {
        slot = reinterpret_cast<F>(DynamicBackendLibrary::instance().symbol(name));
        if(slot == nullptr)
        {
            throw std::runtime_error(std::string("the hipDNN backend lacks symbol ") + name);
        }
    }

    decltype(&hipdnnCreate) _create = nullptr;
    decltype(&hipdnnDestroy) _destroy = nullptr;
    decltype(&hipdnnSetStream) _setStream = nullptr;
    decltype(&hipdnnGetStream) _getStream = nullptr;
    decltype(&hipdnnBackendCreateDescriptor) _createDescriptor = nullptr;
    decltype(&hipdnnBackendDestroyDescriptor) _destroyDescriptor = nullptr;
    decltype(&hipdnnBackendExecute) _execute = nullptr;
    decltype(&hipdnnBackendFinalize) _finalize = nullptr;
    decltype(&hipdnnBackendGetAttribute) _getAttribute = nullptr;
    decltype(&hipdnnBackendSetAttribute) _setAttribute = nullptr;
    decltype(&hipdnnBackendCreateAndDeserializeGraph_ext) _deserialize = nullptr;
    decltype(&hipdnnGetErrorString) _errorString = nullptr;
    decltype(&hipdnnGetLastErrorString) _lastError = nullptr;
    decltype(&hipdnnLoggingCallback_ext) _logging = nullptr;
    decltype(&hipdnnSetEnginePluginPaths_ext) _pluginPaths = nullptr;
    decltype(&hipdnnSetUserLogCallback_ext) _userLog = nullptr;
    decltype(&hipdnnBackendSetGlobalLogLevel_ext) _setLevel = nullptr;
    decltype(&hipdnnBackendGetGlobalLogLevel_ext) _getLevel = nullptr;
    decltype(&hipdnnVersionString_ext) _version = nullptr;
};

} // namespace hipdnn_frontend::detail
