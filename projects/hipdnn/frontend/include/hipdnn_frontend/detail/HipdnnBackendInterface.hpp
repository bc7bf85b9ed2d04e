// The one seam between the frontend and the backend: one virtual per backend entry point.
// Implementations: direct calls (hipdnn_frontend, links libhipdnn_backend), run-time loading
// (hipdnn_frontend_dynamic, HIPDNN_FRONTEND_RUNTIME_LOAD_BACKEND), an always-failing stand-in for
// an unusable backend, and mocks in tests (IHipdnnBackend::setInstance).
#pragma once

#include <hipdnn_backend.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

namespace hipdnn_frontend::detail
{

class IHipdnnBackend
{
public:
    virtual ~IHipdnnBackend() = default;

    virtual hipdnnStatus_t create(hipdnnHandle_t* handle) = 0;
    virtual hipdnnStatus_t destroy(hipdnnHandle_t handle) = 0;
    virtual hipdnnStatus_t setStream(hipdnnHandle_t handle, hipStream_t stream) = 0;
    virtual hipdnnStatus_t getStream(hipdnnHandle_t handle, hipStream_t* stream) = 0;
    virtual hipdnnStatus_t backendCreateDescriptor(hipdnnBackendDescriptorType_t type,
                                                   hipdnnBackendDescriptor_t* descriptor) = 0;
    virtual hipdnnStatus_t backendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor) = 0;
    virtual hipdnnStatus_t backendExecute(hipdnnHandle_t handle,
                                          hipdnnBackendDescriptor_t plan,
                                          hipdnnBackendDescriptor_t variantPack) = 0;
    virtual hipdnnStatus_t backendFinalize(hipdnnBackendDescriptor_t descriptor) = 0;
    virtual hipdnnStatus_t backendGetAttribute(hipdnnBackendDescriptor_t descriptor,
                                               hipdnnBackendAttributeName_t name,
                                               hipdnnBackendAttributeType_t type,
                                               int64_t requested,
                                               int64_t* count,
                                               void* values) = 0;
    virtual hipdnnStatus_t backendSetAttribute(hipdnnBackendDescriptor_t descriptor,
                                               hipdnnBackendAttributeName_t name,
                                               hipdnnBackendAttributeType_t type,
                                               int64_t count,
                                               const void* values) = 0;
    virtual hipdnnStatus_t backendCreateAndDeserializeGraphExt(hipdnnBackendDescriptor_t* descriptor,
                                                               const uint8_t* data,
                                                               size_t size) = 0;
    virtual const char* getErrorString(hipdnnStatus_t status) = 0;
    virtual void getLastErrorString(char* message, size_t maxSize) = 0;
    virtual void loggingCallbackExt(hipdnnSeverity_t severity, const char* message) = 0;
    virtual hipdnnStatus_t setEnginePluginPathsExt(size_t numPaths,
                                                   const char* const* paths,
                                                   hipdnnPluginLoadingMode_ext_t mode) = 0;
    virtual hipdnnStatus_t setUserLogCallbackExt(hipdnnUserLogCallback_t callback,
                                                 hipdnnSeverity_t minLevel,
                                                 hipdnnLogCallbackMode_t mode,
                                                 hipdnnUserLogCallbackHandle_t userHandle) = 0;
    virtual hipdnnStatus_t backendSetGlobalLogLevelExt(hipdnnSeverity_t level) = 0;
    virtual hipdnnStatus_t backendGetGlobalLogLevelExt(hipdnnSeverity_t* level) = 0;
    /// The backend's version string, or nullptr when unavailable.
    virtual const char* versionString() = 0;

    /// The process-wide instance (see BackendWrapper.hpp for how the default is chosen).
    static std::shared_ptr<IHipdnnBackend> getInstance();
    /// Replaces the instance (tests inject mocks); nullptr restores the default on next use.
    static void setInstance(std::shared_ptr<IHipdnnBackend> backend)
    {
        std::lock_guard<std::mutex> lock(mutex());
        slot() = std::move(backend);
    }

protected:
    static std::mutex& mutex()
    {
        static std::mutex m;
        return m;
    }
    static std::shared_ptr<IHipdnnBackend>& slot()
    {
        static std::shared_ptr<IHipdnnBackend> instance;
        return instance;
    }
};

/// Every call fails with NOT_INITIALIZED and `reason` as the last error.
class UnavailableBackendWrapper : public IHipdnnBackend
{
public:
    explicit UnavailableBackendWrapper(std::string reason)
        : _reason(std::move(reason))
    {
    }

    hipdnnStatus_t create(hipdnnHandle_t*) override { return fail(); }
    hipdnnStatus_t destroy(hipdnnHandle_t) override { return fail(); }
    hipdnnStatus_t setStream(hipdnnHandle_t, hipStream_t) override { return fail(); }
    hipdnnStatus_t getStream(hipdnnHandle_t, hipStream_t*) override { return fail(); }
    hipdnnStatus_t backendCreateDescriptor(hipdnnBackendDescriptorType_t, hipdnnBackendDescriptor_t*) override { return fail(); }
    hipdnnStatus_t backendDestroyDescriptor(hipdnnBackendDescriptor_t) override { return fail(); }
    hipdnnStatus_t backendExecute(hipdnnHandle_t, hipdnnBackendDescriptor_t, hipdnnBackendDescriptor_t) override { return fail(); }
    hipdnnStatus_t backendFinalize(hipdnnBackendDescriptor_t) override { return fail(); }
    hipdnnStatus_t backendGetAttribute(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t,
                                       int64_t, int64_t*, void*) override { return fail(); }
    hipdnnStatus_t backendSetAttribute(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t,
                                       int64_t, const void*) override { return fail(); }
    hipdnnStatus_t backendCreateAndDeserializeGraphExt(hipdnnBackendDescriptor_t*, const uint8_t*, size_t) override { return fail(); }
    const char* getErrorString(hipdnnStatus_t) override { return "hipDNN backend unavailable"; }
    void getLastErrorString(char* message, size_t maxSize) override
    {
        if(message != nullptr && maxSize > 0)
        {
            const size_t n = std::min(maxSize - 1, _reason.size());
            _reason.copy(message, n);
            message[n] = '\0';
        }
    }
    void loggingCallbackExt(hipdnnSeverity_t, const char*) override {}
    hipdnnStatus_t setEnginePluginPathsExt(size_t, const char* const*, hipdnnPluginLoadingMode_ext_t) override { return fail(); }
    hipdnnStatus_t setUserLogCallbackExt(hipdnnUserLogCallback_t, hipdnnSeverity_t, hipdnnLogCallbackMode_t,
                                         hipdnnUserLogCallbackHandle_t) override { return fail(); }
    hipdnnStatus_t backendSetGlobalLogLevelExt(hipdnnSeverity_t) override { return fail(); }
    hipdnnStatus_t backendGetGlobalLogLevelExt(hipdnnSeverity_t*) override { return fail(); }
    const char* versionString() override { return nullptr; }

    const std::string& reason() const { return _reason; }

private:
    hipdnnStatus_t fail() { return HIPDNN_STATUS_NOT_INITIALIZED; }
    std::string _reason;
};

} // namespace hipdnn_frontend::detail
