// A compiled plan of the oneDNN provider and the recipe that builds it.
//
// A plan holds oneDNN primitives built once, the memory objects they read and write (created
// without data: their handles are set at each execution) and a few host steps (per-channel
// statistics conversions of batchnorm). Workspace layout, all offsets 64-byte aligned:
//   [intermediate buffers (reorders to/from oneDNN's preferred layouts, per-channel f32 vectors)]
//   [scratchpad: the largest user-mode scratchpad of the plan's primitives, shared since they run
//    one after the other]
// Executing allocates nothing: it sets memory handles and runs the steps in order. One plan may
// be executed from several threads; executions of one plan are serialized by its mutex.
#pragma once

#include <hipdnn_plugin_sdk/interfaces/IPlan.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace dnnl_provider
{

/// What a host step sees: the caller's buffers and the workspace.
class HostContext
{
public:
    HostContext(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t numBuffers, uint8_t* workspace)
        : _buffers(buffers)
        , _numBuffers(numBuffers)
        , _workspace(workspace)
    {
    }
    /// The caller's memory for a tensor uid; throws BAD_PARAM when the variant pack lacks it.
    void* user(int64_t uid) const;
    uint8_t* workspace(size_t offset) const { return _workspace + offset; }

private:
    const hipdnnPluginDeviceBuffer_t* _buffers;
    uint32_t _numBuffers;
    uint8_t* _workspace;
};

using HostStep = std::function<void(const HostContext&)>;

class DnnlPlan final : public hipdnn_plugin_sdk::IPlan
{
public:
    size_t getWorkspaceSize() const override { return _workspaceSize; }
    void execute(const hipdnnPluginDeviceBuffer_t* buffers,
                 uint32_t numBuffers,
                 void* workspace,
                 hipStream_t stream) const override;
    /// What the plan runs, e.g. "conv_fprop 2-D groups=1 [jit:avx512_core] + 2 reorders".
    const std::string& description() const { return _description; }

private:
    friend class PlanRecipe;
    struct UserBinding
    {
        int64_t uid;
        dnnl::memory memory;
    };
    struct WorkspaceBinding
    {
        size_t offset;
        dnnl::memory memory;
    };
    struct Step
    {
        dnnl::primitive primitive;
        std::unordered_map<int, dnnl::memory> args; // keeps the memory objects alive
        std::vector<dnnl_exec_arg_t> cArgs;         // the same, as oneDNN's C API takes them
        HostStep host;
        bool runsInline = false; // run on the calling thread alone (small reorders: no OpenMP team)
    };

    std::vector<UserBinding> _user;
    std::vector<WorkspaceBinding> _workspaceMemory;
    std::vector<Step> _steps;
    size_t _workspaceSize = 0;
    std::string _description;
    mutable dnnl::stream _stream; // used under _mutex only
    mutable std::mutex _mutex;
};

/// Builds a DnnlPlan step by step. Inputs are bound before the primitive that reads them (a
/// reorder is added when the caller's layout or type differs from the primitive's), outputs are
/// bound before it and their reorders run right after it.
class PlanRecipe
{
public:
    PlanRecipe();

    /// Memory of the caller's tensor `uid`, described by `md`.
    dnnl::memory user(int64_t uid, const dnnl::memory::desc& md);
    /// Memory in the workspace.
    dnnl::memory workspace(const dnnl::memory::desc& md);
    /// Reserves `bytes` of workspace; returns the offset.
    size_t reserve(size_t bytes);

    /// Input `uid` (caller layout `userMd`) as the primitive wants it (`wanted`).
    dnnl::memory input(int64_t uid, const dnnl::memory::desc& userMd, const dnnl::memory::desc& wanted);
    /// Output `uid` (caller layout `userMd`) as the primitive produces it (`produced`); a reorder
    /// back to the caller's layout runs after the next primitive.
    dnnl::memory output(int64_t uid, const dnnl::memory::desc& userMd, const dnnl::memory::desc& produced);

    /// Adds a primitive (its scratchpad is bound here), then the pending output reorders.
    /// `inlineStep`: run it on the calling thread alone (see kInlineReorderBytes).
    void addPrimitive(const dnnl::primitive& primitive,
                      const dnnl::primitive_desc_base& pd,
                      std::unordered_map<int, dnnl::memory> args,
                      bool inlineStep = false);
    void addHostStep(HostStep step);
    void describe(const std::string& text);

    std::unique_ptr<DnnlPlan> finish();

private:
    void addReorder(const dnnl::memory& from, const dnnl::memory& to);

    /// Reorders moving fewer bytes than this (e.g. the weights of most convolutions) run on the
    /// calling thread: waking an OpenMP team costs more than it saves, and on a loaded machine
    /// one descheduled team thread stalls the whole step.
    static constexpr size_t kInlineReorderBytes = size_t{1} << 20;

    std::unique_ptr<DnnlPlan> _plan;
    size_t _buffersEnd = 0;
    size_t _scratchpadSize = 0;
    std::vector<dnnl::memory> _scratchpads;
    std::vector<std::pair<dnnl::memory, dnnl::memory>> _pendingReorders;
    int _reorders = 0;
};

/// oneDNN's attribute with the scratchpad in user mode (every primitive of the provider).
dnnl::primitive_attr userScratchpadAttr();

} // namespace dnnl_provider
