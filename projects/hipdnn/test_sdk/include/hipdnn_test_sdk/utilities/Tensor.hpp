// Host tensors for references and tests: a strided view (TensorView) and an owning tensor
// (Tensor) whose buffer covers its dims/strides. Elements of half/bfloat16/float/double types.
#pragma once

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hipdnn_test_sdk::utilities
{

/// Calls f(index) for every multi-index of `dims` in row-major order.
template <typename F>
void forEachIndex(const std::vector<int64_t>& dims, F&& f)
{
    const size_t rank = dims.size();
    for(int64_t d : dims)
    {
        if(d <= 0)
        {
            return;
        }
    }
    std::vector<int64_t> idx(rank, 0);
    for(;;)
    {
        f(idx);
        size_t i = rank;
        while(i > 0)
        {
            --i;
            if(++idx[i] < dims[i])
            {
                break;
            }
            idx[i] = 0;
            if(i == 0)
            {
                return;
            }
        }
        if(rank == 0)
        {
            return;
        }
    }
}

/// Element value as double (exact for float/double; half and bfloat16 go through float).
template <typename T>
double toDouble(T value)
{
    return static_cast<double>(value);
}

/// Stores a double into an element type (through float for the 16-bit types).
template <typename T>
std::remove_const_t<T> fromDouble(double value)
{
    using U = std::remove_const_t<T>;
    if constexpr(std::is_same_v<U, double>)
    {
        return value;
    }
    else
    {
        return U(static_cast<float>(value));
    }
}

template <typename T>
class TensorView
{
public:
    TensorView() = default;
    TensorView(T* data, std::vector<int64_t> dims, std::vector<int64_t> strides)
        : _data(data)
        , _dims(std::move(dims))
        , _strides(std::move(strides))
    {
        if(_dims.size() != _strides.size())
        {
            throw std::invalid_argument("TensorView: dims and strides differ in rank");
        }
    }

    /// A mutable view converts to a read-only one.
    template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U>>>
    operator TensorView<const U>() const // NOLINT(google-explicit-constructor)
    {
        return TensorView<const U>(_data, _dims, _strides);
    }

    T* data() const { return _data; }
    const std::vector<int64_t>& dims() const { return _dims; }
    const std::vector<int64_t>& strides() const { return _strides; }
    size_t rank() const { return _dims.size(); }
    int64_t elementCount() const { return hipdnn_data_sdk::utilities::elementCount(_dims); }

    int64_t offset(const std::vector<int64_t>& idx) const
    {
        int64_t off = 0;
        for(size_t i = 0; i < _dims.size(); ++i)
        {
            off += idx[i] * _strides[i];
        }
        return off;
    }
    T& at(const std::vector<int64_t>& idx) const { return _data[offset(idx)]; }

    /// Offset of an index of a (possibly larger) output shape, broadcasting size-1 dims.
    int64_t broadcastOffset(const std::vector<int64_t>& idx) const
    {
        int64_t off = 0;
        const size_t shift = idx.size() - _dims.size();
        for(size_t i = 0; i < _dims.size(); ++i)
        {
            off += (_dims[i] == 1 ? 0 : idx[i + shift]) * _strides[i];
        }
        return off;
    }

private:
    T* _data = nullptr;
    std::vector<int64_t> _dims;
    std::vector<int64_t> _strides;
};

template <typename T>
class Tensor
{
public:
    Tensor() = default;
    explicit Tensor(std::vector<int64_t> dims)
        : Tensor(dims, hipdnn_data_sdk::utilities::packedStrides(dims))
    {
    }
    Tensor(std::vector<int64_t> dims, std::vector<int64_t> strides)
        : _dims(std::move(dims))
        , _strides(std::move(strides))
        , _storage(static_cast<size_t>(hipdnn_data_sdk::utilities::spanElements(_dims, _strides)), T(0.0f))
    {
    }

    TensorView<T> view() { return TensorView<T>(_storage.data(), _dims, _strides); }
    TensorView<const T> view() const { return TensorView<const T>(_storage.data(), _dims, _strides); }
    T* data() { return _storage.data(); }
    const T* data() const { return _storage.data(); }
    size_t sizeBytes() const { return _storage.size() * sizeof(T); }
    const std::vector<int64_t>& dims() const { return _dims; }
    const std::vector<int64_t>& strides() const { return _strides; }
    int64_t elementCount() const { return hipdnn_data_sdk::utilities::elementCount(_dims); }
    T& at(const std::vector<int64_t>& idx) { return view().at(idx); }
    const T& at(const std::vector<int64_t>& idx) const { return view().at(idx); }

    /// Fills every addressed element with uniform values in [lo, hi) from `seed`.
    void fillUniform(float lo, float hi, uint32_t seed)
    {
        std::mt19937 gen(seed);
        std::uniform_real_distribution<float> dist(lo, hi);
        auto v = view();
        forEachIndex(_dims, [&](const std::vector<int64_t>& idx) { v.at(idx) = T(dist(gen)); });
    }
    void fill(float value)
    {
        auto v = view();
        forEachIndex(_dims, [&](const std::vector<int64_t>& idx) { v.at(idx) = T(value); });
    }

private:
    std::vector<int64_t> _dims;
    std::vector<int64_t> _strides;
    std::vector<T> _storage;
};

} // namespace hipdnn_test_sdk::utilities
