#include "forwarding_route.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace test {
namespace route {

namespace {

std::string lower(std::string s)
{
    for(auto& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

long field(const std::string& line, const std::string& name)
{
    const auto at = line.find(" " + name + "=");
    return at == std::string::npos ? 0 : std::strtol(line.c_str() + at + name.size() + 2, nullptr, 10);
}

// Points the wrapper's counters file at a file of this process (unless the run set one) before the
// first test, and prints the per-entry counts after the last.
class RouteEnvironment : public ::testing::Environment
{
public:
    void SetUp() override
    {
        const char* set = std::getenv("MIOPEN_HIPDNN_COUNTERS_FILE");
        if(set != nullptr && *set != '\0')
            return;
        _path = (std::filesystem::temp_directory_path() /
                 ("miopen-routes-" + std::to_string(::getpid()) + ".txt"))
                    .string();
        std::remove(_path.c_str());
        ::setenv("MIOPEN_HIPDNN_COUNTERS_FILE", _path.c_str(), 1);
    }
    void TearDown() override
    {
        const auto counts = readCounters();
        std::ostringstream s;
        s << "[ routes   ] forwarding " << (forwardingEnabled() ? "enabled" : "disabled");
        const std::string engine = expectedEngine();
        if(!engine.empty())
            s << ", engine expected: " << engine;
        s << "; hipDNN backend loaded: " << (backendLoaded() ? "yes" : "no") << "\n";
        bool any = false;
        for(const auto& [entry, c] : counts)
        {
            if(c.forwarded + c.failed + c.declined + c.invalid + c.routed == 0)
                continue;
            any = true;
            s << "[ routes   ] " << entry << " forwarded=" << c.forwarded << " failed=" << c.failed
              << " declined=" << c.declined << " invalid=" << c.invalid << " routed=" << c.routed;
            if(verifyMode())
                s << " verified=" << c.verified << " mismatched=" << c.mismatched;
            s << "\n";
            if(verifyMode() && c.mismatched > 0)
                ADD_FAILURE() << entry << ": " << c.mismatched
                              << " forwarded call(s) disagreed with MIOpen Private (see the [hipDNN-verify] lines)";
        }
        if(!any)
            s << "[ routes   ] no call of the forwarding set was forwarded, declined or counted\n";
        std::fputs(s.str().c_str(), stdout);
        if(!_path.empty())
            std::remove(_path.c_str());
    }

private:
    std::string _path;
};

const auto* const kRouteEnvironment = ::testing::AddGlobalTestEnvironment(new RouteEnvironment());

} // namespace

bool forwardingEnabled()
{
    const char* v = std::getenv("MIOPEN_HIPDNN_FORWARDING");
    if(v == nullptr)
        return false;
    const std::string s = lower(v);
    return s == "enabled" || s == "enable" || s == "on" || s == "yes" || s == "true" || s == "1" || s == "verify";
}

bool verifyMode()
{
    const char* v = std::getenv("MIOPEN_HIPDNN_FORWARDING");
    return v != nullptr && lower(v) == "verify";
}

std::string expectedEngine()
{
    const char* v = std::getenv("MIOPEN_TEST_EXPECT_ENGINE");
    return v == nullptr ? "" : v;
}

bool backendLoaded()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while(std::getline(maps, line))
        if(line.find("/libhipdnn_backend.so.1") != std::string::npos)
            return true;
    return false;
}

std::map<std::string, EntryCounts> readCounters()
{
    std::map<std::string, EntryCounts> out;
    const char* path = std::getenv("MIOPEN_HIPDNN_COUNTERS_FILE");
    if(path == nullptr || *path == '\0')
        return out;
    std::ifstream f(path);
    std::string line;
    while(std::getline(f, line))
    {
        const auto space = line.find(' ');
        if(space == std::string::npos)
            continue;
        EntryCounts c;
        c.forwarded   = field(line, "forwarded");
        c.failed      = field(line, "failed");
        c.declined    = field(line, "declined");
        c.invalid     = field(line, "invalid");
        c.routed      = field(line, "routed");
        c.verified    = field(line, "verified");
        c.mismatched  = field(line, "mismatched");
        const auto at = line.find(" last=");
        c.last        = at == std::string::npos ? "" : line.substr(at + 6);
        out[line.substr(0, space)] = c;
    }
    return out;
}

long long engineIdOf(const std::string& name)
{
    std::uint64_t h = 14695981039346656037ULL;
    for(unsigned char ch : name)
    {
        h ^= ch;
        h *= 1099511628211ULL;
    }
    return static_cast<long long>(h);
}

Probe::Probe() : _before(readCounters()) {}

::testing::AssertionResult Probe::check(const std::string& entry, const Expected& expected) const
{
    const auto now    = readCounters();
    const auto before = _before.count(entry) != 0 ? _before.at(entry) : EntryCounts{};
    const auto after  = now.count(entry) != 0 ? now.at(entry) : EntryCounts{};
    const long fwd = after.forwarded - before.forwarded, failed = after.failed - before.failed,
               declined = after.declined - before.declined, invalid = after.invalid - before.invalid;
    std::ostringstream got;
    got << entry << " (expected " << expected.describe() << "): forwarded+" << fwd << " failed+" << failed
        << " declined+" << declined << " invalid+" << invalid << ", last route '" << after.last << "'";
    if(!forwardingEnabled())
    {
        if(fwd != 0 || failed != 0 || declined != 0 || invalid != 0)
            return ::testing::AssertionFailure() << "pass-through expected with forwarding disabled: " << got.str();
        if(backendLoaded())
            return ::testing::AssertionFailure() << "forwarding disabled but the hipDNN backend is mapped: " << got.str();
        return ::testing::AssertionSuccess();
    }
    if(!expected.forward)
    {
        if(declined != 1 || fwd != 0 || failed != 0 || invalid != 0 ||
           after.last != "route=miopen reason=declined:" + expected.reason)
            return ::testing::AssertionFailure() << got.str();
        return ::testing::AssertionSuccess();
    }
    if(fwd != 1 || failed != 0 || declined != 0 || invalid != 0 || after.last.rfind("route=hipdnn ", 0) != 0)
        return ::testing::AssertionFailure() << got.str();
    const auto e = after.last.find(" engine=");
    const auto i = after.last.find(" engine_id=");
    if(e == std::string::npos || i == std::string::npos || i < e)
        return ::testing::AssertionFailure() << "no engine in the route: " << got.str();
    const std::string name = after.last.substr(e + 8, i - (e + 8));
    const long long id     = std::strtoll(after.last.c_str() + i + 11, nullptr, 10);
    if(name.empty() || id != engineIdOf(name))
        return ::testing::AssertionFailure() << "engine id " << id << " is not the id of '" << name << "' ("
                                             << engineIdOf(name) << "): " << got.str();
    const std::string want = expectedEngine();
    if(!want.empty() && name != want)
        return ::testing::AssertionFailure() << "ran on " << name << ", expected " << want << ": " << got.str();
    return ::testing::AssertionSuccess();
}

} // namespace route
} // namespace test
