// IHipdnnBackend over direct calls into a linked libhipdnn_backend.
#pragma once

#include <hipdnn_frontend/detail/HipdnnBackendInterface.hpp>

namespace hipdnn_frontend::detail
{

class HipdnnDirectBackendWrapper : public IHipdnnBackend
{
public:
    hipdnnStatus_t create(hipdnnHandle_t* h) override { return hipdnnCreate(h); }
    hipdnnStatus_t destroy(hipdnnHandle_t h) override { return hipdnnDestroy(h); }
    hipdnnStatus_t setStream(hipdnnHandle_t h, hipStream_t s) override { return hipdnnSetStream(h, s); }
    hipdnnStatus_t getStream(hipdnnHandle_t h, hipStream_t* s) override { return hipdnnGetStream(h, s); }
    hipdnnStatus_t backendCreateDescriptor(hipdnnBackendDescriptorType_t t, hipdnnBackendDescriptor_t* d) override
    {
        return hipdnnBackendCreateDescriptor(t, d);
    }
    hipdnnStatus_t backendDestroyDescriptor(hipdnnBackendDescriptor_t d) override { return hipdnnBackendDestroyDescriptor(d); }
    hipdnnStatus_t backendExecute(hipdnnHandle_t h, hipdnnBackendDescriptor_t p, hipdnnBackendDescriptor_t v) override
    {
        return hipdnnBackendExecute(h, p, v);
    }
    hipdnnStatus_t backendFinalize(hipdnnBackendDescriptor_t d) override { return hipdnnBackendFinalize(d); }
    hipdnnStatus_t backendGetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n,
                                       hipdnnBackendAttributeType_t t, int64_t r, int64_t* c, void* v) override
    {
        return hipdnnBackendGetAttribute(d, n, t, r, c, v);
    }
    hipdnnStatus_t backendSetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t n,
                                       hipdnnBackendAttributeType_t t, int64_t c, const void* v) override
    {
        return hipdnnBackendSetAttribute(d, n, t, c, v);
    }
    hipdnnStatus_t backendCreateAndDeserializeGraphExt(hipdnnBackendDescriptor_t* d, const uint8_t* p, size_t n) override
    {
        return hipdnnBackendCreateAndDeserializeGraph_ext(d, p, n);
    }
    const char* getErrorString(hipdnnStatus_t s) override { return hipdnnGetErrorString(s); }
    void getLastErrorString(char* m, size_t n) override { hipdnnGetLastErrorString(m, n); }
    void loggingCallbackExt(hipdnnSeverity_t s, const char* m) override { hipdnnLoggingCallback_ext(s, m); }
    hipdnnStatus_t setEnginePluginPathsExt(size_t n, const char* const* p, hipdnnPluginLoadingMode_ext_t m) override
    {
        return hipdnnSetEnginePluginPaths_ext(n, p, m);
    }
    hipdnnStatus_t setUserLogCallbackExt(hipdnnUserLogCallback_t cb, hipdnnSeverity_t l, hipdnnLogCallbackMode_t m,
                                         hipdnnUserLogCallbackHandle_t u) override
    {
        return hipdnnSetUserLogCallback_ext(cb, l, m, u);
    }
    hipdnnStatus_t backendSetGlobalLogLevelExt(hipdnnSeverity_t l) override { return hipdnnBackendSetGlobalLogLevel_ext(l); }
    hipdnnStatus_t backendGetGlobalLogLevelExt(hipdnnSeverity_t* l) override { return hipdnnBackendGetGlobalLogLevel_ext(l); }
    const char* versionString() override { return hipdnnVersionString_ext(); }
};

} // namespace hipdnn_frontend::detail
