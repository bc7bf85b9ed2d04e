// Pieces every MIOpenDriver sub-command shares: RAII handles over the public C API, element types,
// tensors in a named layout, the timing loop, verification reports and the test-only corruption
// switch. Only <miopen/miopen.h> and the hipDNN test SDK (CPU references, tolerances) are used.
#pragma once

#include "InputFlags.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/Tensor.hpp>
#include <miopen/miopen.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace miopen_driver
{

using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;
using hipdnn_test_sdk::utilities::Tensor;
using hipdnn_test_sdk::utilities::TensorView;

/// A failed MIOpen call or a bad command line: main() prints it and exits non-zero.
class DriverError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Throws DriverError naming the call and MIOpen's status string when `status` is not success.
void checkStatus(miopenStatus_t status, const char* call);
#define MIOPEN_DRIVER_CHECK(expr) ::miopen_driver::checkStatus((expr), #expr)

template <typename T>
struct TypeInfo;
template <>
struct TypeInfo<float>
{
    static constexpr miopenDataType_t kType = miopenFloat;
};
template <>
struct TypeInfo<half>
{
    static constexpr miopenDataType_t kType = miopenHalf;
};
template <>
struct TypeInfo<bfloat16>
{
    static constexpr miopenDataType_t kType = miopenBFloat16;
};

class Handle
{
public:
    Handle();
    ~Handle();
    Handle(const Handle&)            = delete;
    Handle& operator=(const Handle&) = delete;
    miopenHandle_t get() const { return _handle; }
    /// The kernel time of the handle's last call (miopenGetKernelTime), in ms.
    float kernelTime() const;

private:
    miopenHandle_t _handle = nullptr;
};

class TensorDesc
{
public:
    TensorDesc();
    ~TensorDesc();
    TensorDesc(const TensorDesc&)            = delete;
    TensorDesc& operator=(const TensorDesc&) = delete;
    void set(miopenDataType_t type, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides);
    miopenTensorDescriptor_t get() const { return _desc; }

private:
    miopenTensorDescriptor_t _desc = nullptr;
};

/// An MIOpen object created by `Create(&obj)` and destroyed by `Destroy(obj)` (descriptors,
/// operator arguments).
template <typename H, miopenStatus_t (*Create)(H*), miopenStatus_t (*Destroy)(H)>
class Object
{
public:
    Object() { checkStatus(Create(&_obj), "miopenCreate<object>"); }
    ~Object() { Destroy(_obj); }
    Object(const Object&)            = delete;
    Object& operator=(const Object&) = delete;
    H get() const { return _obj; }

private:
    H _obj = nullptr;
};
using ConvDescriptor = Object<miopenConvolutionDescriptor_t, miopenCreateConvolutionDescriptor,
                              miopenDestroyConvolutionDescriptor>;
using ActivationDescriptor =
    Object<miopenActivationDescriptor_t, miopenCreateActivationDescriptor, miopenDestroyActivationDescriptor>;
using PoolDescriptor = Object<miopenPoolingDescriptor_t, miopenCreatePoolingDescriptor, miopenDestroyPoolingDescriptor>;
using OperatorArgs   = Object<miopenOperatorArgs_t, miopenCreateOperatorArgs, miopenDestroyOperatorArgs>;

/// Strides of `dims` ([N, C, spatial...]) in `layout`: "" or NCHW/NCDHW/NCW (packed),
/// NHWC/NDHWC/NWC (channels last). Throws DriverError for another layout or a rank mismatch.
std::vector<int64_t> layoutStrides(const std::vector<int64_t>& dims, const std::string& layout);

/// Upper-cases a layout name.
std::string upper(std::string s);

/// Timing of the compute loop of one direction: `iters` calls, the kernel time of each read back
/// with miopenGetKernelTime when profiling is on; averages over calls 2..N as upstream (the first
/// call also builds plans and caches).
struct TimingResult
{
    float kernelFirstMs = 0.f;
    float kernelTotalMs = 0.f;
    float kernelMinMs   = 0.f;
    double wallFirstMs  = 0.0;
    double wallTotalMs  = 0.0;
    int iters           = 0;
    float kernelAverageMs() const;
    double wallAverageMs() const;
};

/// Runs `call` iters times (at least once). Throws DriverError when a call fails.
TimingResult timeLoop(const Handle& handle, int iters, bool profiling, const std::function<miopenStatus_t()>& call,
                      const char* what);

/// Fills every element of t from a uniform [lo, hi) distribution (values rounded to T).
template <typename T>
void fillUniform(Tensor<T>& t, float lo, float hi, uint32_t seed)
{
    t.fillUniform(lo, hi, seed);
}

/// MIOPEN_DRIVER_TEST_CORRUPT_OUTPUT=1 (tests only): the first verified output of a run gets one
/// element perturbed before verification, so a test can check that a mismatch fails the run.
bool corruptOutputRequested();
template <typename T>
void maybeCorrupt(T* data, std::size_t elements)
{
    static bool done = false;
    if(done || elements == 0 || !corruptOutputRequested())
        return;
    done        = true;
    auto& value = data[elements / 2];
    value       = T(static_cast<float>(value) + 100.0f);
}

/// Outcome of comparing a result with its reference: every element within atol + rtol * |ref|.
struct Verdict
{
    bool ok          = true;
    double maxError  = 0.0; // max |result - reference|
    double tolerance = 0.0; // atol + rtol * max|reference|
    std::string why;
};

template <typename T>
Verdict compareWithReference(TensorView<const T> reference, TensorView<const T> result, double atol, double rtol)
{
    Verdict v;
    double maxRef = 0.0;
    hipdnn_test_sdk::utilities::forEachIndex(reference.dims(), [&](const std::vector<int64_t>& i) {
        const double r = hipdnn_test_sdk::utilities::toDouble(reference.at(i));
        const double g = hipdnn_test_sdk::utilities::toDouble(result.at(i));
        maxRef         = std::max(maxRef, std::fabs(r));
        const double e = std::fabs(r - g);
        if(!(e <= v.maxError)) // NaN propagates
            v.maxError = e;
    });
    v.tolerance = atol + rtol * maxRef;
    hipdnn_test_sdk::utilities::CpuFpReferenceValidation<T> validation(atol, rtol);
    v.ok = validation.allClose(reference, result, &v.why);
    return v;
}

/// Largest |element| of a tensor (for the dynamic tolerances of the test SDK).
template <typename T>
double maxAbs(const Tensor<T>& t)
{
    double m = 0.0;
    hipdnn_test_sdk::utilities::forEachIndex(t.dims(), [&](const std::vector<int64_t>& i) {
        m = std::max(m, std::fabs(hipdnn_test_sdk::utilities::toDouble(t.at(i))));
    });
    return m;
}

/// Prints "<what> Verifies OK on CPU reference (err < tol)" or "<what> FAILED: err > tol" (with
/// the first mismatch); returns 0 or `failCode`.
int reportVerdict(const char* what, const Verdict& v, int failCode);

void printTensorCheck(const std::string& prefix, const char* name, const Verdict& v);

/// Per-tensor check in upstream's batch-norm wording: "<prefix> verification passed on <name>
/// (<err>)" or "<prefix> verification FAILED on <name>: <err> > <tol>" plus the first mismatch.
template <typename T>
bool checkTensor(const std::string& prefix, const char* name, TensorView<const T> reference, TensorView<const T> result,
                 double atol, double rtol)
{
    const Verdict v = compareWithReference<T>(reference, result, atol, rtol);
    printTensorCheck(prefix, name, v);
    return v.ok;
}
/// Prints upstream's echo line: "MIOpenDriver <args...>".
void echoCommand(int argc, char** argv);

/// Sub-command entry points (base argument, argc/argv of the whole command line). Each returns
/// the process exit code.
// The element type of a sub-command, as a value (TypeTag<half>{}) a generic lambda can read.
template <typename T>
struct TypeTag
{
    using type = T;
};

// Parses a sub-command's flags (added by addFlags) and runs it in the precision its name asks
// for: <prefix>fp16 half, <prefix>bfp16 bfloat16, <prefix> float. run(TypeTag<T>{}, flags)
// returns the exit code; --help exits 0, a bad flag 1.
template <class Run>
int runSubCommand(const std::string& base, const std::string& prefix, void (*addFlags)(InputFlags&), int argc,
                  char** argv, Run&& run)
{
    InputFlags flags;
    addFlags(flags);
    const auto parsed = flags.parse(argc, argv, 2);
    if(parsed != InputFlags::ParseResult::Ok)
        return parsed == InputFlags::ParseResult::Help ? 0 : 1;
    if(base == prefix + "fp16")
        return run(TypeTag<half>{}, flags);
    if(base == prefix + "bfp16")
        return run(TypeTag<bfloat16>{}, flags);
    return run(TypeTag<float>{}, flags);
}

int runConvolution(const std::string& base, int argc, char** argv);
int runBatchNorm(const std::string& base, int argc, char** argv);
int runPooling(const std::string& base, int argc, char** argv);
int runActivation(const std::string& base, int argc, char** argv);
int runSoftmax(const std::string& base, int argc, char** argv);
int runCBAInfer(const std::string& base, int argc, char** argv);
int runTensorOp(const std::string& base, int argc, char** argv);

} // namespace miopen_driver
