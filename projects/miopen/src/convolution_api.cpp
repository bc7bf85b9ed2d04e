// C entry points of the convolution family: argument checks and logging, then internal C++.
#include <miopen/api_logging.hpp>
#include <miopen/conv/operations.hpp>
#include <miopen/convolution.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/tensor.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

using miopen::check;
using miopen::ConvolutionDescriptor;
using miopen::deref;
using miopen::fail;
using miopen::Handle;
using miopen::TensorDescriptor;
using miopen::tryCatch;
using miopen::conv::ApiDirection;
using miopen::conv::ApiProblem;

namespace {

ConvolutionDescriptor& convolution(miopenConvolutionDescriptor_t d)
{
    return deref<ConvolutionDescriptor>(d, "convDesc");
}

const TensorDescriptor& tensor(const miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what).checkSet(what);
}

// x, w, y in the caller's naming for the direction (see ApiProblem).
ApiProblem apiProblem(ApiDirection dir,
                      miopenTensorDescriptor_t x,
                      const char* xName,
                      miopenTensorDescriptor_t w,
                      const char* wName,
                      miopenTensorDescriptor_t y,
                      const char* yName,
                      miopenConvolutionDescriptor_t conv)
{
    return ApiProblem(dir, tensor(x, xName), tensor(w, wName), tensor(y, yName),
                      convolution(conv).checkSet("convDesc"));
}

