// C entry points of the tensor family: argument checks and logging, then internal C++.
#include <miopen/api_logging.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/miopen.h>
#include <miopen/miopen_impl.h>
#include <miopen/tensor.hpp>
#include <miopen/tensor_ops.hpp>

#include <vector>

using miopen::check;
using miopen::deref;
using miopen::fail;
using miopen::Handle;
using miopen::TensorDescriptor;
using miopen::tryCatch;

namespace {

TensorDescriptor& tensor(miopenTensorDescriptor_t d, const char* what)
{
    return deref<TensorDescriptor>(d, what);
}

std::vector<std::size_t> toSizes(const int* v, int n, const char* what)
{
    std::vector<std::size_t> out(static_cast<std::size_t>(n));
    for(int i = 0; i < n; ++i)
    {
        if(v[i] <= 0)
            fail(miopenStatusBadParm, std::string(what) + " must be positive");
        out[static_cast<std::size_t>(i)] = static_cast<std::size_t>(v[i]);
    }
    return out;
}

void checkRank(int n)
{
    if(n < 1 || n > miopen::kMaxTensorDims)
        fail(miopenStatusBadParm, "tensor rank must be 1.." + std::to_string(miopen::kMaxTensorDims) +
                                      ", got " + std::to_string(n));
}

miopenDataType_t dataTypeArg(const miopenDataType_t& t)
{
    return miopen::checkedEnum(t, {miopenHalf, miopenFloat, miopenInt32, miopenInt8, miopenBFloat16, miopenDouble,
                                   miopenFloat8, miopenBFloat8, miopenInt64},
                               "data type");
}

int toInt(std::size_t v, const char* what)
{
    if(v > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        fail(miopenStatusBadParm, std::string(what) + " does not fit in int; use the V2 API");
    return static_cast<int>(v);
}

} // namespace

extern "C" miopenStatus_t miopenCreateTensorDescriptor_impl(miopenTensorDescriptor_t* tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return tryCatch(__func__, [&] { miopen::createObject<TensorDescriptor>(tensorDesc, "tensor descriptor"); });
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptor_impl(
    miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n, int c, int h, int w)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w);
    return tryCatch(__func__, [&] {
        auto& t        = tensor(tensorDesc, "tensorDesc");
        const int l[4] = {n, c, h, w};
        t.set(dataTypeArg(dataType), toSizes(l, 4, "tensor length"),
              miopen::packedStridesForLayout(toSizes(l, 4, "tensor length"), "NCHW"));
    });
}

extern "C" miopenStatus_t miopenSetNdTensorDescriptorWithLayout_impl(miopenTensorDescriptor_t tensorDesc,
                                                                miopenDataType_t dataType,
                                                                miopenTensorLayout_t tensorLayout,
                                                                const int* lens,
                                                                int num_lens)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, tensorLayout, lens, num_lens);
    return tryCatch(__func__, [&] {
        auto& t = tensor(tensorDesc, "tensorDesc");
        check(lens != nullptr, "lens is null");
        checkRank(num_lens);
        t.setLayout(dataTypeArg(dataType), miopen::checkedEnum(tensorLayout, {0, 1, 2, 3, 4, 5, 6, 7, 8}, "tensor layout"), toSizes(lens, num_lens, "tensor length"));
    });
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptorEx_impl(miopenTensorDescriptor_t tensorDesc,
                                                        miopenDataType_t dataType,
                                                        int n,
                                                        int c,
                                                        int h,
                                                        int w,
                                                        int nStride,
                                                        int cStride,
                                                        int hStride,
                                                        int wStride)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w, nStride, cStride, hStride, wStride);
    return tryCatch(__func__, [&] {
        auto& t        = tensor(tensorDesc, "tensorDesc");
        const int l[4] = {n, c, h, w};
        const int s[4] = {nStride, cStride, hStride, wStride};
        t.set(dataTypeArg(dataType), toSizes(l, 4, "tensor length"), toSizes(s, 4, "tensor stride"));
    });
}

