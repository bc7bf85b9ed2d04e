// Convenience header: the data SDK's scalar types.
#pragma once

#include <hipdnn_data_sdk/types/BFloat16.hpp>
#include <hipdnn_data_sdk/types/Half.hpp>
