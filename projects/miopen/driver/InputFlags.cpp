#include "InputFlags.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace miopen_driver
{

void InputFlags::add(const std::string& longName, char shortName, const std::string& value, const std::string& help)
{
    if(_byShort.count(shortName) != 0 || _byLong.count(longName) != 0)
        throw std::logic_error("flag declared twice: " + longName);
    _byShort[shortName] = _flags.size();
    _byLong[longName]   = _flags.size();
    _flags.push_back(Flag{longName, shortName, value, help});
}

InputFlags::ParseResult InputFlags::parse(int argc, char** argv, int first)
{
    for(int i = first; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if(arg == "-h" || arg == "--help" || arg == "-?")
        {
            printUsage();
            return ParseResult::Help;
        }
        std::size_t index = 0;
        if(arg.size() > 2 && arg[0] == '-' && arg[1] == '-')
        {
            const auto it = _byLong.find(arg.substr(2));
            if(it == _byLong.end())
            {
                std::printf("Long Name: %s Not Found !\n", arg.substr(2).c_str());
                printUsage();
                return ParseResult::Error;
            }
            index = it->second;
        }
        else if(arg.size() == 2 && arg[0] == '-')
        {
            const auto it = _byShort.find(arg[1]);
            if(it == _byShort.end())
            {
                std::printf("Input Flag: %c Not Found !\n", arg[1]);
                printUsage();
                return ParseResult::Error;
            }
            index = it->second;
        }
        else
        {
            std::printf("Illegal input flag: %s\n", arg.c_str());
            printUsage();
            return ParseResult::Error;
        }
        if(i + 1 >= argc)
        {
            std::printf("Input flag %s has no value\n", arg.c_str());
            printUsage();
            return ParseResult::Error;
        }
        _flags[index].value = argv[++i];
        _flags[index].given = true;
    }
    return ParseResult::Ok;
}

const InputFlags::Flag& InputFlags::find(const std::string& longName) const
{
    const auto it = _byLong.find(longName);
    if(it == _byLong.end())
        throw std::logic_error("undeclared flag read: " + longName);
    return _flags[it->second];
}

std::string InputFlags::str(const std::string& longName) const { return find(longName).value; }

long long InputFlags::integer64(const std::string& longName) const
{
    const auto& f = find(longName);
    char* end     = nullptr;
    errno         = 0;
    const long long v = std::strtoll(f.value.c_str(), &end, 10);
    if(f.value.empty() || end == nullptr || *end != '\0' || errno != 0)
        throw std::invalid_argument("--" + f.longName + " (-" + f.shortName + ") expects an integer, got '" +
                                    f.value + "'");
    return v;
}

int InputFlags::integer(const std::string& longName) const
{
    const long long v = integer64(longName);
    if(v < -2147483647LL - 1 || v > 2147483647LL)
        throw std::invalid_argument("--" + longName + " is out of range");
    return static_cast<int>(v);
}

std::vector<int> InputFlags::spatial(bool is3d, const char* d, const char* h, const char* w) const
{
    std::vector<int> v;
    if(is3d)
        v.push_back(integer(d));
    v.push_back(integer(h));
    v.push_back(integer(w));
    return v;
}

double InputFlags::real(const std::string& longName) const
{
    const auto& f = find(longName);
    char* end     = nullptr;
    const double v = std::strtod(f.value.c_str(), &end);
    if(f.value.empty() || end == nullptr || *end != '\0')
        throw std::invalid_argument("--" + f.longName + " (-" + f.shortName + ") expects a number, got '" +
                                    f.value + "'");
    return v;
}

bool InputFlags::given(const std::string& longName) const { return find(longName).given; }

void InputFlags::printUsage() const
{
    std::printf("MIOpen Driver Input Flags: \n\n");
    for(const auto& [shortName, index] : _byShort)
    {
        const auto& f = _flags[index];
        std::printf("%8s%-20s-%c        %s (Default=%s)\n", "--", f.longName.c_str(), shortName, f.help.c_str(),
                    f.value.empty() ? "\"\"" : f.value.c_str());
    }
}

} // namespace miopen_driver
