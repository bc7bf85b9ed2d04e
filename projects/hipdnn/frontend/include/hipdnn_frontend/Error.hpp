// Value-based errors: the frontend never throws; every fallible call returns an Error.
#pragma once

#include <ostream>
#include <string>

namespace hipdnn_frontend
{

enum class ErrorCode
{
    OK,
    INVALID_VALUE,
    HIPDNN_BACKEND_ERROR,
    ATTRIBUTE_NOT_SET,
    GRAPH_NOT_SUPPORTED,
    SHAPE_DEDUCTION_FAILED,
    INVALID_TENSOR_NAME,
    INVALID_VARIANT_PACK,
    UNSUPPORTED_GRAPH_FORMAT
};

inline const char* errorCodeName(ErrorCode code)
{
    switch(code)
    {
    case ErrorCode::OK: return "OK";
    case ErrorCode::INVALID_VALUE: return "INVALID_VALUE";
    case ErrorCode::HIPDNN_BACKEND_ERROR: return "HIPDNN_BACKEND_ERROR";
    case ErrorCode::ATTRIBUTE_NOT_SET: return "ATTRIBUTE_NOT_SET";
    case ErrorCode::GRAPH_NOT_SUPPORTED: return "GRAPH_NOT_SUPPORTED";
    case ErrorCode::SHAPE_DEDUCTION_FAILED: return "SHAPE_DEDUCTION_FAILED";
    case ErrorCode::INVALID_TENSOR_NAME: return "INVALID_TENSOR_NAME";
    case ErrorCode::INVALID_VARIANT_PACK: return "INVALID_VARIANT_PACK";
    case ErrorCode::UNSUPPORTED_GRAPH_FORMAT: return "UNSUPPORTED_GRAPH_FORMAT";
    }
    return "UNKNOWN";
}

struct [[nodiscard]] Error
{
    ErrorCode code = ErrorCode::OK;
    std::string err_msg;

    Error() = default;
    Error(ErrorCode c, std::string message)
        : code(c)
        , err_msg(std::move(message))
    {
    }

    ErrorCode get_code() const { return code; }
    const std::string& get_message() const { return err_msg; }
    bool is_good() const { return code == ErrorCode::OK; }
    bool is_bad() const { return code != ErrorCode::OK; }
    bool operator==(ErrorCode c) const { return code == c; }
    bool operator!=(ErrorCode c) const { return code != c; }
};

using error_t = Error;
using error_object = Error;

inline std::ostream& operator<<(std::ostream& os, const Error& e)
{
    return os << errorCodeName(e.code) << (e.err_msg.empty() ? "" : ": ") << e.err_msg;
}

} // namespace hipdnn_frontend

/// Returns the Error from the enclosing function when `expr` yields a bad Error.
#define HIPDNN_CHECK_ERROR(expr)                                                                 \
    do                                                                                            \
    {                                                                                             \
        ::hipdnn_frontend::Error hipdnnCheckError_ = (expr);                                      \
        if(hipdnnCheckError_.is_bad())                                                            \
        {                                                                                         \
            return hipdnnCheckError_;                                                             \
        }                                                                                         \
    } while(false)

/// Returns Error{code, message} from the enclosing function when `condition` holds.
#define HIPDNN_RETURN_IF_TRUE(condition, code, message)                                          \
    do                                                                                            \
    {                                                                                             \
        if(condition)                                                                             \
        {                                                                                         \
            return ::hipdnn_frontend::Error((code), (message));                                   \
        }                                                                                         \
    } while(false)
