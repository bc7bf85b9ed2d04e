// C entry points of the pooling family: argument checks and logging, then internal C++.
#include <miopen/api_logging.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/pooling.hpp>
#include <miopen/tensor.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

using miopen::check;
using miopen::deref;
using miopen::fail;
using miopen::Handle;
using miopen::PoolingDescriptor;
using miopen::TensorDescriptor;
using miopen::tryCatch;

namespace {

PoolingDescriptor& pooling(miopenPoolingDescriptor_t d) { return deref<PoolingDescriptor>(d, "poolDesc"); }

const TensorDescriptor& tensor(const miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what).checkSet(what);
}

miopenPoolingMode_t modeArg(const miopenPoolingMode_t& m)
{
    return miopen::checkedEnum(m, {miopenPoolingMax, miopenPoolingAverage, miopenPoolingAverageInclusive},
                               "pooling mode");
}

int toInt(std::size_t v, const char* what)
{
    if(v > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        fail(miopenStatusBadParm, std::string(what) + " does not fit in int");
    return static_cast<int>(v);
}

} // namespace

extern "C" miopenStatus_t miopenCreatePoolingDescriptor_impl(miopenPoolingDescriptor_t* poolDesc)
{
    MIOPEN_LOG_FUNCTION(poolDesc);
    return tryCatch(__func__, [&] { miopen::createObject<PoolingDescriptor>(poolDesc, "pooling descriptor"); });
}

extern "C" miopenStatus_t miopenSetPoolingIndexType_impl(miopenPoolingDescriptor_t poolDesc,
                                                    miopenIndexType_t index_type)
{
    MIOPEN_LOG_FUNCTION(poolDesc, index_type);
    return tryCatch(__func__, [&] {
        auto& p = pooling(poolDesc);
        p.setIndexType(miopen::checkedEnum(
            index_type, {miopenIndexUint8, miopenIndexUint16, miopenIndexUint32, miopenIndexUint64}, "index type"));
    });
}

extern "C" miopenStatus_t miopenGetPoolingIndexType_impl(miopenPoolingDescriptor_t poolDesc,
                                                    miopenIndexType_t* index_type)
{
    MIOPEN_LOG_FUNCTION(poolDesc, index_type);
    return tryCatch(__func__, [&] {
        const auto& p = pooling(poolDesc);
        check(index_type != nullptr, "index_type is null");
        *index_type = p.indexType();
    });
}

extern "C" miopenStatus_t miopenSetPoolingWorkSpaceIndexMode_impl(miopenPoolingDescriptor_t poolDesc,
                                                             miopenPoolingWorkspaceIndexMode_t workspace_index)
{
    MIOPEN_LOG_FUNCTION(poolDesc, workspace_index);
    return tryCatch(__func__, [&] {
        auto& p = pooling(poolDesc);
        p.setWorkspaceIndexMode(miopen::checkedEnum(
            workspace_index, {miopenPoolingWorkspaceIndexMask, miopenPoolingWorkspaceIndexImage},
            "workspace index mode"));
    });
}

extern "C" miopenStatus_t miopenGetPoolingWorkSpaceIndexMode_impl(miopenPoolingDescriptor_t poolDesc,
                                                             miopenPoolingWorkspaceIndexMode_t* workspace_index)
{
    MIOPEN_LOG_FUNCTION(poolDesc, workspace_index);
    return tryCatch(__func__, [&] {
        const auto& p = pooling(poolDesc);
        check(workspace_index != nullptr, "workspace_index is null");
        *workspace_index = p.indexMode();
    });
}

extern "C" miopenStatus_t miopenSet2dPoolingDescriptor_impl(miopenPoolingDescriptor_t poolDesc,
                                                       miopenPoolingMode_t mode,
                                                       int windowHeight,
                                                       int windowWidth,
                                                       int pad_h,
                                                       int pad_w,
                                                       int stride_h,
                                                       int stride_w)
{
    MIOPEN_LOG_FUNCTION(poolDesc, mode, windowHeight, windowWidth, pad_h, pad_w, stride_h, stride_w);
    return tryCatch(__func__, [&] {
        auto& p = pooling(poolDesc);
        p.set(modeArg(mode), {windowHeight, windowWidth}, {pad_h, pad_w}, {stride_h, stride_w});
    });
}