float readScalar(const void* p, const char* what)
{
    if(p == nullptr)
        fail(miopenStatusBadParm, std::string(what) + " is null");
    float v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

void checkBuffers(std::initializer_list<const void*> ptrs)
{
    for(const void* p : ptrs)
        check(p != nullptr, "a tensor data pointer is null");
}

std::uint64_t checkedSolutionId(std::uint64_t id)
{
    if(id == 0)
        fail(miopenStatusBadParm, "solution id 0 is invalid");
    return id;
}

miopenStatus_t getSolutionCount(const char* api, miopenHandle_t handle, ApiDirection dir,
                                miopenTensorDescriptor_t x, const char* xn,
                                miopenTensorDescriptor_t w, const char* wn,
                                miopenTensorDescriptor_t y, const char* yn,
                                miopenConvolutionDescriptor_t conv, size_t* count)
{
    return tryCatch(api, [&] {
        deref<Handle>(handle, "handle");
        check(count != nullptr, "solutionCount is null");
        const auto p = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        *count       = miopen::conv::applicableSolvers(p.problem()).size();
    });
}

miopenStatus_t getSolutions(const char* api, miopenHandle_t handle, ApiDirection dir,
                            miopenTensorDescriptor_t x, const char* xn,
                            miopenTensorDescriptor_t w, const char* wn,
                            miopenTensorDescriptor_t y, const char* yn,
                            miopenConvolutionDescriptor_t conv, size_t maxCount, size_t* count,
                            miopenConvSolution_t* out)
{
    return tryCatch(api, [&] {
        deref<Handle>(handle, "handle");
        check(count != nullptr && out != nullptr, "solutionCount or solutions is null");
        check(maxCount >= 1, "maxSolutionCount must be >= 1");
        const auto p    = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        const auto sols = miopen::conv::solutions(p.problem());
        const std::size_t n = std::min(maxCount, sols.size());
        std::copy(sols.begin(), sols.begin() + static_cast<std::ptrdiff_t>(n), out);
        *count = n;
    });
}

miopenStatus_t getSolutionWorkspace(const char* api, miopenHandle_t handle, ApiDirection dir,
                                    miopenTensorDescriptor_t x, const char* xn,
                                    miopenTensorDescriptor_t w, const char* wn,
                                    miopenTensorDescriptor_t y, const char* yn,
                                    miopenConvolutionDescriptor_t conv, std::uint64_t id,
                                    size_t* ws)
{
    return tryCatch(api, [&] {
        deref<Handle>(handle, "handle");
        check(ws != nullptr, "workSpaceSize is null");
        const auto p = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        *ws = miopen::conv::applicableSolver(p.problem(), checkedSolutionId(id)).workspaceSize(p.problem());
    });
}

miopenStatus_t compileSolution(const char* api, miopenHandle_t handle, ApiDirection dir,
                               miopenTensorDescriptor_t x, const char* xn,
                               miopenTensorDescriptor_t w, const char* wn,
                               miopenTensorDescriptor_t y, const char* yn,
                               miopenConvolutionDescriptor_t conv, std::uint64_t id)
{
    return tryCatch(api, [&] {
        deref<Handle>(handle, "handle");
        const auto p = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        // Nothing to compile on the CPU; the call validates that the solution applies.
        miopen::conv::applicableSolver(p.problem(), checkedSolutionId(id));
    });
}

// Immediate execution: xp/wp/yp are the caller's x, w, y buffers (one of them written).
miopenStatus_t immediate(const char* api, miopenHandle_t handle, ApiDirection dir,
                         miopenTensorDescriptor_t x, const char* xn, const void* xp,
                         miopenTensorDescriptor_t w, const char* wn, const void* wp,
                         miopenTensorDescriptor_t y, const char* yn, const void* yp,
                         void* written, miopenConvolutionDescriptor_t conv, void* ws,
                         size_t wsSize, std::uint64_t id)
{
    return tryCatch(api, [&] {
        auto& h      = deref<Handle>(handle, "handle");
        const auto p = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        checkBuffers({xp, wp, yp});
        p.logDriverCommand("LogCmdConvolution", id);
        const auto& solver = miopen::conv::applicableSolver(p.problem(), checkedSolutionId(id));
        miopen::KernelTimer timer(h);
        miopen::conv::runSolver(h, solver, p.problem(), p.tensors(xp, wp, yp, written), ws,
                                ws == nullptr ? 0 : wsSize);
    });
}

miopenStatus_t workspaceQuery(const char* api, miopenHandle_t handle, ApiDirection dir,
                              miopenTensorDescriptor_t x, const char* xn,
                              miopenTensorDescriptor_t w, const char* wn,
                              miopenTensorDescriptor_t y, const char* yn,
                              miopenConvolutionDescriptor_t conv, size_t* ws)
{
    return tryCatch(api, [&] {
        deref<Handle>(handle, "handle");
        check(ws != nullptr, "workSpaceSize is null");
        const auto p = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        *ws          = miopen::conv::workspaceSize(p.problem());
    });
}

miopenStatus_t findAlgorithm(const char* api, miopenHandle_t handle, ApiDirection dir,
                             miopenTensorDescriptor_t x, const char* xn, const void* xp,
                             miopenTensorDescriptor_t w, const char* wn, const void* wp,
                             miopenTensorDescriptor_t y, const char* yn, const void* yp,
                             void* written, miopenConvolutionDescriptor_t conv,
                             int requestAlgoCount, int* returnedAlgoCount,
                             miopenConvAlgoPerf_t* perfResults, void* ws, size_t wsSize,
                             bool exhaustive)
{
    return tryCatch(api, [&] {
        auto& h = deref<Handle>(handle, "handle");
        check(returnedAlgoCount != nullptr, "returnedAlgoCount is null");
        check(perfResults != nullptr, "perfResults is null");
        check(requestAlgoCount >= 1, "requestAlgoCount must be >= 1");
        const auto p = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        checkBuffers({xp, wp, yp});
        p.logDriverCommand("LogCmdFindConvolution", std::nullopt);
        const auto results = miopen::conv::find(h, p, p.tensors(xp, wp, yp, written), ws,
                                                ws == nullptr ? 0 : wsSize, exhaustive);
        const std::size_t n = std::min(results.size(), static_cast<std::size_t>(requestAlgoCount));
        for(std::size_t i = 0; i < n; ++i)
        {
            miopenConvAlgoPerf_t perf{};
            // The union's members share offset 0; the algorithm values are the same numbers
            // in every direction's enumeration.
            perf.fwd_algo = static_cast<miopenConvFwdAlgorithm_t>(results[i].solver->algorithm());
            perf.time     = results[i].timeMs;
            perf.memory   = results[i].workspace;
            perfResults[i] = perf;
        }
        *returnedAlgoCount = static_cast<int>(n);
    });
}

miopenStatus_t executeConv(const char* api, miopenHandle_t handle, ApiDirection dir,
                           const void* alpha, const void* beta, int algo,
                           miopenTensorDescriptor_t x, const char* xn, const void* xp,
                           miopenTensorDescriptor_t w, const char* wn, const void* wp,
                           miopenTensorDescriptor_t y, const char* yn, const void* yp,
                           void* written, miopenConvolutionDescriptor_t conv, void* ws,
                           size_t wsSize)
{
    return tryCatch(api, [&] {
        auto& h       = deref<Handle>(handle, "handle");
        const float a = readScalar(alpha, "alpha");
        const float b = readScalar(beta, "beta");
        const auto p  = apiProblem(dir, x, xn, w, wn, y, yn, conv);
        checkBuffers({xp, wp, yp});
        if(algo < 0 || algo > 5 || algo == 4)
            fail(miopenStatusBadParm, "unknown convolution algorithm " + std::to_string(algo));
        p.logDriverCommand("LogCmdConvolution", std::nullopt);
        miopen::KernelTimer timer(h);
        miopen::conv::execute(h, p, static_cast<miopenConvAlgorithm_t>(algo), p.tensors(xp, wp, yp, written), a, b, ws,
                              ws == nullptr ? 0 : wsSize);
    });
}

} // namespace

// ---- descriptors ---------------------------------------------------------------------------------

extern "C" miopenStatus_t miopenCreateConvolutionDescriptor_impl(miopenConvolutionDescriptor_t* convDesc)
{
    MIOPEN_LOG_FUNCTION(convDesc);
    return tryCatch(__func__, [&] { miopen::createObject<ConvolutionDescriptor>(convDesc, "convolution descriptor"); });
}

extern "C" miopenStatus_t miopenInitConvolutionDescriptor_impl(miopenConvolutionDescriptor_t convDesc,
                                                          miopenConvolutionMode_t c_mode,
                                                          int pad_h,
                                                          int pad_w,
                                                          int stride_h,
                                                          int stride_w,
                                                          int dilation_h,
                                                          int dilation_w)
{
    MIOPEN_LOG_FUNCTION(convDesc, c_mode, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w);
    return tryCatch(__func__, [&] {
        const int pads[2] = {pad_h, pad_w}, strides[2] = {stride_h, stride_w}, dil[2] = {dilation_h, dilation_w};
        convolution(convDesc).init(2, miopen::checkedEnum(c_mode, {0, 1, 2, 3}, "convolution mode"), pads, strides, dil);
    });
}

