#pragma once

/** Maximum size of a last-error message, including the terminating NUL. */
#define HIPDNN_ERROR_STRING_MAX_LENGTH 2048
