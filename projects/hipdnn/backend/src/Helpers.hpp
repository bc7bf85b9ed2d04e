// The one shape of every C entry point: the body runs in tryCatch; any exception becomes a status
// and its message the calling thread's last error. Successful calls leave the last error as is.
#pragma once

#include "BackendLogger.hpp"
#include "HipdnnException.hpp"
#include "LastErrorManager.hpp"

#include <new>
#include <string>

namespace hipdnn_backend
{

inline hipdnnStatus_t fail(const char* apiName, hipdnnStatus_t status, const std::string& message)
{
    const std::string full = std::string(apiName) + ": " + message;
    LastErrorManager::setLastError(full);
    HIPDNN_LOG_ERROR(full << " (" << hipdnnGetErrorString(status) << ")");
    return status;
}

template <typename Body>
hipdnnStatus_t tryCatch(const char* apiName, Body&& body)
{
    try
    {
        HIPDNN_LOG_INFO("API called: " << apiName);
        body();
        return HIPDNN_STATUS_SUCCESS;
    }
    catch(const HipdnnException& e)
    {
        return fail(apiName, e.status(), e.what());
    }
    catch(const std::bad_alloc&)
    {
        return fail(apiName, HIPDNN_STATUS_ALLOC_FAILED, "host allocation failed");
    }
    catch(const std::exception& e)
    {
        return fail(apiName, HIPDNN_STATUS_INTERNAL_ERROR, std::string("internal error: ") + e.what());
    }
    catch(...)
    {
        return fail(apiName, HIPDNN_STATUS_INTERNAL_ERROR, "internal error: unknown exception");
    }
}

} // namespace hipdnn_backend