extern "C" miopenStatus_t miopenInitConvolutionNdDescriptor_impl(miopenConvolutionDescriptor_t convDesc,
                                                            int spatialDim,
                                                            const int* padA,
                                                            const int* strideA,
                                                            const int* dilationA,
                                                            miopenConvolutionMode_t c_mode)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim, padA, strideA, dilationA, c_mode);
    return tryCatch(__func__, [&] { convolution(convDesc).init(spatialDim, miopen::checkedEnum(c_mode, {0, 1, 2, 3}, "convolution mode"), padA, strideA, dilationA); });
}

extern "C" miopenStatus_t miopenGetConvolutionSpatialDim_impl(miopenConvolutionDescriptor_t convDesc, int* spatialDim)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim);
    return tryCatch(__func__, [&] {
        const auto& c = convolution(convDesc).checkSet("convDesc");
        check(spatialDim != nullptr, "spatialDim is null");
        *spatialDim = c.spatialDim();
    });
}

extern "C" miopenStatus_t miopenGetConvolutionDescriptor_impl(miopenConvolutionDescriptor_t convDesc,
                                                         miopenConvolutionMode_t* c_mode,
                                                         int* pad_h,
                                                         int* pad_w,
                                                         int* stride_h,
                                                         int* stride_w,
                                                         int* dilation_h,
                                                         int* dilation_w)
{
    MIOPEN_LOG_FUNCTION(convDesc, c_mode, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w);
    return tryCatch(__func__, [&] {
        const auto& c = convolution(convDesc).checkSet("convDesc");
        check(c_mode != nullptr && pad_h != nullptr && pad_w != nullptr && stride_h != nullptr &&
                  stride_w != nullptr && dilation_h != nullptr && dilation_w != nullptr,
              "an output pointer is null");
        if(c.spatialDim() != 2)
            fail(miopenStatusBadParm, "the descriptor is not 2-D; use miopenGetConvolutionNdDescriptor");
        *c_mode     = c.mode();
        *pad_h      = c.pads()[0];
        *pad_w      = c.pads()[1];
        *stride_h   = c.strides()[0];
        *stride_w   = c.strides()[1];
        *dilation_h = c.dilations()[0];
        *dilation_w = c.dilations()[1];
    });
}

extern "C" miopenStatus_t miopenGetConvolutionNdDescriptor_impl(miopenConvolutionDescriptor_t convDesc,
                                                           int requestedSpatialDim,
                                                           int* spatialDim,
                                                           int* padA,
                                                           int* strideA,
                                                           int* dilationA,
                                                           miopenConvolutionMode_t* c_mode)
{
    MIOPEN_LOG_FUNCTION(convDesc, requestedSpatialDim, spatialDim, padA, strideA, dilationA, c_mode);
    return tryCatch(__func__, [&] {
        const auto& c = convolution(convDesc).checkSet("convDesc");
        check(spatialDim != nullptr && c_mode != nullptr, "spatialDim or c_mode is null");
        if(requestedSpatialDim < 0 || requestedSpatialDim > c.spatialDim())
            fail(miopenStatusBadParm, "requestedSpatialDim " + std::to_string(requestedSpatialDim) +
                                          " exceeds the descriptor's " + std::to_string(c.spatialDim()));
        if(requestedSpatialDim > 0)
            check(padA != nullptr && strideA != nullptr && dilationA != nullptr, "an output array is null");
        *spatialDim = c.spatialDim();
        *c_mode     = c.mode();
        for(int i = 0; i < requestedSpatialDim; ++i)
        {
            const auto u = static_cast<std::size_t>(i);
            padA[i]      = c.pads()[u];
            strideA[i]   = c.strides()[u];
            dilationA[i] = c.dilations()[u];
        }
    });
}

extern "C" miopenStatus_t miopenGetConvolutionGroupCount_impl(miopenConvolutionDescriptor_t convDesc, int* groupCount)
{
    MIOPEN_LOG_FUNCTION(convDesc, groupCount);
    return tryCatch(__func__, [&] {
        const auto& c = convolution(convDesc);
        check(groupCount != nullptr, "groupCount is null");
        *groupCount = c.groupCount();
    });
}

extern "C" miopenStatus_t miopenSetConvolutionGroupCount_impl(miopenConvolutionDescriptor_t convDesc, int groupCount)
{
    MIOPEN_LOG_FUNCTION(convDesc, groupCount);
    return tryCatch(__func__, [&] { convolution(convDesc).setGroupCount(groupCount); });
}

extern "C" miopenStatus_t miopenSetTransposeConvOutputPadding_impl(miopenConvolutionDescriptor_t convDesc, int adj_h, int adj_w)
{
    MIOPEN_LOG_FUNCTION(convDesc, adj_h, adj_w);
    return tryCatch(__func__, [&] {
        const int adj[2] = {adj_h, adj_w};
        convolution(convDesc).checkSet("convDesc").spatialDim();
        convolution(convDesc).setTransposeOutputPads(2, adj);
    });
}

