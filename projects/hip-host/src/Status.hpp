// hipError_t names and descriptions, and the calling thread's last error (hipGetLastError,
// hipPeekAtLastError).
#pragma once

#include <hip/hip_runtime_api.h>

namespace hip_host {

/// The primary enumerator name of code, or nullptr when code is no hipError_t value.
const char* errorName(int code);
/// The description of code, or nullptr when code is no hipError_t value.
const char* errorString(int code);

/// Keeps a failure as the calling thread's last error (hipSuccess is ignored: a later success
/// does not clear an earlier failure).
void noteFailure(hipError_t status);
/// The calling thread's last error, reset to hipSuccess.
hipError_t takeLastError();
/// The calling thread's last error, not reset.
hipError_t peekLastError();

} // namespace hip_host
