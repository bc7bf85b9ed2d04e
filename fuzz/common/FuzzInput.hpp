// Reads a fuzz input as a sequence of small decisions. Every read is defined on every input:
// past the end it yields zeros, so a short input is a short, valid call sequence. Shared by the
// fuzz targets of fuzz/ (docs/sanitizers.md, "Fuzzing").
#pragma once

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <string>

namespace project_fuzz {

class FuzzInput
{
public:
    FuzzInput(const uint8_t* data, size_t size) : _data(data), _size(size) {}

    bool empty() const { return _pos >= _size; }
    size_t remaining() const { return _pos < _size ? _size - _pos : 0; }

    uint8_t byte() { return _pos < _size ? _data[_pos++] : 0; }

    uint32_t u32()
    {
        uint32_t v = 0;
        for(int i = 0; i < 4; ++i)
            v = (v << 8) | byte();
        return v;
    }

    double real()
    {
        uint64_t bits = 0;
        for(int i = 0; i < 8; ++i)
            bits = (bits << 8) | byte();
        double d = 0;
        static_assert(sizeof(d) == sizeof(bits));
        __builtin_memcpy(&d, &bits, sizeof(d));
        return d;
    }

    // An int that is usually small (0..16) and sometimes an edge value: negative, zero, one past
    // a power of two, the int limits.
    int dim()
    {
        const uint8_t b = byte();
        if(b < 0xE0)
            return b % 17;
        static const int kEdges[] = {-1, -2, 0, 1, 64, 1 << 15, (1 << 16) + 1, 1 << 20, 1 << 24, 46341,
                                     INT_MAX / 2, INT_MAX - 1, INT_MAX, INT_MIN, INT_MIN + 1, -65536};
        return kEdges[b % (sizeof(kEdges) / sizeof(kEdges[0]))];
    }

    // A value for an enumeration of `count` members: mostly valid, sometimes just outside, or
    // any int.
    int enumValue(int count)
    {
        const uint8_t b = byte();
        if(b < 0xF0)
            return b % (count + 1);
        if(b < 0xF8)
            return -1 - (b & 3);
        return static_cast<int>(u32());
    }

    // Bytes up to the next `separator` (consumed) or the end.
    std::string field(char separator)
    {
        std::string s;
        while(_pos < _size)
        {
            const char c = static_cast<char>(_data[_pos++]);
            if(c == separator)
                break;
            s.push_back(c);
        }
        return s;
    }

private:
    const uint8_t* _data;
    size_t _size;
    size_t _pos = 0;
};

} // namespace project_fuzz

// An invariant of a fuzz target: on violation, print it and abort (the fuzzer saves the input).
#define PROJECT_FUZZ_CHECK(cond, what)                                                                       \
    do                                                                                                       \
    {                                                                                                        \
        if(!(cond))                                                                                          \
        {                                                                                                    \
            std::fprintf(stderr, "fuzz invariant violated at %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond,  \
                         what);                                                                              \
            std::abort();                                                                                    \
        }                                                                                                    \
    } while(false)