extern "C" miopenStatus_t miopenSetTransposeConvNdOutputPadding_impl(miopenConvolutionDescriptor_t convDesc,
                                                                int spatialDim,
                                                                const int* adjA)
{
    MIOPEN_LOG_FUNCTION(convDesc, spatialDim, adjA);
    return tryCatch(__func__, [&] {
        convolution(convDesc).checkSet("convDesc");
        convolution(convDesc).setTransposeOutputPads(spatialDim, adjA);
    });
}

extern "C" miopenStatus_t miopenGetConvolutionForwardOutputDim_impl(miopenConvolutionDescriptor_t convDesc,
                                                               const miopenTensorDescriptor_t inputTensorDesc,
                                                               const miopenTensorDescriptor_t filterDesc,
                                                               int* n,
                                                               int* c,
                                                               int* h,
                                                               int* w)
{
    MIOPEN_LOG_FUNCTION(convDesc, inputTensorDesc, filterDesc, n, c, h, w);
    return tryCatch(__func__, [&] {
        const auto& conv = convolution(convDesc).checkSet("convDesc");
        check(n != nullptr && c != nullptr && h != nullptr && w != nullptr, "an output pointer is null");
        if(conv.spatialDim() != 2)
            fail(miopenStatusBadParm, "the descriptor is not 2-D; use miopenGetConvolutionNdForwardOutputDim");
        const auto lens = conv.forwardOutputLengths(tensor(inputTensorDesc, "inputTensorDesc"),
                                                    tensor(filterDesc, "filterDesc"));
        for(auto l : lens)
            if(l > static_cast<std::size_t>(std::numeric_limits<int>::max()))
                fail(miopenStatusBadParm, "output length does not fit in int");
        *n = static_cast<int>(lens[0]);
        *c = static_cast<int>(lens[1]);
        *h = static_cast<int>(lens[2]);
        *w = static_cast<int>(lens[3]);
    });
}

extern "C" miopenStatus_t miopenGetConvolutionNdForwardOutputDim_impl(miopenConvolutionDescriptor_t convDesc,
                                                                 const miopenTensorDescriptor_t inputTensorDesc,
                                                                 const miopenTensorDescriptor_t filterDesc,
                                                                 int* nDim,
                                                                 int* outputTensorDimA)
{
    MIOPEN_LOG_FUNCTION(convDesc, inputTensorDesc, filterDesc, nDim, outputTensorDimA);
    return tryCatch(__func__, [&] {
        const auto& conv = convolution(convDesc).checkSet("convDesc");
        check(nDim != nullptr && outputTensorDimA != nullptr, "an output pointer is null");
        const auto lens = conv.forwardOutputLengths(tensor(inputTensorDesc, "inputTensorDesc"),
                                                    tensor(filterDesc, "filterDesc"));
        for(auto l : lens)
            if(l > static_cast<std::size_t>(std::numeric_limits<int>::max()))
                fail(miopenStatusBadParm, "output length does not fit in int");
        *nDim = static_cast<int>(lens.size());
        for(std::size_t i = 0; i < lens.size(); ++i)
            outputTensorDimA[i] = static_cast<int>(lens[i]);
    });
}

extern "C" miopenStatus_t miopenDestroyConvolutionDescriptor_impl(miopenConvolutionDescriptor_t convDesc)
{
    MIOPEN_LOG_FUNCTION(convDesc);
    return tryCatch(__func__, [&] { miopen::destroyObject<ConvolutionDescriptor>(convDesc, "convDesc"); });
}

extern "C" miopenStatus_t miopenSetConvolutionAttribute_impl(miopenConvolutionDescriptor_t convDesc,
                                                        const miopenConvolutionAttrib_t attr,
                                                        int value)
{
    MIOPEN_LOG_FUNCTION(convDesc, attr, value);
    return tryCatch(__func__, [&] { convolution(convDesc).setAttribute(miopen::checkedEnum(attr, {0, 1, 2, 3}, "convolution attribute"), value); });
}

extern "C" miopenStatus_t miopenGetConvolutionAttribute_impl(miopenConvolutionDescriptor_t convDesc,
                                                        const miopenConvolutionAttrib_t attr,
                                                        int* value)
{
    MIOPEN_LOG_FUNCTION(convDesc, attr, value);
    return tryCatch(__func__, [&] {
        const auto& c = convolution(convDesc);
        check(value != nullptr, "value is null");
        *value = c.attribute(miopen::checkedEnum(attr, {0, 1, 2, 3}, "convolution attribute"));
    });
}

extern "C" miopenStatus_t miopenSetConvolutionFindMode_impl(miopenConvolutionDescriptor_t convDesc,
                                                       miopenConvolutionFindMode_t findMode)
{
    MIOPEN_LOG_FUNCTION(convDesc, findMode);
    return tryCatch(__func__, [&] { convolution(convDesc).setFindMode(miopen::rawEnum(findMode)); });
}

