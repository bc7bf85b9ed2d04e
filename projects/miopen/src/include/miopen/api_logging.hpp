// MIOPEN_ENABLE_LOGGING: each C entry point prints its signature, one TAB-indented
// "name = value" line per argument, and a closing brace, as upstream does:
//   MIOpen(HIP): miopenStatus_t miopenCreate(miopenHandle**){
//   MIOpen(HIP): 	handle = 0x5581...
//   MIOpen(HIP): }
// Descriptors (tensor, convolution, activation, pooling, LRN, fusion plan and operator) print their
// contents (toString()); other pointers their address (or nullptr); enums as ints.
#pragma once

#include <miopen/activation.hpp>
#include <miopen/convolution.hpp>
#include <miopen/fusion.hpp>
#include <miopen/logger.hpp>
#include <miopen/lrn.hpp>
#include <miopen/pooling.hpp>
#include <miopen/tensor.hpp>

#include <sstream>
#include <string>
#include <type_traits>

namespace miopen {
namespace api_logging {

// The internal class behind each public descriptor handle whose contents the log prints
// (toString()), and what to call it when the pointer is not such an object.
template <class Public>
struct LoggedObject
{
    static constexpr bool kPrinted = false;
};
#define MIOPEN_API_LOGGED_OBJECT(PUBLIC, INTERNAL, WHAT) \
    template <>                                          \
    struct LoggedObject<PUBLIC>                          \
    {                                                    \
        static constexpr bool kPrinted = true;           \
        using Internal                 = INTERNAL;       \
        static constexpr const char* kWhat = WHAT;       \
    }
MIOPEN_API_LOGGED_OBJECT(miopenTensorDescriptor, TensorDescriptor, "a tensor descriptor");
MIOPEN_API_LOGGED_OBJECT(miopenConvolutionDescriptor, ConvolutionDescriptor, "a convolution descriptor");
MIOPEN_API_LOGGED_OBJECT(miopenActivationDescriptor, ActivationDescriptor, "an activation descriptor");
MIOPEN_API_LOGGED_OBJECT(miopenPoolingDescriptor, PoolingDescriptor, "a pooling descriptor");
MIOPEN_API_LOGGED_OBJECT(miopenLRNDescriptor, LrnDescriptor, "an LRN descriptor");
MIOPEN_API_LOGGED_OBJECT(miopenFusionPlanDescriptor, FusionPlan, "a fusion plan");
MIOPEN_API_LOGGED_OBJECT(miopenFusionOpDescriptor, FusionOp, "a fusion operator");
#undef MIOPEN_API_LOGGED_OBJECT

template <class T>
void printValue(std::ostream& os, const T& v)
{
    using Pointee = std::remove_cv_t<std::remove_pointer_t<std::remove_cv_t<T>>>;
    if constexpr(std::is_pointer_v<T> && LoggedObject<Pointee>::kPrinted)
    {
        using Internal = typename LoggedObject<Pointee>::Internal;
        const auto* d  = static_cast<const Internal*>(v);
        if(d == nullptr)
            os << "nullptr";
        else if(!d->hasKind())
            os << static_cast<const void*>(v) << " (not " << LoggedObject<Pointee>::kWhat << ")";
        else
            os << d->toString();
    }
    else if constexpr(std::is_pointer_v<T>)
    {
        if(v == nullptr)
            os << "nullptr";
        else
            os << reinterpret_cast<const void*>(v);
    }
    else if constexpr(std::is_enum_v<T>)
        os << rawEnum(v); // never load a caller's enum value as the enum type
    else if constexpr(std::is_same_v<T, bool>)
        os << (v ? 1 : 0);
    else
        os << v;
}

inline void printArgs(std::ostringstream&, const char*) {}

template <class T, class... Rest>
void printArgs(std::ostringstream& os, const char* names, const T& first, const Rest&... rest)
{
    // `names` is the stringized argument list: "a, b, c".
    while(*names == ' ' || *names == ',')
        ++names;
    const char* end = names;
    while(*end != '\0' && *end != ',')
        ++end;
    os.str("");
    os << '\t' << std::string(names, end) << " = ";
    printValue(os, first);
    logRaw(os.str());
    printArgs(os, end, rest...);
}

// Never throws: logging must not turn a call into a crash.
template <class... Args>
void logFunction(const char* signature, const char* names, const Args&... args) noexcept
{
    if(!isApiLoggingEnabled())
        return;
    try
    {
        // Entry points are defined as miopenFoo_impl; the log shows the public name miopenFoo.
        std::string sig(signature);
        const auto impl = sig.find("_impl(");
        if(impl != std::string::npos)
            sig.erase(impl, 5);
        logRaw(sig + "{");
        std::ostringstream os;
        printArgs(os, names, args...);
        logRaw("}");
    }
    catch(...)
    {
    }
}

} // namespace api_logging
} // namespace miopen

#define MIOPEN_LOG_FUNCTION(...) \
    ::miopen::api_logging::logFunction(__PRETTY_FUNCTION__, #__VA_ARGS__, __VA_ARGS__)
