// Internal error model: library code throws miopen::Exception; every C entry point converts it
// to a status in tryCatch(). No exception ever crosses the C boundary.
#pragma once

#include <miopen/miopen.h>

#include <cstring>
#include <exception>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

namespace miopen {

class Exception : public std::exception
{
public:
    Exception(miopenStatus_t status, std::string message)
        : _status(status), _message(std::move(message))
    {
    }
    const char* what() const noexcept override { return _message.c_str(); }
    miopenStatus_t status() const noexcept { return _status; }

private:
    miopenStatus_t _status;
    std::string _message;
};

[[noreturn]] void fail(miopenStatus_t status, const std::string& message);

// Throws BadParm (or the given status) with `message` unless `cond` holds.
inline void check(bool cond, const char* message, miopenStatus_t status = miopenStatusBadParm)
{
    if(!cond)
        fail(status, message);
}

// The message of the last failed call on this thread (bounded; empty after success is not
// guaranteed: it is overwritten only by the next failure). Used by tests and the driver.
const char* lastErrorMessage() noexcept;
void setLastErrorMessage(const char* api, const char* message) noexcept;

// The integer value of an enum parameter received from C, read without loading it as the enum
// type (a C caller may pass any int; loading an out-of-range value as a C++ enum is undefined).
template <class E>
int rawEnum(const E& e) noexcept
{
    static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int), "a C enum");
    int v;
    std::memcpy(&v, &e, sizeof v);
    return v;
}

// An enum parameter from C, checked against the values the call accepts (BadParm otherwise).
template <class E>
E checkedEnum(const E& e, std::initializer_list<int> valid, const char* what)
{
    const int v = rawEnum(e);
    for(int ok : valid)
        if(v == ok)
            return static_cast<E>(v);
    fail(miopenStatusBadParm, std::string("invalid ") + what + " " + std::to_string(v));
}

// Runs `body` (returning void), mapping exceptions to status codes. Error messages go to the
// thread-local last-error buffer and to the log at level Error (only when logging asks).
template <class F>
miopenStatus_t tryCatch(const char* api, F&& body) noexcept
{
    try
    {
        body();
        return miopenStatusSuccess;
    }
    catch(const Exception& e)
    {
        setLastErrorMessage(api, e.what());
        return e.status();
    }
    catch(const std::bad_alloc&)
    {
        setLastErrorMessage(api, "out of host memory");
        return miopenStatusAllocFailed;
    }
    catch(const std::exception& e)
    {
        setLastErrorMessage(api, e.what());
        return miopenStatusUnknownError;
    }
    catch(...)
    {
        setLastErrorMessage(api, "unknown exception");
        return miopenStatusUnknownError;
    }
}

} // namespace miopen