extern "C" miopenStatus_t miopenGetConvolutionFindMode_impl(const miopenConvolutionDescriptor_t convDesc,
                                                       miopenConvolutionFindMode_t* findMode)
{
    MIOPEN_LOG_FUNCTION(convDesc, findMode);
    return tryCatch(__func__, [&] {
        const auto& c = convolution(convDesc);
        check(findMode != nullptr, "findMode is null");
        *findMode = static_cast<miopenConvolutionFindMode_t>(c.findMode());
    });
}

// Exported but, as upstream, not declared in miopen.h ("for MIGraphX"; MIOpenDriver uses it):
// the generator's policy lists the pair, so it is declared in <miopen/miopen_impl.h>.
extern "C" miopenStatus_t miopenHiddenSetConvolutionFindMode_impl(miopenConvolutionDescriptor_t convDesc, int findMode)
{
    MIOPEN_LOG_FUNCTION(convDesc, findMode);
    return tryCatch(__func__, [&] { convolution(convDesc).setFindMode(findMode); });
}

extern "C" miopenStatus_t miopenHiddenGetConvolutionFindMode_impl(miopenConvolutionDescriptor_t convDesc, int* findMode)
{
    MIOPEN_LOG_FUNCTION(convDesc, findMode);
    return tryCatch(__func__, [&] {
        const auto& c = convolution(convDesc);
        check(findMode != nullptr, "findMode is null");
        *findMode = c.findMode();
    });
}

// ---- immediate mode ------------------------------------------------------------------------------

extern "C" miopenStatus_t miopenConvolutionForwardGetSolutionCount_impl(miopenHandle_t handle,
                                                                   const miopenTensorDescriptor_t wDesc,
                                                                   const miopenTensorDescriptor_t xDesc,
                                                                   const miopenConvolutionDescriptor_t convDesc,
                                                                   const miopenTensorDescriptor_t yDesc,
                                                                   size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solutionCount);
    return getSolutionCount(__func__, handle, ApiDirection::Forward, xDesc, "xDesc", wDesc, "wDesc", yDesc,
                            "yDesc", convDesc, solutionCount);
}

extern "C" miopenStatus_t miopenConvolutionForwardGetSolution_impl(miopenHandle_t handle,
                                                              const miopenTensorDescriptor_t wDesc,
                                                              const miopenTensorDescriptor_t xDesc,
                                                              const miopenConvolutionDescriptor_t convDesc,
                                                              const miopenTensorDescriptor_t yDesc,
                                                              const size_t maxSolutionCount,
                                                              size_t* solutionCount,
                                                              miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, maxSolutionCount, solutionCount, solutions);
    return getSolutions(__func__, handle, ApiDirection::Forward, xDesc, "xDesc", wDesc, "wDesc", yDesc, "yDesc",
                        convDesc, maxSolutionCount, solutionCount, solutions);
}

