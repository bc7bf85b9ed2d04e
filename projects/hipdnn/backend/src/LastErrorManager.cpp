#include "LastErrorManager.hpp"

#include "hipdnn_backend.h"

#include <algorithm>
#include <cstring>

namespace hipdnn_backend
{

namespace
{
// A plain array: no thread-exit destructor, bounded size.
thread_local char t_lastError[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
} // namespace

void LastErrorManager::setLastError(const std::string& message)
{
    const size_t n = std::min(message.size(), sizeof(t_lastError) - 1);
    std::memcpy(t_lastError, message.data(), n);
    t_lastError[n] = '\0';
}

void LastErrorManager::clear()
{
    t_lastError[0] = '\0';
}

void LastErrorManager::copyLastError(char* out, size_t maxSize, bool clearAfter)
{
    if(out == nullptr || maxSize == 0)
    {
        return;
    }
    const size_t n = std::min(std::strlen(t_lastError), maxSize - 1);
    std::memcpy(out, t_lastError, n);
    out[n] = '\0';
    if(clearAfter)
    {
        clear();
    }
}

std::string LastErrorManager::peek()
{
    return t_lastError;
}

} // namespace hipdnn_backend
