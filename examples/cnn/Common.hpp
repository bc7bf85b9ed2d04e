// Small helpers of the CNN example: status checks, an owned hipMalloc'd buffer, an owned tensor
// descriptor, and the per-call profiler (hipEvent timing on the network's stream). Written against
// the public MIOpen C API and the HIP runtime API only, as a program for a real GPU would be.
#pragma once

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace cnn {

// A failed MIOpen or HIP call ends the run (main catches it and exits non-zero).
inline void checkMiopen(miopenStatus_t status, const char* what)
{
    if(status != miopenStatusSuccess)
        throw std::runtime_error(std::string(what) + " failed: " + miopenGetErrorString(status));
}

inline void checkHip(hipError_t status, const char* what)
{
    if(status != hipSuccess)
        throw std::runtime_error(std::string(what) + " failed: " + hipGetErrorString(status));
}

#define CNN_MIOPEN(expr) ::cnn::checkMiopen((expr), #expr)
#define CNN_HIP(expr) ::cnn::checkHip((expr), #expr)

struct Shape
{
    int n = 0, c = 0, h = 0, w = 0;
    std::size_t elements() const { return static_cast<std::size_t>(n) * c * h * w; }
};

// Device memory of float elements (hipMalloc / hipFree), copied with hipMemcpy.
class DeviceBuffer
{
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t elements) { allocate(elements); }
    DeviceBuffer(const DeviceBuffer&)            = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : _ptr(o._ptr), _elements(o._elements)
    {
        o._ptr      = nullptr;
        o._elements = 0;
    }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept
    {
        if(this != &o)
        {
            release();
            _ptr        = o._ptr;
            _elements   = o._elements;
            o._ptr      = nullptr;
            o._elements = 0;
        }
        return *this;
    }
    ~DeviceBuffer() { release(); }

    void allocate(std::size_t elements)
    {
        release();
        void* p = nullptr;
        CNN_HIP(hipMalloc(&p, elements * sizeof(float)));
        _ptr      = static_cast<float*>(p);
        _elements = elements;
    }
    float* get() const { return _ptr; }
    std::size_t elements() const { return _elements; }

    void upload(const std::vector<float>& host)
    {
        if(host.size() != _elements)
            throw std::runtime_error("DeviceBuffer::upload: size mismatch");
        CNN_HIP(hipMemcpy(_ptr, host.data(), _elements * sizeof(float), hipMemcpyHostToDevice));
    }
    std::vector<float> download() const
    {
        std::vector<float> host(_elements);
        CNN_HIP(hipMemcpy(host.data(), _ptr, _elements * sizeof(float), hipMemcpyDeviceToHost));
        return host;
    }
    float read(std::size_t i) const
    {
        float v = 0.0f;
        CNN_HIP(hipMemcpy(&v, _ptr + i, sizeof(float), hipMemcpyDeviceToHost));
        return v;
    }
    void write(std::size_t i, float v) { CNN_HIP(hipMemcpy(_ptr + i, &v, sizeof(float), hipMemcpyHostToDevice)); }

private:
    void release() noexcept
    {
        if(_ptr != nullptr)
            (void)hipFree(_ptr);
        _ptr      = nullptr;
        _elements = 0;
    }
    float* _ptr           = nullptr;
    std::size_t _elements = 0;
};

// An owned fp32 NCHW tensor descriptor.
class TensorDesc
{
public:
    TensorDesc() { CNN_MIOPEN(miopenCreateTensorDescriptor(&_desc)); }
    explicit TensorDesc(const Shape& s) : TensorDesc() { set(s); }
    TensorDesc(const TensorDesc&)            = delete;
    TensorDesc& operator=(const TensorDesc&) = delete;
    ~TensorDesc() { (void)miopenDestroyTensorDescriptor(_desc); }

    void set(const Shape& s)
    {
        _shape = s;
        CNN_MIOPEN(miopenSet4dTensorDescriptor(_desc, miopenFloat, s.n, s.c, s.h, s.w));
    }
    miopenTensorDescriptor_t get() const { return _desc; }
    const Shape& shape() const { return _shape; }

private:
    miopenTensorDescriptor_t _desc = nullptr;
    Shape _shape;
};

// An activation (or its gradient): descriptor plus device buffer.
struct Activation
{
    explicit Activation(const Shape& s) : desc(s), data(s.elements()) {}
    const Shape& shape() const { return desc.shape(); }
    TensorDesc desc;
    DeviceBuffer data;
};

// One timed library call.
struct CallTime
{
    std::string phase;     // inference, forward, backward, update
    std::string layer;     // e.g. block1.conv2
    std::string direction; // fwd, bwd-data, bwd-weights, bwd, ...
    float ms = 0.0f;
};

// Times each call between two hipEvents recorded on the stream. While recording is on, every
// call is appended to the current iteration and, when marking is on, bracketed on stderr by
// "cnn-call <phase> <layer> <direction>" and "cnn-call-end", so that a routing trace written by
// the library (MIOPEN_LOG_LEVEL=6, also on stderr) can be attributed to the layer that caused it.
class Profiler
{
public:
    explicit Profiler(hipStream_t stream) : _stream(stream)
    {
        CNN_HIP(hipEventCreate(&_start));
        CNN_HIP(hipEventCreate(&_stop));
    }
    Profiler(const Profiler&)            = delete;
    Profiler& operator=(const Profiler&) = delete;
    ~Profiler()
    {
        (void)hipEventDestroy(_start);
        (void)hipEventDestroy(_stop);
    }

    void setRecording(bool on) { _recording = on; }
    void setMarking(bool on) { _marking = on; }
    void beginIteration() { _iterations.emplace_back(); }
    const std::vector<std::vector<CallTime>>& iterations() const { return _iterations; }

    template <class F>
    void time(const char* phase, const std::string& layer, const char* direction, F&& call)
    {
        if(!_recording)
        {
            call();
            return;
        }
        if(_marking)
        {
            std::fprintf(stderr, "cnn-call %s %s %s\n", phase, layer.c_str(), direction);
            std::fflush(stderr);
        }
        CNN_HIP(hipEventRecord(_start, _stream));
        call();
        CNN_HIP(hipEventRecord(_stop, _stream));
        CNN_HIP(hipEventSynchronize(_stop));
        if(_marking)
        {
            std::fprintf(stderr, "cnn-call-end\n");
            std::fflush(stderr);
        }
        float ms = 0.0f;
        CNN_HIP(hipEventElapsedTime(&ms, _start, _stop));
        if(_iterations.empty())
            _iterations.emplace_back();
        _iterations.back().push_back(CallTime{phase, layer, direction, ms});
    }

private:
    hipStream_t _stream;
    hipEvent_t _start = nullptr;
    hipEvent_t _stop  = nullptr;
    bool _recording   = false;
    bool _marking     = false;
    std::vector<std::vector<CallTime>> _iterations;
};

} // namespace cnn
