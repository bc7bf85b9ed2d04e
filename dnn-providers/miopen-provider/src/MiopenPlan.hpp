// A compiled plan of the MIOpen provider.
//
// Built once per graph: the MIOpen handle, the tensor / convolution / activation descriptors, the
// fusion plan and the convolution solution id all live in the plan. Executing looks up the
// caller's buffers by uid (no allocation), hands them to the MIOpen calls prepared at build and
// returns when MIOpen does (MIOpen runs on its own thread pool, docs/threading.md). One MIOpen
// handle is not meant for two threads at once, so executions of one plan are serialized by the
// plan's mutex; different plans run concurrently.
#pragma once

#include "MiopenApi.hpp"

#include <hipdnn_plugin_sdk/interfaces/IPlan.hpp>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace miopen_provider
{

/// The caller's buffers of one execution.
class Buffers
{
public:
    Buffers(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count, void* workspace)
        : _buffers(buffers)
        , _count(count)
        , _workspace(workspace)
    {
    }
    /// The memory of tensor `uid`; throws BAD_PARAM when the variant pack lacks it or it is null.
    void* at(int64_t uid) const;
    void* workspace() const { return _workspace; }

private:
    const hipdnnPluginDeviceBuffer_t* _buffers;
    uint32_t _count;
    void* _workspace;
};

/// What a plan runs: the MIOpen calls with the buffers of one execution.
using PlanBody = std::function<void(const Buffers&)>;

class MiopenPlan final : public hipdnn_plugin_sdk::IPlan
{
public:
    MiopenPlan(Handle handle, size_t workspaceSize, std::string description, PlanBody body)
        : _handle(std::move(handle))
        , _workspaceSize(workspaceSize)
        , _description(std::move(description))
        , _body(std::move(body))
    {
    }
    size_t getWorkspaceSize() const override { return _workspaceSize; }
    void execute(const hipdnnPluginDeviceBuffer_t* buffers,
                 uint32_t numBuffers,
                 void* workspace,
                 hipStream_t stream) const override;
    /// What the plan runs, e.g. "conv_fprop 2-D groups=1 solution 91 (GEMM)".
    const std::string& description() const { return _description; }
    /// The convolution solution id the plan runs (0 when it runs no immediate-mode convolution).
    uint64_t solutionId() const { return _solutionId; }
    void setSolutionId(uint64_t id) { _solutionId = id; }

private:
    Handle _handle;
    size_t _workspaceSize;
    std::string _description;
    PlanBody _body;
    uint64_t _solutionId = 0;
    mutable std::mutex _mutex;
};

} // namespace miopen_provider
