// FNV-1a 64-bit hashing of names into stable ids (engine ids, policy ids).
#pragma once

#include <cstdint>
#include <string_view>

namespace hipdnn_data_sdk::utilities
{

inline constexpr uint64_t kFnv1a64OffsetBasis = 0xcbf29ce484222325ULL;
inline constexpr uint64_t kFnv1a64Prime = 0x100000001b3ULL;

/// FNV-1a 64 of the bytes of `text`; the empty string hashes to 0 (never a valid id).
constexpr uint64_t fnv1a64(std::string_view text)
{
    if(text.empty())
    {
        return 0;
    }
    uint64_t hash = kFnv1a64OffsetBasis;
    for(char c : text)
    {
        hash ^= static_cast<uint64_t>(static_cast<unsigned char>(c));
        hash *= kFnv1a64Prime;
    }
    return hash;
}

/// Engine id of an engine name: the FNV-1a 64 hash reinterpreted as int64.
constexpr int64_t engineNameToId(std::string_view name)
{
    return static_cast<int64_t>(fnv1a64(name));
}

/// Heuristic policy ids use the same hash.
constexpr int64_t policyNameToId(std::string_view name)
{
    return static_cast<int64_t>(fnv1a64(name));
}

} // namespace hipdnn_data_sdk::utilities