extern "C" miopenStatus_t miopenConvolutionForwardGetSolutionWorkspaceSize_impl(miopenHandle_t handle,
                                                                           const miopenTensorDescriptor_t wDesc,
                                                                           const miopenTensorDescriptor_t xDesc,
                                                                           const miopenConvolutionDescriptor_t convDesc,
                                                                           const miopenTensorDescriptor_t yDesc,
                                                                           const uint64_t solution_id,
                                                                           size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solution_id, workSpaceSize);
    return getSolutionWorkspace(__func__, handle, ApiDirection::Forward, xDesc, "xDesc", wDesc, "wDesc", yDesc,
                                "yDesc", convDesc, solution_id, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionForwardCompileSolution_impl(miopenHandle_t handle,
                                                                  const miopenTensorDescriptor_t wDesc,
                                                                  const miopenTensorDescriptor_t xDesc,
                                                                  const miopenConvolutionDescriptor_t convDesc,
                                                                  const miopenTensorDescriptor_t yDesc,
                                                                  const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, solution_id);
    return compileSolution(__func__, handle, ApiDirection::Forward, xDesc, "xDesc", wDesc, "wDesc", yDesc, "yDesc",
                           convDesc, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionForwardImmediate_impl(miopenHandle_t handle,
                                                            const miopenTensorDescriptor_t wDesc,
                                                            const void* w,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            const void* x,
                                                            const miopenConvolutionDescriptor_t convDesc,
                                                            const miopenTensorDescriptor_t yDesc,
                                                            void* y,
                                                            void* workSpace,
                                                            size_t workSpaceSize,
                                                            const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, w, xDesc, x, convDesc, yDesc, y, workSpace, workSpaceSize, solution_id);
    return immediate(__func__, handle, ApiDirection::Forward, xDesc, "xDesc", x, wDesc, "wDesc", w, yDesc, "yDesc",
                     y, y, convDesc, workSpace, workSpaceSize, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetSolutionCount_impl(miopenHandle_t handle,
                                                                        const miopenTensorDescriptor_t dyDesc,
                                                                        const miopenTensorDescriptor_t wDesc,
                                                                        const miopenConvolutionDescriptor_t convDesc,
                                                                        const miopenTensorDescriptor_t dxDesc,
                                                                        size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solutionCount);
    return getSolutionCount(__func__, handle, ApiDirection::BackwardData, dxDesc, "dxDesc", wDesc, "wDesc", dyDesc,
                            "dyDesc", convDesc, solutionCount);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetSolution_impl(miopenHandle_t handle,
                                                                   const miopenTensorDescriptor_t dyDesc,
                                                                   const miopenTensorDescriptor_t wDesc,
                                                                   const miopenConvolutionDescriptor_t convDesc,
                                                                   const miopenTensorDescriptor_t dxDesc,
                                                                   const size_t maxSolutionCount,
                                                                   size_t* solutionCount,
                                                                   miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, maxSolutionCount, solutionCount, solutions);
    return getSolutions(__func__, handle, ApiDirection::BackwardData, dxDesc, "dxDesc", wDesc, "wDesc", dyDesc,
                        "dyDesc", convDesc, maxSolutionCount, solutionCount, solutions);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetSolutionWorkspaceSize_impl(miopenHandle_t handle,
                                                                                const miopenTensorDescriptor_t dyDesc,
                                                                                const miopenTensorDescriptor_t wDesc,
                                                                                const miopenConvolutionDescriptor_t convDesc,
                                                                                const miopenTensorDescriptor_t dxDesc,
                                                                                const uint64_t solution_id,
                                                                                size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solution_id, workSpaceSize);
    return getSolutionWorkspace(__func__, handle, ApiDirection::BackwardData, dxDesc, "dxDesc", wDesc, "wDesc", dyDesc,
                                "dyDesc", convDesc, solution_id, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataCompileSolution_impl(miopenHandle_t handle,
                                                                       const miopenTensorDescriptor_t dyDesc,
                                                                       const miopenTensorDescriptor_t wDesc,
                                                                       const miopenConvolutionDescriptor_t convDesc,
                                                                       const miopenTensorDescriptor_t dxDesc,
                                                                       const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, solution_id);
    return compileSolution(__func__, handle, ApiDirection::BackwardData, dxDesc, "dxDesc", wDesc, "wDesc", dyDesc,
                           "dyDesc", convDesc, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataImmediate_impl(miopenHandle_t handle,
                                                                 const miopenTensorDescriptor_t dyDesc,
                                                                 const void* dy,
                                                                 const miopenTensorDescriptor_t wDesc,
                                                                 const void* w,
                                                                 const miopenConvolutionDescriptor_t convDesc,
                                                                 const miopenTensorDescriptor_t dxDesc,
                                                                 void* dx,
                                                                 void* workSpace,
                                                                 size_t workSpaceSize,
                                                                 const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, wDesc, w, convDesc, dxDesc, dx, workSpace, workSpaceSize, solution_id);
    return immediate(__func__, handle, ApiDirection::BackwardData, dxDesc, "dxDesc", dx, wDesc, "wDesc", w, dyDesc,
                     "dyDesc", dy, dx, convDesc, workSpace, workSpaceSize, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionCount_impl(miopenHandle_t handle,
                                                                           const miopenTensorDescriptor_t dyDesc,
                                                                           const miopenTensorDescriptor_t xDesc,
                                                                           const miopenConvolutionDescriptor_t convDesc,
                                                                           const miopenTensorDescriptor_t dwDesc,
                                                                           size_t* solutionCount)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solutionCount);
    return getSolutionCount(__func__, handle, ApiDirection::BackwardWeights, xDesc, "xDesc", dwDesc, "dwDesc", dyDesc,
                            "dyDesc", convDesc, solutionCount);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetSolution_impl(miopenHandle_t handle,
                                                                      const miopenTensorDescriptor_t dyDesc,
                                                                      const miopenTensorDescriptor_t xDesc,
                                                                      const miopenConvolutionDescriptor_t convDesc,
                                                                      const miopenTensorDescriptor_t dwDesc,
                                                                      const size_t maxSolutionCount,
                                                                      size_t* solutionCount,
                                                                      miopenConvSolution_t* solutions)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, maxSolutionCount, solutionCount, solutions);
    return getSolutions(__func__, handle, ApiDirection::BackwardWeights, xDesc, "xDesc", dwDesc, "dwDesc", dyDesc,
                        "dyDesc", convDesc, maxSolutionCount, solutionCount, solutions);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize_impl(
    miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc,
    const uint64_t solution_id,
    size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solution_id, workSpaceSize);
    return getSolutionWorkspace(__func__, handle, ApiDirection::BackwardWeights, xDesc, "xDesc", dwDesc, "dwDesc",
                                dyDesc, "dyDesc", convDesc, solution_id, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsCompileSolution_impl(miopenHandle_t handle,
                                                                          const miopenTensorDescriptor_t dyDesc,
                                                                          const miopenTensorDescriptor_t xDesc,
                                                                          const miopenConvolutionDescriptor_t convDesc,
                                                                          const miopenTensorDescriptor_t dwDesc,
                                                                          const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, solution_id);
    return compileSolution(__func__, handle, ApiDirection::BackwardWeights, xDesc, "xDesc", dwDesc, "dwDesc", dyDesc,
                           "dyDesc", convDesc, solution_id);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsImmediate_impl(miopenHandle_t handle,
                                                                    const miopenTensorDescriptor_t dyDesc,
                                                                    const void* dy,
                                                                    const miopenTensorDescriptor_t xDesc,
                                                                    const void* x,
                                                                    const miopenConvolutionDescriptor_t convDesc,
                                                                    const miopenTensorDescriptor_t dwDesc,
                                                                    void* dw,
                                                                    void* workSpace,
                                                                    size_t workSpaceSize,
                                                                    const uint64_t solution_id)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, xDesc, x, convDesc, dwDesc, dw, workSpace, workSpaceSize, solution_id);
    return immediate(__func__, handle, ApiDirection::BackwardWeights, xDesc, "xDesc", x, dwDesc, "dwDesc", dw,
                     dyDesc, "dyDesc", dy, dw, convDesc, workSpace, workSpaceSize, solution_id);
}

// ---- workspace queries, Find, execution ----------------------------------------------------------

extern "C" miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize_impl(miopenHandle_t handle,
                                                                   const miopenTensorDescriptor_t wDesc,
                                                                   const miopenTensorDescriptor_t xDesc,
                                                                   const miopenConvolutionDescriptor_t convDesc,
                                                                   const miopenTensorDescriptor_t yDesc,
                                                                   size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, wDesc, xDesc, convDesc, yDesc, workSpaceSize);
    return workspaceQuery(__func__, handle, ApiDirection::Forward, xDesc, "xDesc", wDesc, "wDesc", yDesc, "yDesc",
                          convDesc, workSpaceSize);
}

extern "C" miopenStatus_t miopenFindConvolutionForwardAlgorithm_impl(miopenHandle_t handle,
                                                                const miopenTensorDescriptor_t xDesc,
                                                                const void* x,
                                                                const miopenTensorDescriptor_t wDesc,
                                                                const void* w,
                                                                const miopenConvolutionDescriptor_t convDesc,
                                                                const miopenTensorDescriptor_t yDesc,
                                                                void* y,
                                                                const int requestAlgoCount,
                                                                int* returnedAlgoCount,
                                                                miopenConvAlgoPerf_t* perfResults,
                                                                void* workSpace,
                                                                size_t workSpaceSize,
                                                                bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, xDesc, x, wDesc, w, convDesc, yDesc, y, requestAlgoCount, returnedAlgoCount,
                        perfResults, workSpace, workSpaceSize, exhaustiveSearch);
    return findAlgorithm(__func__, handle, ApiDirection::Forward, xDesc, "xDesc", x, wDesc, "wDesc", w, yDesc,
                         "yDesc", y, y, convDesc, requestAlgoCount, returnedAlgoCount, perfResults, workSpace,
                         workSpaceSize, exhaustiveSearch);
}

extern "C" miopenStatus_t miopenConvolutionForward_impl(miopenHandle_t handle,
                                                   const void* alpha,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void* x,
                                                   const miopenTensorDescriptor_t wDesc,
                                                   const void* w,
                                                   const miopenConvolutionDescriptor_t convDesc,
                                                   miopenConvFwdAlgorithm_t algo,
                                                   const void* beta,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   void* y,
                                                   void* workSpace,
                                                   size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, wDesc, w, convDesc, algo, beta, yDesc, y, workSpace, workSpaceSize);
    return executeConv(__func__, handle, ApiDirection::Forward, alpha, beta, miopen::rawEnum(algo), xDesc, "xDesc",
                       x, wDesc, "wDesc", w, yDesc, "yDesc", y, y, convDesc, workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionForwardBias_impl(miopenHandle_t handle,
                                                       const void* alpha,
                                                       const miopenTensorDescriptor_t bDesc,
                                                       const void* b,
                                                       const void* beta,
                                                       const miopenTensorDescriptor_t yDesc,
                                                       void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, bDesc, b, beta, yDesc, y);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        const float a = readScalar(alpha, "alpha"), be = readScalar(beta, "beta");
        miopen::KernelTimer timer(h);
        miopen::conv::forwardBias(h, a, tensor(bDesc, "bDesc"), b, be, tensor(yDesc, "yDesc"), y);
    });
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetWorkSpaceSize_impl(miopenHandle_t handle,
                                                                        const miopenTensorDescriptor_t dyDesc,
                                                                        const miopenTensorDescriptor_t wDesc,
                                                                        const miopenConvolutionDescriptor_t convDesc,
                                                                        const miopenTensorDescriptor_t dxDesc,
                                                                        size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, wDesc, convDesc, dxDesc, workSpaceSize);
    return workspaceQuery(__func__, handle, ApiDirection::BackwardData, dxDesc, "dxDesc", wDesc, "wDesc", dyDesc,
                          "dyDesc", convDesc, workSpaceSize);
}

