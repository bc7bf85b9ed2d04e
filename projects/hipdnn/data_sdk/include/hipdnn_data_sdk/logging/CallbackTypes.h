// Logging types shared by the backend, the plugins and the frontend (C ABI).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HIPDNN_CALLBACK_TYPES_DEFINED
#define HIPDNN_CALLBACK_TYPES_DEFINED

/** Severity of a log message; a level enables itself and everything more severe. */
typedef enum
{
    HIPDNN_SEV_INFO = 0,
    HIPDNN_SEV_WARN,
    HIPDNN_SEV_ERROR,
    HIPDNN_SEV_FATAL,
    HIPDNN_SEV_OFF
} hipdnnSeverity_t;

/** Sink for formatted messages (the backend hands one to every plugin). */
typedef void (*hipdnnCallback_t)(hipdnnSeverity_t severity, const char* message);

/** Opaque user pointer passed back to a user log callback; also part of its identity. */
typedef void* hipdnnUserLogCallbackHandle_t;

/** User log callback registered with hipdnnSetUserLogCallback_ext. */
typedef void (*hipdnnUserLogCallback_t)(hipdnnUserLogCallbackHandle_t userHandle,
                                        hipdnnSeverity_t severity,
                                        const char* message);

#endif // HIPDNN_CALLBACK_TYPES_DEFINED

#ifdef __cplusplus
}
#endif
