// Chooses the process's IHipdnnBackend once: the direct wrapper (default) or the run-time loading
// one (HIPDNN_FRONTEND_RUNTIME_LOAD_BACKEND), then refuses a backend whose major version differs
// from this frontend's (every call then fails with the reason as last error).
#pragma once

#include <hipdnn_frontend/detail/HipdnnBackendInterface.hpp>
#include <hipdnn_frontend/version.h>

#ifdef HIPDNN_FRONTEND_RUNTIME_LOAD_BACKEND
#include <hipdnn_frontend/detail/DynamicBackendWrapper.hpp>
#else
#include <hipdnn_frontend/detail/DirectBackendWrapper.hpp>
#endif

#include <cstdlib>
#include <string>

namespace hipdnn_frontend::detail
{

/// Parses the major of "MAJOR.MINOR..." into `major`; false when it is not a number.
inline bool parseMajorVersion(const char* version, long& major)
{
    if(version == nullptr || *version < '0' || *version > '9')
    {
        return false;
    }
    char* end = nullptr;
    major = std::strtol(version, &end, 10);
    return end != nullptr && (*end == '.' || *end == '\0');
}

/// Wraps `candidate` after the version gate.
inline std::shared_ptr<IHipdnnBackend> tryToUseBackendInterface(std::shared_ptr<IHipdnnBackend> candidate)
{
    const char* version = candidate->versionString();
    long major = -1;
    if(!parseMajorVersion(version, major))
    {
        return std::make_shared<UnavailableBackendWrapper>(
            std::string("the hipDNN backend reports an unparsable version '") + (version ? version : "(null)")
            + "'");
    }
    if(major != HIPDNN_FRONTEND_VERSION_MAJOR)
    {
        return std::make_shared<UnavailableBackendWrapper>(
            "the hipDNN backend " + std::string(version) + " has major version " + std::to_string(major)
            + "; this frontend needs major " + std::to_string(HIPDNN_FRONTEND_VERSION_MAJOR));
    }
    return candidate;
}

inline std::shared_ptr<IHipdnnBackend> createDefaultBackend()
{
#ifdef HIPDNN_FRONTEND_RUNTIME_LOAD_BACKEND
    try
    {
        return tryToUseBackendInterface(std::make_shared<HipdnnDynamicBackendWrapper>());
    }
    catch(const std::exception& e)
    {
        return std::make_shared<UnavailableBackendWrapper>(e.what());
    }
#else
    return tryToUseBackendInterface(std::make_shared<HipdnnDirectBackendWrapper>());
#endif
}

inline std::shared_ptr<IHipdnnBackend> IHipdnnBackend::getInstance()
{
    std::lock_guard<std::mutex> lock(mutex());
    if(slot() == nullptr)
    {
        slot() = createDefaultBackend();
    }
    return slot();
}

/// The backend every frontend call goes through.
inline std::shared_ptr<IHipdnnBackend> hipdnnBackend()
{
    return IHipdnnBackend::getInstance();
}

} // namespace hipdnn_frontend::detail
