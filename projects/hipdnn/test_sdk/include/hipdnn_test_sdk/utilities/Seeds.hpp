// Test seeds: HIPDNN_GLOBAL_TEST_SEED (a number, or RANDOM) else 1. The seed of a failing run is
// printed by tests so it can be reproduced.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace hipdnn_test_sdk::utilities
{

inline uint32_t getGlobalTestSeed()
{
    static const uint32_t seed = [] {
        const char* env = std::getenv("HIPDNN_GLOBAL_TEST_SEED");
        if(env == nullptr || *env == '\0')
        {
            return uint32_t{1};
        }
        if(std::string(env) == "RANDOM")
        {
            return static_cast<uint32_t>(std::random_device{}());
        }
        return static_cast<uint32_t>(std::strtoul(env, nullptr, 10));
    }();
    return seed;
}

/// A per-use seed derived from the global seed and a salt (so tensors differ from each other).
inline uint32_t deriveSeed(uint32_t salt)
{
    uint64_t x = (static_cast<uint64_t>(getGlobalTestSeed()) << 32) ^ (salt * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<uint32_t>(x);
}

} // namespace hipdnn_test_sdk::utilities
