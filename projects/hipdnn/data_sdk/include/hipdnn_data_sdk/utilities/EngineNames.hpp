// Registered engine names and their fixed ids (ids are FNV-1a 64 of the name, never of a class).
#pragma once

#include <hipdnn_data_sdk/utilities/StringUtil.hpp>

#include <cstdint>
#include <string_view>

/// Declares NAME_NAME (the string) and NAME_ID (its id) for an engine name.
#define HIPDNN_REGISTER_ENGINE(NAME)                                                  \
    inline constexpr std::string_view NAME##_NAME = #NAME;                            \
    inline constexpr int64_t NAME##_ID = ::hipdnn_data_sdk::utilities::engineNameToId(#NAME)

namespace hipdnn_data_sdk::utilities
{

// Upstream providers (known here so that ids and names agree everywhere).
HIPDNN_REGISTER_ENGINE(MIOPEN_ENGINE);
HIPDNN_REGISTER_ENGINE(MIOPEN_ENGINE_DETERMINISTIC);
HIPDNN_REGISTER_ENGINE(HIPBLASLT_ENGINE);
HIPDNN_REGISTER_ENGINE(HIP_MLOPS_ENGINE);
HIPDNN_REGISTER_ENGINE(ASM_SDPA_ENGINE);
HIPDNN_REGISTER_ENGINE(ROCKE_ENGINE);
// Engines of this repository.
HIPDNN_REGISTER_ENGINE(DNNL_ENGINE);
HIPDNN_REGISTER_ENGINE(EXAMPLE_NAIVE_ENGINE);

static_assert(MIOPEN_ENGINE_ID == static_cast<int64_t>(0x15B46865C717A122ULL));
static_assert(MIOPEN_ENGINE_DETERMINISTIC_ID == static_cast<int64_t>(0xA258541A6DAA1DE3ULL));
static_assert(HIPBLASLT_ENGINE_ID == static_cast<int64_t>(0x79AEB17432D4A22BULL));

/// The registered name of an id, or an empty view when the id is not registered here.
constexpr std::string_view engineIdToName(int64_t id)
{
    constexpr std::string_view kNames[] = {MIOPEN_ENGINE_NAME,
                                           MIOPEN_ENGINE_DETERMINISTIC_NAME,
                                           HIPBLASLT_ENGINE_NAME,
                                           HIP_MLOPS_ENGINE_NAME,
                                           ASM_SDPA_ENGINE_NAME,
                                           ROCKE_ENGINE_NAME,
                                           DNNL_ENGINE_NAME,
                                           EXAMPLE_NAIVE_ENGINE_NAME};
    for(std::string_view name : kNames)
    {
        if(engineNameToId(name) == id)
        {
            return name;
        }
    }
    return {};
}

} // namespace hipdnn_data_sdk::utilities
