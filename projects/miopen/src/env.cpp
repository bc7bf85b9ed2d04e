#include <miopen/env.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace miopen {
namespace env {

std::optional<std::string> raw(const char* name)
{
    const char* v = std::getenv(name);
    if(v == nullptr)
        return std::nullopt;
    return std::string(v);
}

bool boolean(const char* name, bool fallback)
{
    auto v = raw(name);
    if(!v)
        return fallback;
    std::string s = *v;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    if(s == "1" || s == "on" || s == "yes" || s == "true" || s == "enable" || s == "enabled")
        return true;
    if(s == "0" || s == "off" || s == "no" || s == "false" || s == "disable" || s == "disabled")
        return false;
    return fallback;
}

long integer(const char* name, long fallback)
{
    auto v = raw(name);
    if(!v || v->empty())
        return fallback;
    char* end    = nullptr;
    const long r = std::strtol(v->c_str(), &end, 10);
    if(end == nullptr || *end != '\0')
        return fallback;
    return r;
}

} // namespace env
} // namespace miopen
