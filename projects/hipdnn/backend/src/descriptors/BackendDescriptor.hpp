// Base of every backend descriptor and the registry of live descriptors. hipdnnBackendDescriptor_t
// is a pointer to the object; the registry owns a shared_ptr so that descriptors referenced by
// others stay alive after the user destroys them, and so that a stale or foreign pointer is
// rejected with BAD_PARAM instead of being dereferenced.
#pragma once

#include "../HipdnnException.hpp"

#include "hipdnn_backend.h"

#include <memory>
#include <string>

struct HipdnnBackendDescriptor
{
    virtual ~HipdnnBackendDescriptor() = default;
};

namespace hipdnn_backend
{

const char* descriptorTypeName(hipdnnBackendDescriptorType_t type);

class BackendDescriptor : public HipdnnBackendDescriptor,
                          public std::enable_shared_from_this<BackendDescriptor>
{
public:
    explicit BackendDescriptor(hipdnnBackendDescriptorType_t type)
        : _type(type)
    {
    }

    hipdnnBackendDescriptorType_t type() const { return _type; }
    const char* typeName() const { return descriptorTypeName(_type); }
    bool isFinalized() const { return _finalized; }

    void setAttribute(hipdnnBackendAttributeName_t name,
                      hipdnnBackendAttributeType_t type,
                      int64_t count,
                      const void* values);
    void getAttribute(hipdnnBackendAttributeName_t name,
                      hipdnnBackendAttributeType_t type,
                      int64_t requested,
                      int64_t* count,
                      void* values) const;
    void finalize();

protected:
    virtual void doSetAttribute(hipdnnBackendAttributeName_t name,
                                hipdnnBackendAttributeType_t type,
                                int64_t count,
                                const void* values)
        = 0;
    virtual void doGetAttribute(hipdnnBackendAttributeName_t name,
                                hipdnnBackendAttributeType_t type,
                                int64_t requested,
                                int64_t* count,
                                void* values) const
        = 0;
    virtual void doFinalize() = 0;

    /// For descriptors created already finalized (engine configs filled by heuristics, ...).
    void markFinalized() { _finalized = true; }

    [[noreturn]] void throwUnknownAttribute(hipdnnBackendAttributeName_t name) const;

private:
    hipdnnBackendDescriptorType_t _type;
    bool _finalized = false;
};

class DescriptorRegistry
{
public:
    static hipdnnBackendDescriptor_t add(std::shared_ptr<BackendDescriptor> descriptor);
    /// Makes a descriptor owned by another one (e.g. the engine of a heuristics result)
    /// reachable through the C API without transferring ownership: the entry lapses when the
    /// descriptor dies, and hipdnnBackendDestroyDescriptor refuses it.
    static hipdnnBackendDescriptor_t addBorrowed(const std::shared_ptr<BackendDescriptor>& descriptor);
    /// Throws BAD_PARAM if not a live descriptor.
    static void remove(hipdnnBackendDescriptor_t descriptor);
    /// Throws BAD_PARAM (null or not a live descriptor).
    static std::shared_ptr<BackendDescriptor> get(hipdnnBackendDescriptor_t descriptor);
    static hipdnnBackendDescriptor_t toHandle(const BackendDescriptor& descriptor);

    /// A live descriptor of the expected kind (BAD_PARAM otherwise), finalized when asked
    /// (BAD_PARAM_NOT_FINALIZED otherwise).
    template <typename T>
    static std::shared_ptr<T> getAs(hipdnnBackendDescriptor_t descriptor,
                                    hipdnnBackendDescriptorType_t expected,
                                    const char* what,
                                    bool requireFinalized)
    {
        auto base = get(descriptor);
        if(base->type() != expected)
        {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, std::string(what) + " must be a "
                                                               + descriptorTypeName(expected) + ", got a "
                                                               + base->typeName());
        }
        if(requireFinalized && !base->isFinalized())
        {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                                  std::string(what) + " (" + base->typeName() + ") is not finalized");
        }
        return std::static_pointer_cast<T>(base);
    }
    template <typename T>
    static std::shared_ptr<T> getAs(hipdnnBackendDescriptor_t descriptor,
                                    hipdnnBackendDescriptorType_t expected,
                                    const std::string& what,
                                    bool requireFinalized)
    {
        return getAs<T>(descriptor, expected, what.c_str(), requireFinalized);
    }
};

} // namespace hipdnn_backend
