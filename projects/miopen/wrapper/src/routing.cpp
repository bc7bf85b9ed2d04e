#include "routing.hpp"

#include "forwarding_set.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib> // strtol

namespace miopen {
namespace wrapper {

const char* modeName(Mode m)
{
    switch(m)
    {
    case Mode::Enabled: return "enabled";
    case Mode::Verify: return "verify";
    case Mode::Disabled: break;
    }
    return "disabled";
}
const char* routeName(Route r) { return r == Route::HipDnn ? "hipdnn" : "miopen"; }

const char* reasonName(Reason r)
{
    switch(r)
    {
    case Reason::ForwardingOff: return "forwarding-off";
    case Reason::NotInForwardingSet: return "not-in-forwarding-set";
    case Reason::DisabledByEnv: return "disabled-by-env";
    case Reason::MiopenOnlyVariable: return "miopen-only-variable";
    case Reason::InForwardingSet: return "in-forwarding-set";
    }
    return "?";
}

namespace {

struct Family
{
    std::string_view name;
    std::vector<std::string_view> members;
};

// The op families of the forwarding set, in order: generated from generator/policy.txt, where the
// set is declared once (workspace queries, Find, descriptor calls and the bias-only calls stay on
// Private).
const std::vector<Family>& families()
{
    static const std::vector<Family> kList = [] {
        std::vector<Family> f;
        for(const FamilyRow& row : wrapper::kFamilies)
            f.push_back({row.name, {kForwardedEntries.begin() + static_cast<std::ptrdiff_t>(row.first),
                                    kForwardedEntries.begin() + static_cast<std::ptrdiff_t>(row.first + row.count)}});
        return f;
    }();
    return kList;
}

} // namespace

const std::vector<std::string_view>& forwardingSet()
{
    static const std::vector<std::string_view> kSet(kForwardedEntries.begin(), kForwardedEntries.end());
    return kSet;
}

bool inForwardingSet(std::string_view entry)
{
    const auto& s = forwardingSet();
    return std::find(s.begin(), s.end(), entry) != s.end();
}

const std::vector<std::string_view>& familyMembers(std::string_view family)
{
    static const std::vector<std::string_view> kNone;
    for(const auto& f : families())
        if(f.name == family)
            return f.members;
    return kNone;
}

std::string_view familyOf(std::string_view entry)
{
    for(const auto& f : families())
        if(std::find(f.members.begin(), f.members.end(), entry) != f.members.end())
            return f.name;
    return {};
}

bool OptOut::contains(std::string_view entry) const
{
    return all || std::find(entries.begin(), entries.end(), entry) != entries.end();
}

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    if(b == std::string::npos)
        return "";
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

} // namespace

Mode parseMode(const char* value, bool& fromEnv, std::vector<std::string>& warnings)
{
    fromEnv = false;
    if(value == nullptr || *value == '\0')
        return Mode::Disabled;
    const std::string v = lower(value);
    for(const char* on : {"enabled", "enable", "on", "1", "yes", "true"})
        if(v == on)
        {
            fromEnv = true;
            return Mode::Enabled;
        }
    if(v == "verify")
    {
        fromEnv = true;
        return Mode::Verify;
    }
    for(const char* off : {"disabled", "disable", "off", "0", "no", "false"})
        if(v == off)
        {
            fromEnv = true;
            return Mode::Disabled;
        }
    warnings.push_back(std::string("MIOPEN_HIPDNN_FORWARDING is set to '") + value +
                       "', which is not a recognized value; hipDNN forwarding stays disabled "
                       "(recognized: enabled, verify, disabled and the usual boolean spellings)");
    return Mode::Disabled;
}

OptOut parseOptOut(const char* value, const std::vector<std::string_view>& forwardable,
                   std::vector<std::string>& warnings)
{
    OptOut o;
    if(value == nullptr)
        return o;
    std::string list(value);
    std::size_t start = 0;
    while(start <= list.size())
    {
        const std::size_t comma = list.find(',', start);
        const std::string item  = trim(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if(item == "*")
            o.all = true;
        else if(!familyMembers(item).empty())
        {
            // The family name: every entry point of the family this build forwards.
            for(auto e : familyMembers(item))
                if(std::find(forwardable.begin(), forwardable.end(), e) != forwardable.end())
                    o.entries.emplace_back(e);
        }
        else if(!item.empty())
        {
            if(std::find(forwardable.begin(), forwardable.end(), item) == forwardable.end())
                warnings.push_back("MIOPEN_DISABLE_HIPDNN_FOR names '" + item +
                                   "', which is not an entry point this build forwards to hipDNN; it has no effect");
            else
                o.entries.push_back(item);
        }
        if(comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return o;
}

int parseLogLevel(const char* value)
{
    if(value == nullptr)
        return 0;
    char* end    = nullptr;
    const long v = std::strtol(value, &end, 10);
    return end != value && *end == '\0' && v >= 0 && v <= 7 ? static_cast<int>(v) : 0;
}

Decision resolveRoute(Mode mode, std::string_view entry, const OptOut& optOut,
                      const std::vector<std::string_view>& forwardable, std::string_view miopenOnlyVariable)
{
    if(mode == Mode::Disabled)
        return {Route::Private, Reason::ForwardingOff};
    if(std::find(forwardable.begin(), forwardable.end(), entry) == forwardable.end())
        return {Route::Private, Reason::NotInForwardingSet};
    if(optOut.contains(entry))
        return {Route::Private, Reason::DisabledByEnv};
    // The MIOpen-only variables of env_mapping.hpp are convolution solver controls.
    if(!miopenOnlyVariable.empty() && familyOf(entry) == "convolution")
        return {Route::Private, Reason::MiopenOnlyVariable};
    return {Route::HipDnn, Reason::InForwardingSet};
}

} // namespace wrapper
} // namespace miopen
