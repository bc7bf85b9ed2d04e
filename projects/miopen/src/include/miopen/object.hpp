// Opaque C objects: each public `struct miopenFoo {}` is the empty base of an internal C++ class
// that starts with a per-kind tag, so a pointer of the wrong kind (or a destroyed object whose
// memory is still mapped) is refused with BadParm instead of being misread.
#pragma once

#include <miopen/errors.hpp>

#include <cstdint>

namespace miopen {

enum class ObjectKind : std::uint32_t
{
    Handle           = 0x4d48444cU, // "MHDL"
    Tensor           = 0x4d54454eU,
    SeqTensor        = 0x4d535451U,
    Convolution      = 0x4d434f4eU,
    Pooling          = 0x4d504f4fU,
    Lrn              = 0x4d4c524eU,
    Activation       = 0x4d414354U,
    FusionPlan       = 0x4d46504cU,
    FusionOp         = 0x4d464f50U,
    OperatorArgs     = 0x4d4f5041U,
    Dead             = 0xdeadbeefU,
};

template <class Public, ObjectKind Kind>
struct Object : Public
{
    static constexpr ObjectKind kKind = Kind;
    Object() = default;
    Object(const Object&) : Public() {}
    Object& operator=(const Object&) { return *this; }
    ~Object() { _objectKind = ObjectKind::Dead; }

    bool hasKind() const noexcept { return _objectKind == Kind; }

private:
    volatile ObjectKind _objectKind = Kind;
};

// Converts a public handle to its internal object, checking null and kind.
template <class T, class Public>
T& deref(Public* p, const char* what)
{
    if(p == nullptr)
        fail(miopenStatusBadParm, std::string(what) + " is null");
    auto* obj = static_cast<T*>(p);
    if(!obj->hasKind())
        fail(miopenStatusBadParm, std::string(what) + " is not a valid object of its kind");
    return *obj;
}

template <class T, class Public>
const T& deref(const Public* p, const char* what)
{
    return deref<T>(const_cast<Public*>(p), what);
}

// Allocates a new object for a miopenCreate* call; writes it to *out.
template <class T, class Public>
void createObject(Public** out, const char* what)
{
    check(out != nullptr, (std::string(what) + " output pointer is null").c_str());
    *out = new T();
}

template <class T, class Public>
void destroyObject(Public* p, const char* what)
{
    delete &deref<T>(p, what);
}

} // namespace miopen
