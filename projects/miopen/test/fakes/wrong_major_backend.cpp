// A stand-in libhipdnn_backend.so.1 that reports the next major version through
// hipdnnVersionString_ext, the handshake the hipDNN frontend's run-time loader checks
// (hipdnn_frontend/detail/BackendWrapper.hpp). It exports every symbol the MIOpen wrapper resolves
// (wrapper/test/hipdnn_allowed_symbols.txt), so only the version can make the loader refuse it;
// every other entry point aborts with its name, so a wrapper that used the backend past the
// handshake fails the test loudly instead of passing by luck. Built into its own directory
// (api.cmake) and found through HIPDNN_BACKEND_LIBRARY_PATH.
#include <hipdnn_backend.h>
#include <hipdnn_backend/version.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// "<HIPDNN_BACKEND_VERSION_MAJOR + 1>.0.0.0", built once (static lifetime, as the real one).
const char* version()
{
    static const std::string v = std::to_string(HIPDNN_BACKEND_VERSION_MAJOR + 1) + ".0.0.0";
    return v.c_str();
}

[[noreturn]] void usedPastHandshake(const char* name)
{
    std::fprintf(stderr, "wrong-major test backend: %s called after the version handshake should have refused it\n",
                 name);
    std::abort();
}

} // namespace

extern "C" {

const char* hipdnnVersionString_ext(void) { return version(); }

hipdnnStatus_t hipdnnCreate(hipdnnHandle_t*) { usedPastHandshake("hipdnnCreate"); }
hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t) { usedPastHandshake("hipdnnDestroy"); }
hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t, hipStream_t) { usedPastHandshake("hipdnnSetStream"); }
hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t, hipStream_t*) { usedPastHandshake("hipdnnGetStream"); }
hipdnnStatus_t hipdnnBackendCreateDescriptor(hipdnnBackendDescriptorType_t, hipdnnBackendDescriptor_t*)
{
    usedPastHandshake("hipdnnBackendCreateDescriptor");
}
hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t)
{
    usedPastHandshake("hipdnnBackendDestroyDescriptor");
}
hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t, hipdnnBackendDescriptor_t, hipdnnBackendDescriptor_t)
{
    usedPastHandshake("hipdnnBackendExecute");
}
hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t) { usedPastHandshake("hipdnnBackendFinalize"); }
hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t,
                                         hipdnnBackendAttributeType_t, int64_t, int64_t*, void*)
{
    usedPastHandshake("hipdnnBackendGetAttribute");
}
hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t,
                                         hipdnnBackendAttributeType_t, int64_t, const void*)
{
    usedPastHandshake("hipdnnBackendSetAttribute");
}
hipdnnStatus_t hipdnnBackendCreateAndDeserializeGraph_ext(hipdnnBackendDescriptor_t*, const uint8_t*, size_t)
{
    usedPastHandshake("hipdnnBackendCreateAndDeserializeGraph_ext");
}
const char* hipdnnGetErrorString(hipdnnStatus_t) { usedPastHandshake("hipdnnGetErrorString"); }
void hipdnnGetLastErrorString(char*, size_t) { usedPastHandshake("hipdnnGetLastErrorString"); }
void hipdnnLoggingCallback_ext(hipdnnSeverity_t, const char*) { usedPastHandshake("hipdnnLoggingCallback_ext"); }
hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(size_t, const char* const*, hipdnnPluginLoadingMode_ext_t)
{
    usedPastHandshake("hipdnnSetEnginePluginPaths_ext");
}
hipdnnStatus_t hipdnnSetUserLogCallback_ext(hipdnnUserLogCallback_t, hipdnnSeverity_t, hipdnnLogCallbackMode_t,
                                            hipdnnUserLogCallbackHandle_t)
{
    usedPastHandshake("hipdnnSetUserLogCallback_ext");
}
hipdnnStatus_t hipdnnBackendSetGlobalLogLevel_ext(hipdnnSeverity_t)
{
    usedPastHandshake("hipdnnBackendSetGlobalLogLevel_ext");
}
hipdnnStatus_t hipdnnBackendGetGlobalLogLevel_ext(hipdnnSeverity_t*)
{
    usedPastHandshake("hipdnnBackendGetGlobalLogLevel_ext");
}

} // extern "C"