extern "C" miopenStatus_t miopenGet2dPoolingDescriptor_impl(const miopenPoolingDescriptor_t poolDesc,
                                                       miopenPoolingMode_t* mode,
                                                       int* windowHeight,
                                                       int* windowWidth,
                                                       int* pad_h,
                                                       int* pad_w,
                                                       int* stride_h,
                                                       int* stride_w)
{
    MIOPEN_LOG_FUNCTION(poolDesc, mode, windowHeight, windowWidth, pad_h, pad_w, stride_h, stride_w);
    return tryCatch(__func__, [&] {
        const auto& p = pooling(poolDesc).checkSet("poolDesc");
        check(mode != nullptr && windowHeight != nullptr && windowWidth != nullptr && pad_h != nullptr &&
                  pad_w != nullptr && stride_h != nullptr && stride_w != nullptr,
              "an output pointer is null");
        if(p.spatialDims() != 2)
            fail(miopenStatusBadParm, "the pooling descriptor is " + std::to_string(p.spatialDims()) + "-D, not 2-D");
        *mode         = p.mode();
        *windowHeight = p.window()[0];
        *windowWidth  = p.window()[1];
        *pad_h        = p.pads()[0];
        *pad_w        = p.pads()[1];
        *stride_h     = p.strides()[0];
        *stride_w     = p.strides()[1];
    });
}

extern "C" miopenStatus_t miopenGetPoolingForwardOutputDim_impl(const miopenPoolingDescriptor_t poolDesc,
                                                           const miopenTensorDescriptor_t tensorDesc,
                                                           int* n,
                                                           int* c,
                                                           int* h,
                                                           int* w)
{
    MIOPEN_LOG_FUNCTION(poolDesc, tensorDesc, n, c, h, w);
    return tryCatch(__func__, [&] {
        const auto& p = pooling(poolDesc).checkSet("poolDesc");
        const auto& x = tensor(tensorDesc, "tensorDesc");
        check(n != nullptr && c != nullptr && h != nullptr && w != nullptr, "an output pointer is null");
        if(p.spatialDims() != 2)
            fail(miopenStatusBadParm, "the pooling descriptor is " + std::to_string(p.spatialDims()) +
                                          "-D; use miopenGetPoolingNdForwardOutputDim");
        const auto out = p.outputLengths(x);
        int v[4];
        for(std::size_t i = 0; i < 4; ++i)
            v[i] = toInt(out[i], "output length");
        *n = v[0];
        *c = v[1];
        *h = v[2];
        *w = v[3];
    });
}

extern "C" miopenStatus_t miopenSetNdPoolingDescriptor_impl(miopenPoolingDescriptor_t poolDesc,
                                                       const miopenPoolingMode_t mode,
                                                       int nbDims,
                                                       const int* windowDimA,
                                                       const int* padA,
                                                       const int* stridesA)
{
    MIOPEN_LOG_FUNCTION(poolDesc, mode, nbDims, windowDimA, padA, stridesA);
    return tryCatch(__func__, [&] {
        auto& p = pooling(poolDesc);
        check(nbDims == 2 || nbDims == 3, "nbDims must be 2 or 3");
        check(windowDimA != nullptr && padA != nullptr && stridesA != nullptr, "an array is null");
        const auto r = static_cast<std::size_t>(nbDims);
        p.set(modeArg(mode), std::vector<int>(windowDimA, windowDimA + r), std::vector<int>(padA, padA + r),
              std::vector<int>(stridesA, stridesA + r));
    });
}

extern "C" miopenStatus_t miopenGetNdPoolingDescriptor_impl(const miopenPoolingDescriptor_t poolDesc,
                                                       int nbDimsRequested,
                                                       miopenPoolingMode_t* mode,
                                                       int* nbDims,
                                                       int* windowDimA,
                                                       int* padA,
                                                       int* stridesA)
{
    MIOPEN_LOG_FUNCTION(poolDesc, nbDimsRequested, mode, nbDims, windowDimA, padA, stridesA);
    return tryCatch(__func__, [&] {
        const auto& p = pooling(poolDesc).checkSet("poolDesc");
        check(nbDimsRequested >= 0, "nbDimsRequested must be >= 0");
        const std::size_t count = std::min(static_cast<std::size_t>(nbDimsRequested), p.spatialDims());
        if(mode != nullptr)
            *mode = p.mode();
        if(nbDims != nullptr)
            *nbDims = static_cast<int>(p.spatialDims());
        for(std::size_t i = 0; i < count; ++i)
        {
            if(windowDimA != nullptr)
                windowDimA[i] = p.window()[i];
            if(padA != nullptr)
                padA[i] = p.pads()[i];
            if(stridesA != nullptr)
                stridesA[i] = p.strides()[i];
        }
    });
}