extern "C" miopenStatus_t miopenFindConvolutionBackwardDataAlgorithm_impl(miopenHandle_t handle,
                                                                     const miopenTensorDescriptor_t dyDesc,
                                                                     const void* dy,
                                                                     const miopenTensorDescriptor_t wDesc,
                                                                     const void* w,
                                                                     const miopenConvolutionDescriptor_t convDesc,
                                                                     const miopenTensorDescriptor_t dxDesc,
                                                                     void* dx,
                                                                     const int requestAlgoCount,
                                                                     int* returnedAlgoCount,
                                                                     miopenConvAlgoPerf_t* perfResults,
                                                                     void* workSpace,
                                                                     size_t workSpaceSize,
                                                                     bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, wDesc, w, convDesc, dxDesc, dx, requestAlgoCount, returnedAlgoCount,
                        perfResults, workSpace, workSpaceSize, exhaustiveSearch);
    return findAlgorithm(__func__, handle, ApiDirection::BackwardData, dxDesc, "dxDesc", dx, wDesc, "wDesc", w,
                         dyDesc, "dyDesc", dy, dx, convDesc, requestAlgoCount, returnedAlgoCount, perfResults,
                         workSpace, workSpaceSize, exhaustiveSearch);
}

extern "C" miopenStatus_t miopenConvolutionBackwardData_impl(miopenHandle_t handle,
                                                        const void* alpha,
                                                        const miopenTensorDescriptor_t dyDesc,
                                                        const void* dy,
                                                        const miopenTensorDescriptor_t wDesc,
                                                        const void* w,
                                                        const miopenConvolutionDescriptor_t convDesc,
                                                        miopenConvBwdDataAlgorithm_t algo,
                                                        const void* beta,
                                                        const miopenTensorDescriptor_t dxDesc,
                                                        void* dx,
                                                        void* workSpace,
                                                        size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, wDesc, w, convDesc, algo, beta, dxDesc, dx, workSpace,
                        workSpaceSize);
    // The deprecated miopenTransposeBwdDataAlgoGEMM (4) is GEMM.
    const int raw = miopen::rawEnum(algo);
    const int a   = raw == miopenTransposeBwdDataAlgoGEMM ? 0 : raw;
    return executeConv(__func__, handle, ApiDirection::BackwardData, alpha, beta, a, dxDesc, "dxDesc", dx, wDesc,
                       "wDesc", w, dyDesc, "dyDesc", dy, dx, convDesc, workSpace, workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetWorkSpaceSize_impl(miopenHandle_t handle,
                                                                           const miopenTensorDescriptor_t dyDesc,
                                                                           const miopenTensorDescriptor_t xDesc,
                                                                           const miopenConvolutionDescriptor_t convDesc,
                                                                           const miopenTensorDescriptor_t dwDesc,
                                                                           size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, xDesc, convDesc, dwDesc, workSpaceSize);
    return workspaceQuery(__func__, handle, ApiDirection::BackwardWeights, xDesc, "xDesc", dwDesc, "dwDesc", dyDesc,
                          "dyDesc", convDesc, workSpaceSize);
}

