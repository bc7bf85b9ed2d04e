// miopen_compare_run_outputs <reference dir> <dir>...: compares the output buffers that two or
// more runs of the public-API suite wrote (common/run_outputs.hpp), case by case. Fails when a
// directory is missing or empty, when the sets of files differ (a case missing on either side),
// when two files of a case differ in size, or when values differ beyond the tolerance of their
// type. Prints, per compared directory and type, the file count and the largest absolute,
// relative and normalized differences, and the worst files.
//
// Tolerance (normalized: max |a - b| over a buffer, divided by max(1, max |a|) of the reference
// buffer — the scale the suite's own bounds use): f32 1e-3, f16 8e-3, bf16 6.25e-2 (about 8 units
// in the last place of the output type at the buffer's scale: each run is within its own bound of
// the exact result, and a forwarded call may use another solver than the disabled run's
// algorithm), i32 and i8 exact. NaN must match NaN.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct TypeInfo
{
    std::size_t size;
    double tolerance;
};

const std::map<std::string, TypeInfo>& types()
{
    static const std::map<std::string, TypeInfo> t = {
        {"f32", {4, 1e-3}}, {"f16", {2, 8e-3}}, {"bf16", {2, 6.25e-2}}, {"i32", {4, 0.0}}, {"i8", {1, 0.0}}};
    return t;
}

double halfToDouble(std::uint16_t h)
{
    const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if(exp == 0)
        v = std::ldexp(static_cast<double>(mant), -24);
    else if(exp == 31)
        v = mant == 0 ? INFINITY : NAN;
    else
        v = std::ldexp(static_cast<double>(mant | 0x400), exp - 25);
    return sign != 0 ? -v : v;
}

std::vector<double> decode(const std::string& type, const std::vector<char>& bytes)
{
    const std::size_t size = types().at(type).size;
    std::vector<double> out(bytes.size() / size);
    for(std::size_t i = 0; i < out.size(); ++i)
    {
        const char* p = bytes.data() + i * size;
        if(type == "f32")
        {
            float f;
            std::memcpy(&f, p, 4);
            out[i] = f;
        }
        else if(type == "f16" || type == "bf16")
        {
            std::uint16_t h;
            std::memcpy(&h, p, 2);
            if(type == "f16")
                out[i] = halfToDouble(h);
            else
            {
                const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
                float f;
                std::memcpy(&f, &bits, 4);
                out[i] = f;
            }
        }
        else if(type == "i32")
        {
            std::int32_t v;
            std::memcpy(&v, p, 4);
            out[i] = v;
        }
        else
            out[i] = static_cast<std::int8_t>(*p);
    }
    return out;
}

std::vector<char> readAll(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::set<std::string> listing(const fs::path& dir)
{
    std::set<std::string> names;
    for(const auto& e : fs::directory_iterator(dir))
        if(e.is_regular_file())
            names.insert(e.path().filename().string());
    return names;
}

struct Stats
{
    int files = 0;
    double maxAbs = 0, maxRel = 0, maxNorm = 0;
    std::vector<std::pair<double, std::string>> worst; // normalized difference, file
};

// Compares `other` against `ref`; returns the number of problems found.
int compareDirs(const fs::path& ref, const fs::path& other)
{
    int problems = 0;
    if(!fs::is_directory(ref) || !fs::is_directory(other))
    {
        std::printf("FAIL: %s or %s is not a directory\n", ref.c_str(), other.c_str());
        return 1;
    }
    const auto a = listing(ref), b = listing(other);
    if(a.empty() || b.empty())
    {
        std::printf("FAIL: no outputs in %s\n", (a.empty() ? ref : other).c_str());
        ++problems;
    }
    for(const auto& n : a)
        if(b.count(n) == 0)
        {
            std::printf("FAIL: %s is missing in %s\n", n.c_str(), other.c_str());
            ++problems;
        }
    for(const auto& n : b)
        if(a.count(n) == 0)
        {
            std::printf("FAIL: %s is missing in %s\n", n.c_str(), ref.c_str());
            ++problems;
        }
    std::map<std::string, Stats> stats;
    for(const auto& n : a)
    {
        if(b.count(n) == 0)
            continue;
        const std::string type = n.substr(n.find_last_of('.') + 1);
        if(types().count(type) == 0)
        {
            std::printf("FAIL: %s: unknown type suffix\n", n.c_str());
            ++problems;
            continue;
        }
        const auto ba = readAll(ref / n), bb = readAll(other / n);
        if(ba.size() != bb.size() || ba.size() % types().at(type).size != 0)
        {
            std::printf("FAIL: %s: %zu bytes against %zu\n", n.c_str(), ba.size(), bb.size());
            ++problems;
            continue;
        }
        const auto va = decode(type, ba), vb = decode(type, bb);
        double scale = 1.0, maxAbs = 0.0, maxRel = 0.0;
        bool nanMismatch = false;
        for(std::size_t i = 0; i < va.size(); ++i)
        {
            if(std::isnan(va[i]) || std::isnan(vb[i]))
            {
                nanMismatch = nanMismatch || std::isnan(va[i]) != std::isnan(vb[i]);
                continue;
            }
            scale           = std::max(scale, std::fabs(va[i]));
            const double d  = std::fabs(va[i] - vb[i]);
            const double mg = std::max(std::fabs(va[i]), std::fabs(vb[i]));
            maxAbs          = std::max(maxAbs, d);
            if(mg >= 1e-3)
                maxRel = std::max(maxRel, d / mg);
        }
        const double norm = maxAbs / scale;
        auto& s           = stats[type];
        ++s.files;
        s.maxAbs  = std::max(s.maxAbs, maxAbs);
        s.maxRel  = std::max(s.maxRel, maxRel);
        s.maxNorm = std::max(s.maxNorm, norm);
        s.worst.emplace_back(norm, n);
        if(nanMismatch || norm > types().at(type).tolerance)
        {
            std::printf("FAIL: %s: normalized difference %.3g (max abs %.3g) exceeds %.3g%s\n", n.c_str(), norm, maxAbs,
                        types().at(type).tolerance, nanMismatch ? "; NaN in one run only" : "");
            ++problems;
        }
    }
    std::printf("%s vs %s: %zu case outputs\n", ref.c_str(), other.c_str(), a.size());
    for(auto& [type, s] : stats)
    {
        std::printf("  %-4s files %5d  max abs diff %.3g  max rel diff %.3g  max normalized %.3g (tolerance %.3g)\n",
                    type.c_str(), s.files, s.maxAbs, s.maxRel, s.maxNorm, types().at(type).tolerance);
        std::sort(s.worst.rbegin(), s.worst.rend());
        for(std::size_t i = 0; i < s.worst.size() && i < 3 && s.worst[i].first > 0; ++i)
            std::printf("       worst: %.3g  %s\n", s.worst[i].first, s.worst[i].second.c_str());
    }
    return problems;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 3)
    {
        std::fprintf(stderr, "usage: %s <reference dir> <dir>...\n", argv[0]);
        return 2;
    }
    int problems = 0;
    for(int i = 2; i < argc; ++i)
        problems += compareDirs(argv[1], argv[i]);
    std::printf("%s: %d problem(s)\n", problems == 0 ? "PASS" : "FAIL", problems);
    return problems == 0 ? 0 : 1;
}
