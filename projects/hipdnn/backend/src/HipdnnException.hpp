// The one exception type of the backend: a status and a message. The C entry points turn it
// (and any other exception) into a status plus the thread's last error.
#pragma once

#include "hipdnn_backend.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <string>

namespace hipdnn_backend
{

class HipdnnException : public std::runtime_error
{
public:
    HipdnnException(hipdnnStatus_t status, const std::string& message)
        : std::runtime_error(message)
        , _status(status)
    {
    }
    hipdnnStatus_t status() const { return _status; }

private:
    hipdnnStatus_t _status;
};

/// The integer value of an enum received from a caller, read without loading an out-of-range
/// enumerator (callers may pass any integer; loading it as the enum type would be undefined).
template <typename E>
long long rawEnum(const E& value)
{
    std::underlying_type_t<E> raw;
    std::memcpy(&raw, &value, sizeof(raw));
    return static_cast<long long>(raw);
}

/// Validates a caller-supplied enum against [lo, hi]; returns it when valid.
template <typename E>
E checkedEnum(const E& value, long long lo, long long hi, hipdnnStatus_t status, const char* what)
{
    const long long raw = rawEnum(value);
    if(raw < lo || raw > hi)
    {
        throw HipdnnException(status, "invalid " + std::string(what) + " " + std::to_string(raw));
    }
    return static_cast<E>(raw);
}

// The success path builds no message: a literal stays a `const char*` until something throws
// (a message built with `+` at the call site is built on every call; write `if(...) throw`
// there instead).
inline void throwIf(bool condition, hipdnnStatus_t status, const char* message)
{
    if(condition)
    {
        throw HipdnnException(status, message);
    }
}

inline void throwIf(bool condition, hipdnnStatus_t status, const std::string& message)
{
    if(condition)
    {
        throw HipdnnException(status, message);
    }
}

inline void throwIfNull(const void* p, const char* what)
{
    if(p == nullptr)
    {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(what) + " is null");
    }
}

inline void throwIfNull(const void* p, const std::string& what)
{
    throwIfNull(p, what.c_str());
}

} // namespace hipdnn_backend
