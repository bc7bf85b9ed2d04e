#include "DnnlPlan.hpp"

#include "DnnlRuntime.hpp"

#include <hipdnn_plugin_sdk/PluginException.hpp>

namespace dnnl_provider
{

namespace
{
constexpr size_t kAlignment = 64;
size_t alignUp(size_t n)
{
    return (n + kAlignment - 1) / kAlignment * kAlignment;
}
} // namespace

using hipdnn_plugin_sdk::throwIfNot;

void* HostContext::user(int64_t uid) const
{
    for(uint32_t i = 0; i < _numBuffers; ++i)
    {
        if(_buffers[i].uid == uid)
        {
            throwIfNot(_buffers[i].ptr != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                       "the memory of tensor uid " + std::to_string(uid) + " is null");
            return _buffers[i].ptr;
        }
    }
    throw hipdnn_plugin_sdk::PluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             "no memory was given for tensor uid " + std::to_string(uid));
}

void DnnlPlan::execute(const hipdnnPluginDeviceBuffer_t* buffers,
                       uint32_t numBuffers,
                       void* workspace,
                       hipStream_t /*stream: CPU plans run synchronously in the caller*/) const
{
    // oneDNN's kernels (the Winograd ones among them) use aligned vector loads on their buffers:
    // the layout offsets are multiples of kAlignment from a base aligned here, whatever the
    // caller's workspace alignment (finish() reserves the slack).
    uint8_t* base = static_cast<uint8_t*>(workspace);
    if(base != nullptr)
    {
        base += (kAlignment - reinterpret_cast<uintptr_t>(base) % kAlignment) % kAlignment;
    }
    const HostContext ctx(buffers, numBuffers, base);
    throwIfNot(_workspaceSize == 0 || workspace != nullptr, HIPDNN_PLUGIN_STATUS_BAD_PARAM,
               "the plan needs " + std::to_string(_workspaceSize) + " workspace bytes but none was given");
    std::lock_guard<std::mutex> lock(_mutex);
    for(const auto& binding : _user)
    {
        binding.memory.set_data_handle(ctx.user(binding.uid));
    }
    for(const auto& binding : _workspaceMemory)
    {
        binding.memory.set_data_handle(ctx.workspace(binding.offset));
    }
    DnnlRuntime::applyThreadingPolicy();
    DnnlRuntime::placeTeam();
    for(const auto& step : _steps)
    {
        if(step.host)
        {
            step.host(ctx);
        }
        else
        {
            if(step.runsInline)
            {
                DnnlRuntime::runInline();
            }
            // The C entry point with the arguments prepared at build: the C++ wrapper would build
            // a vector per call.
            const dnnl_status_t status = dnnl_primitive_execute(step.primitive.get(), _stream.get(),
                                                                static_cast<int>(step.cArgs.size()), step.cArgs.data());
            if(step.runsInline)
            {
                DnnlRuntime::applyThreadingPolicy();
            }
            throwIfNot(status == dnnl_success, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                       "oneDNN failed to execute a primitive (status " + std::to_string(static_cast<int>(status))
                           + ")");
        }
    }
    throwIfNot(dnnl_stream_wait(_stream.get()) == dnnl_success, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
               "oneDNN failed to complete the plan");
}

PlanRecipe::PlanRecipe()
    : _plan(std::make_unique<DnnlPlan>())
{
    _plan->_stream = dnnl::stream(DnnlRuntime::engine());
}

dnnl::memory PlanRecipe::user(int64_t uid, const dnnl::memory::desc& md)
{
    dnnl::memory memory(md, DnnlRuntime::engine(), DNNL_MEMORY_NONE);
    _plan->_user.push_back({uid, memory});
    return memory;
}

size_t PlanRecipe::reserve(size_t bytes)
{
    const size_t offset = _buffersEnd;
    _buffersEnd += alignUp(bytes);
    return offset;
}

dnnl::memory PlanRecipe::workspace(const dnnl::memory::desc& md)
{
    dnnl::memory memory(md, DnnlRuntime::engine(), DNNL_MEMORY_NONE);
    _plan->_workspaceMemory.push_back({reserve(md.get_size()), memory});
    return memory;
}

void PlanRecipe::addReorder(const dnnl::memory& from, const dnnl::memory& to)
{
    const dnnl::reorder::primitive_desc pd(DnnlRuntime::engine(), from.get_desc(), DnnlRuntime::engine(),
                                           to.get_desc(), userScratchpadAttr());
    const size_t moved = from.get_desc().get_size() + to.get_desc().get_size();
    addPrimitive(dnnl::reorder(pd), pd, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}, moved < kInlineReorderBytes);
    ++_reorders;
}

dnnl::memory PlanRecipe::input(int64_t uid, const dnnl::memory::desc& userMd, const dnnl::memory::desc& wanted)
{
    dnnl::memory caller = user(uid, userMd);
    if(userMd == wanted)
    {
        return caller;
    }
    dnnl::memory converted = workspace(wanted);
    addReorder(caller, converted);
    return converted;
}

dnnl::memory PlanRecipe::output(int64_t uid, const dnnl::memory::desc& userMd, const dnnl::memory::desc& produced)
{
    dnnl::memory caller = user(uid, userMd);
    if(userMd == produced)
    {
        return caller;
    }
    dnnl::memory staged = workspace(produced);
    _pendingReorders.emplace_back(staged, caller);
    return staged;
}

void PlanRecipe::addPrimitive(const dnnl::primitive& primitive,
                              const dnnl::primitive_desc_base& pd,
                              std::unordered_map<int, dnnl::memory> args,
                              bool inlineStep)
{
    const dnnl::memory::desc scratchpad = pd.scratchpad_desc();
    if(scratchpad.get_size() > 0)
    {
        dnnl::memory memory(scratchpad, DnnlRuntime::engine(), DNNL_MEMORY_NONE);
        _scratchpads.push_back(memory);
        _scratchpadSize = std::max(_scratchpadSize, scratchpad.get_size());
        args.emplace(DNNL_ARG_SCRATCHPAD, memory);
    }
    std::vector<dnnl_exec_arg_t> cArgs;
    for(const auto& [arg, memory] : args)
    {
        cArgs.push_back({arg, memory.get()});
    }
    _plan->_steps.push_back({primitive, std::move(args), std::move(cArgs), {}, inlineStep});
    auto pending = std::move(_pendingReorders);
    _pendingReorders.clear();
    for(const auto& [from, to] : pending)
    {
        addReorder(from, to);
    }
}

void PlanRecipe::describe(const std::string& text)
{
    _plan->_description += text;
}

void PlanRecipe::addHostStep(HostStep step)
{
    _plan->_steps.push_back({dnnl::primitive(), {}, {}, std::move(step)});
}

std::unique_ptr<DnnlPlan> PlanRecipe::finish()
{
    throwIfNot(_pendingReorders.empty(), HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
               "an output was bound without a primitive producing it");
    const size_t scratchpadOffset = _buffersEnd;
    for(const auto& memory : _scratchpads)
    {
        _plan->_workspaceMemory.push_back({scratchpadOffset, memory});
    }
    const size_t used = _scratchpadSize > 0 ? scratchpadOffset + alignUp(_scratchpadSize) : _buffersEnd;
    _plan->_workspaceSize = used > 0 ? used + kAlignment - 1 : 0; // slack to align the base (execute)
    if(_reorders > 0)
    {
        _plan->_description += " + " + std::to_string(_reorders) + " reorder(s)";
    }
    return std::move(_plan);
}

dnnl::primitive_attr userScratchpadAttr()
{
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return attr;
}

} // namespace dnnl_provider