extern "C" miopenStatus_t miopenGetPoolingNdForwardOutputDim_impl(const miopenPoolingDescriptor_t poolDesc,
                                                             const miopenTensorDescriptor_t tensorDesc,
                                                             int dims,
                                                             int* tensorDimArr)
{
    MIOPEN_LOG_FUNCTION(poolDesc, tensorDesc, dims, tensorDimArr);
    return tryCatch(__func__, [&] {
        const auto& p = pooling(poolDesc).checkSet("poolDesc");
        const auto& x = tensor(tensorDesc, "tensorDesc");
        check(tensorDimArr != nullptr, "tensorDimArr is null");
        if(dims < 0 || static_cast<std::size_t>(dims) != x.numDims())
            fail(miopenStatusBadParm, "dims (" + std::to_string(dims) + ") is not the tensor's rank (" +
                                          std::to_string(x.numDims()) + ")");
        const auto out = p.outputLengths(x);
        std::vector<int> v;
        for(auto l : out)
            v.push_back(toInt(l, "output length"));
        std::copy(v.begin(), v.end(), tensorDimArr);
    });
}

extern "C" miopenStatus_t miopenPoolingGetWorkSpaceSize_impl(const miopenTensorDescriptor_t yDesc,
                                                        size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(yDesc, workSpaceSize);
    return tryCatch(__func__, [&] {
        const auto& y = tensor(yDesc, "yDesc");
        check(workSpaceSize != nullptr, "workSpaceSize is null");
        *workSpaceSize = y.elementCount() * sizeof(std::uint8_t);
    });
}

extern "C" miopenStatus_t miopenPoolingGetWorkSpaceSizeV2_impl(const miopenPoolingDescriptor_t poolDesc,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          size_t* workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(poolDesc, yDesc, workSpaceSize);
    return tryCatch(__func__, [&] {
        const auto& p = pooling(poolDesc).checkSet("poolDesc");
        const auto& y = tensor(yDesc, "yDesc");
        check(workSpaceSize != nullptr, "workSpaceSize is null");
        *workSpaceSize = p.workspaceSize(y);
    });
}

extern "C" miopenStatus_t miopenPoolingForward_impl(miopenHandle_t handle,
                                               const miopenPoolingDescriptor_t poolDesc,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x,
                                               const void* beta,
                                               const miopenTensorDescriptor_t yDesc,
                                               void* y,
                                               bool do_backward,
                                               void* workSpace,
                                               size_t workSpaceSize)
{
    MIOPEN_LOG_FUNCTION(handle, poolDesc, alpha, xDesc, x, beta, yDesc, y, do_backward, workSpace, workSpaceSize);
    return tryCatch(__func__, [&] {
        auto& h       = deref<Handle>(handle, "handle");
        const auto& p = pooling(poolDesc).checkSet("poolDesc");
        const auto& xd = tensor(xDesc, "xDesc");
        const auto& yd = tensor(yDesc, "yDesc");
        MIOPEN_LOG_DRIVER_CMD("Pooling_logging_cmd", p.driverArgs(xd, true));
        miopen::KernelTimer timer(h);
        p.forward(h, alpha, xd, x, beta, yd, y, do_backward, workSpace, workSpaceSize);
    });
}

extern "C" miopenStatus_t miopenPoolingBackward_impl(miopenHandle_t handle,
                                                const miopenPoolingDescriptor_t poolDesc,
                                                const void* alpha,
                                                const miopenTensorDescriptor_t yDesc,
                                                const void* y,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy,
                                                const miopenTensorDescriptor_t xDesc,
                                                const void* x,
                                                const void* beta,
                                                const miopenTensorDescriptor_t dxDesc,
                                                void* dx,
                                                void* workSpace)
{
    MIOPEN_LOG_FUNCTION(handle, poolDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx, workSpace);
    return tryCatch(__func__, [&] {
        auto& h        = deref<Handle>(handle, "handle");
        const auto& p  = pooling(poolDesc).checkSet("poolDesc");
        const auto& yd = tensor(yDesc, "yDesc");
        const auto& dyd = tensor(dyDesc, "dyDesc");
        const auto& xd = tensor(xDesc, "xDesc");
        const auto& dxd = tensor(dxDesc, "dxDesc");
        MIOPEN_LOG_DRIVER_CMD("Pooling_logging_cmd", p.driverArgs(xd, false));
        miopen::KernelTimer timer(h);
        // y and x are not needed: the saved indices (max) or the geometry (average) suffice.
        p.backward(h, alpha, yd, dyd, dy, xd, beta, dxd, dx, workSpace);
    });
}

extern "C" miopenStatus_t miopenDestroyPoolingDescriptor_impl(miopenPoolingDescriptor_t poolDesc)
{
    MIOPEN_LOG_FUNCTION(poolDesc);
    return tryCatch(__func__, [&] { miopen::destroyObject<PoolingDescriptor>(poolDesc, "poolDesc"); });
}