extern "C" miopenStatus_t miopenGet4dTensorDescriptor_impl(miopenTensorDescriptor_t tensorDesc,
                                                      miopenDataType_t* dataType,
                                                      int* n,
                                                      int* c,
                                                      int* h,
                                                      int* w,
                                                      int* nStride,
                                                      int* cStride,
                                                      int* hStride,
                                                      int* wStride)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w, nStride, cStride, hStride, wStride);
    return tryCatch(__func__, [&] {
        const auto& t = tensor(tensorDesc, "tensorDesc").checkSet("tensorDesc");
        check(dataType != nullptr && n != nullptr && c != nullptr && h != nullptr && w != nullptr &&
                  nStride != nullptr && cStride != nullptr && hStride != nullptr && wStride != nullptr,
              "an output pointer is null");
        if(t.numDims() != 4)
            fail(miopenStatusBadParm, "the descriptor is not 4-D (rank " + std::to_string(t.numDims()) + ")");
        int v[8];
        for(std::size_t i = 0; i < 4; ++i)
        {
            v[i]     = toInt(t.len(i), "tensor length");
            v[i + 4] = toInt(t.stride(i), "tensor stride");
        }
        *dataType = t.type();
        *n        = v[0];
        *c        = v[1];
        *h        = v[2];
        *w        = v[3];
        *nStride  = v[4];
        *cStride  = v[5];
        *hStride  = v[6];
        *wStride  = v[7];
    });
}

extern "C" miopenStatus_t miopenSetTensorDescriptor_impl(miopenTensorDescriptor_t tensorDesc,
                                                    miopenDataType_t dataType,
                                                    int nbDims,
                                                    const int* dimsA,
                                                    const int* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, nbDims, dimsA, stridesA);
    return tryCatch(__func__, [&] {
        auto& t = tensor(tensorDesc, "tensorDesc");
        checkRank(nbDims);
        check(dimsA != nullptr, "dimsA is null");
        auto lens = toSizes(dimsA, nbDims, "tensor length");
        if(stridesA == nullptr)
            t = TensorDescriptor(dataTypeArg(dataType), lens);
        else
            t.set(dataTypeArg(dataType), lens, toSizes(stridesA, nbDims, "tensor stride"));
    });
}

extern "C" miopenStatus_t miopenSetTensorDescriptorV2_impl(miopenTensorDescriptor_t tensorDesc,
                                                      miopenDataType_t dataType,
                                                      int nbDims,
                                                      const size_t* dimsA,
                                                      const size_t* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, nbDims, dimsA, stridesA);
    return tryCatch(__func__, [&] {
        auto& t = tensor(tensorDesc, "tensorDesc");
        checkRank(nbDims);
        check(dimsA != nullptr, "dimsA is null");
        std::vector<std::size_t> lens(dimsA, dimsA + nbDims);
        if(stridesA == nullptr)
            t = TensorDescriptor(dataTypeArg(dataType), lens);
        else
            t.set(dataTypeArg(dataType), lens, std::vector<std::size_t>(stridesA, stridesA + nbDims));
    });
}

extern "C" miopenStatus_t miopenSetTensorCastType_impl(miopenTensorDescriptor_t tensorDesc,
                                                  miopenDataType_t cast_type)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, cast_type);
    return tryCatch(__func__, [&] {
        auto& t = tensor(tensorDesc, "tensorDesc");
        t.setCastType(dataTypeArg(cast_type));
    });
}

extern "C" miopenStatus_t miopenGetTensorDescriptorSize_impl(miopenTensorDescriptor_t tensorDesc, int* size)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, size);
    return tryCatch(__func__, [&] {
        const auto& t = tensor(tensorDesc, "tensorDesc").checkSet("tensorDesc");
        check(size != nullptr, "size is null");
        *size = static_cast<int>(t.numDims());
    });
}

extern "C" miopenStatus_t miopenGetTensorDescriptor_impl(miopenTensorDescriptor_t tensorDesc,
                                                    miopenDataType_t* dataType,
                                                    int* dimsA,
                                                    int* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, dimsA, stridesA);
    return tryCatch(__func__, [&] {
        const auto& t = tensor(tensorDesc, "tensorDesc").checkSet("tensorDesc");
        // Convert first, write after: a failure leaves every output untouched.
        std::vector<int> lens, strides;
        for(std::size_t i = 0; i < t.numDims(); ++i)
        {
            lens.push_back(toInt(t.len(i), "tensor length"));
            strides.push_back(toInt(t.stride(i), "tensor stride"));
        }
        if(dataType != nullptr)
            *dataType = t.type();
        for(std::size_t i = 0; i < lens.size(); ++i)
        {
            if(dimsA != nullptr)
                dimsA[i] = lens[i];
            if(stridesA != nullptr)
                stridesA[i] = strides[i];
        }
    });
}

