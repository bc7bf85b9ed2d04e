// Per-thread, bounded last-error buffer of the backend (read-and-clear and peek).
#pragma once

#include <cstddef>
#include <string>

namespace hipdnn_backend
{

class LastErrorManager
{
public:
    static void setLastError(const std::string& message);
    static void clear();
    /// Copies into `out` (NUL-terminated, truncated to maxSize-1); clears when `clearAfter`.
    static void copyLastError(char* out, size_t maxSize, bool clearAfter);
    static std::string peek();
};

} // namespace hipdnn_backend
