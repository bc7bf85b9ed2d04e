// Logging types of the C API (the same definitions as the data SDK's CallbackTypes.h; whichever
// header comes first defines them).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HIPDNN_CALLBACK_TYPES_DEFINED
#define HIPDNN_CALLBACK_TYPES_DEFINED

typedef enum
{
    HIPDNN_SEV_INFO = 0,
    HIPDNN_SEV_WARN,
    HIPDNN_SEV_ERROR,
    HIPDNN_SEV_FATAL,
    HIPDNN_SEV_OFF
} hipdnnSeverity_t;

typedef void (*hipdnnCallback_t)(hipdnnSeverity_t severity, const char* message);

typedef void* hipdnnUserLogCallbackHandle_t;

typedef void (*hipdnnUserLogCallback_t)(hipdnnUserLogCallbackHandle_t userHandle,
                                        hipdnnSeverity_t severity,
                                        const char* message);

#endif // HIPDNN_CALLBACK_TYPES_DEFINED

#ifdef __cplusplus
}
#endif