extern "C" miopenStatus_t miopenDestroyTensorDescriptor_impl(miopenTensorDescriptor_t tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return tryCatch(__func__, [&] { miopen::destroyObject<TensorDescriptor>(tensorDesc, "tensorDesc"); });
}

namespace {
// Sequence tensor descriptors exist in the API for RNNs; only their lifetime is implemented.
struct SeqTensorDescriptor : miopen::Object<miopenSeqTensorDescriptor, miopen::ObjectKind::SeqTensor>
{
};
} // namespace

extern "C" miopenStatus_t miopenCreateSeqTensorDescriptor_impl(miopenSeqTensorDescriptor_t* tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return tryCatch(__func__, [&] { miopen::createObject<SeqTensorDescriptor>(tensorDesc, "sequence tensor descriptor"); });
}

extern "C" miopenStatus_t miopenDestroySeqTensorDescriptor_impl(miopenSeqTensorDescriptor_t tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return tryCatch(__func__, [&] { miopen::destroyObject<SeqTensorDescriptor>(tensorDesc, "tensorDesc"); });
}

extern "C" miopenStatus_t miopenOpTensor_impl(miopenHandle_t handle,
                                         miopenTensorOp_t tensorOp,
                                         const void* alpha1,
                                         const miopenTensorDescriptor_t aDesc,
                                         const void* A,
                                         const void* alpha2,
                                         const miopenTensorDescriptor_t bDesc,
                                         const void* B,
                                         const void* beta,
                                         const miopenTensorDescriptor_t cDesc,
                                         void* C)
{
    MIOPEN_LOG_FUNCTION(handle, tensorOp, alpha1, aDesc, A, alpha2, bDesc, B, beta, cDesc, C);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        miopen::KernelTimer timer(h);
        miopen::opTensor(h, static_cast<miopenTensorOp_t>(miopen::rawEnum(tensorOp)), alpha1, tensor(aDesc, "aDesc"), A, alpha2, tensor(bDesc, "bDesc"), B,
                         beta, tensor(cDesc, "cDesc"), C);
    });
}

extern "C" miopenStatus_t miopenSetTensor_impl(miopenHandle_t handle,
                                          const miopenTensorDescriptor_t yDesc,
                                          void* y,
                                          const void* alpha)
{
    MIOPEN_LOG_FUNCTION(handle, yDesc, y, alpha);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        miopen::KernelTimer timer(h);
        miopen::setTensor(h, tensor(yDesc, "yDesc"), y, alpha);
    });
}

extern "C" miopenStatus_t miopenScaleTensor_impl(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t yDesc,
                                            void* y,
                                            const void* alpha)
{
    MIOPEN_LOG_FUNCTION(handle, yDesc, y, alpha);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        miopen::KernelTimer timer(h);
        miopen::scaleTensor(h, tensor(yDesc, "yDesc"), y, alpha);
    });
}

extern "C" miopenStatus_t miopenGetTensorNumBytes_impl(miopenTensorDescriptor_t tensorDesc, size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, numBytes);
    return tryCatch(__func__, [&] {
        const auto& t = tensor(tensorDesc, "tensorDesc").checkSet("tensorDesc");
        check(numBytes != nullptr, "numBytes is null");
        *numBytes = t.numBytes();
    });
}

extern "C" miopenStatus_t miopenTransformTensor_impl(miopenHandle_t handle,
                                                const void* alpha,
                                                const miopenTensorDescriptor_t xDesc,
                                                const void* x,
                                                const void* beta,
                                                const miopenTensorDescriptor_t yDesc,
                                                void* y)
{
    MIOPEN_LOG_FUNCTION(handle, alpha, xDesc, x, beta, yDesc, y);
    return tryCatch(__func__, [&] {
        auto& h = deref<Handle>(handle, "handle");
        miopen::KernelTimer timer(h);
        miopen::transformTensor(h, alpha, tensor(xDesc, "xDesc"), x, beta, tensor(yDesc, "yDesc"), y);
    });
}
