// Command-line flags of one MIOpenDriver sub-command, as upstream's driver takes them: `-x value`
// (short name) or `--long_name value`; `-h`, `--help` or `-?` prints the flag table. Unlike
// upstream, a flag the sub-command does not know, a flag without a value or an argument that is
// not a flag is an error (the table is printed and the driver exits non-zero).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace miopen_driver
{

class InputFlags
{
public:
    enum class ParseResult
    {
        Ok,
        Help,  // the table was printed on request: exit 0
        Error, // a message and the table were printed: exit non-zero
    };

    /// Declares a flag. `value` is the default (a string, converted on read).
    void add(const std::string& longName, char shortName, const std::string& value, const std::string& help);

    /// Parses argv[first..argc).
    ParseResult parse(int argc, char** argv, int first);

    std::string str(const std::string& longName) const;
    int integer(const std::string& longName) const;
    // The spatial values of a 2-D (h, w) or 3-D (d, h, w) problem, in that order.
    std::vector<int> spatial(bool is3d, const char* d, const char* h, const char* w) const;
    long long integer64(const std::string& longName) const;
    double real(const std::string& longName) const;
    /// True when the flag was given on the command line (not left at its default).
    bool given(const std::string& longName) const;

    void printUsage() const;

private:
    struct Flag
    {
        std::string longName;
        char shortName;
        std::string value;
        std::string help;
        bool given = false;
    };
    const Flag& find(const std::string& longName) const;

    std::vector<Flag> _flags;
    std::map<char, std::size_t> _byShort;
    std::map<std::string, std::size_t> _byLong;
};

} // namespace miopen_driver
