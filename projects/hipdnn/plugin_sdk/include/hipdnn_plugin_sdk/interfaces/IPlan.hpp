// A compiled plan: what an execution context holds.
#pragma once

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include <cstddef>
#include <cstdint>

namespace hipdnn_plugin_sdk
{

class IPlan
{
public:
    virtual ~IPlan() = default;
    virtual size_t getWorkspaceSize() const = 0;
    /// Runs the plan; throws PluginException (or any exception) on failure.
    virtual void execute(const hipdnnPluginDeviceBuffer_t* buffers,
                         uint32_t numBuffers,
                         void* workspace,
                         hipStream_t stream) const
        = 0;
};

} // namespace hipdnn_plugin_sdk
