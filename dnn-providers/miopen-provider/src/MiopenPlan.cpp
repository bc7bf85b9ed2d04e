#include "MiopenPlan.hpp"

namespace miopen_provider
{

using hipdnn_plugin_sdk::throwIfNot;

void* Buffers::at(int64_t uid) const
{
    for(uint32_t i = 0; i < _count; ++i)
    {
        if(_buffers[i].uid == uid)
        {
            if(_buffers[i].ptr == nullptr)
            {
                throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "the memory of tensor uid "
                                                                                              + std::to_string(uid)
                                                                                              + " is null");
            }
            return _buffers[i].ptr;
        }
    }
    throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             "no memory was given for tensor uid " + std::to_string(uid));
}

void MiopenPlan::execute(const hipdnnPluginDeviceBuffer_t* buffers,
                         uint32_t numBuffers,
                         void* workspace,
                         hipStream_t /*stream: MIOpen on the CPU runs synchronously in the caller*/) const
{
    throwIfNot(numBuffers == 0 || buffers != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM, "the buffer list is null");
    if(_workspaceSize != 0 && workspace == nullptr)
    {
        throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                 "the plan needs " + std::to_string(_workspaceSize)
                                                     + " workspace bytes but none was given");
    }
    const Buffers table(buffers, numBuffers, workspace);
    std::lock_guard<std::mutex> lock(_mutex);
    _body(table);
}

} // namespace miopen_provider