extern "C" miopenStatus_t miopenFindConvolutionBackwardWeightsAlgorithm_impl(miopenHandle_t handle,
                                                                        const miopenTensorDescriptor_t dyDesc,
                                                                        const void* dy,
                                                                        const miopenTensorDescriptor_t xDesc,
                                                                        const void* x,
                                                                        const miopenConvolutionDescriptor_t convDesc,
                                                                        const miopenTensorDescriptor_t dwDesc,
                                                                        void* dw,
                                                                        const int requestAlgoCount,
                                                                        int* returnedAlgoCount,
                                                                        miopenConvAlgoPerf_t* perfResults,
                                                                        void* workSpace,
                                                                        size_t workSpaceSize,
                                                                        bool exhaustiveSearch)
{
    MIOPEN_LOG_FUNCTION(handle, dyDesc, dy, xDesc, x, convDesc, dwDesc, dw, requestAlgoCount, returnedAlgoCount,
                        perfResults, workSpace, workSpaceSize, exhaustiveSearch);
    return findAlgorithm(__func__, handle, ApiDirection::BackwardWeights, xDesc, "xDesc", x, dwDesc, "dwDesc", dw,
                         dyDesc, "dyDesc", dy, dw, convDesc, requestAlgoCount, returnedAlgoCount, perfResults,
                         workSpace, workSpaceSize, exhaustiveSearch);
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeights_impl(miopenHandle_t handle,
                                                           const void* alpha,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void* dy,
                                                           const miopenTensorDescriptor_t xDesc,
                                                           const void* x,
                                                           const miopenConvolutionDescriptor_t convDesc,
                                                           miopenConvBwdWeightsAlgorithm_t algo,
                                                           const void* beta,
                                                           const miopenTensorDescriptor_t dwDesc,
                                                           void* dw,
                                                           void* workSpace,
                                                           size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, xDesc, x, convDesc, algo, beta, dwDesc, dw, workSpace,
                        workSpaceSize);
    return executeConv(__func__, handle, ApiDirection::BackwardWeights, alpha, beta, miopen::rawEnum(algo), xDesc,
                       "xDesc", x, dwDesc, "dwDesc", dw, dyDesc, "dyDesc", dy, dw, convDesc, workSpace,
                       workSpaceSize);
}

extern "C" miopenStatus_t miopenConvolutionBackwardBias_impl(miopenHandle_t handle,
                                                        const void* alpha,
                                                        const miopenTensorDescriptor_t dyDesc,
                                                        const void* dy,
                                                        const void* beta,
                                                        const miopenTensorDescriptor_t dbDesc,
                                                        void* db)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, dyDesc, dy, beta, dbDesc, db);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        const float a = readScalar(alpha, "alpha"), be = readScalar(beta, "beta");
        miopen::KernelTimer timer(h);
        miopen::conv::backwardBias(h, a, tensor(dyDesc, "dyDesc"), dy, be, tensor(dbDesc, "dbDesc"), db);
    });
}
