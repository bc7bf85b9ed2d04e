#include "BackendDescriptor.hpp"

#include <mutex>
#include <unordered_map>

namespace hipdnn_backend
{

const char* descriptorTypeName(hipdnnBackendDescriptorType_t type)
{
    switch(type)
    {
    case HIPDNN_INVALID_TYPE: return "HIPDNN_INVALID_TYPE";
    case HIPDNN_BACKEND_ENGINE_DESCRIPTOR: return "HIPDNN_BACKEND_ENGINE_DESCRIPTOR";
    case HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR: return "HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR";
    case HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR: return "HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR";
    case HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: return "HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR";
    case HIPDNN_BACKEND_INTERMEDIATE_INFO_DESCRIPTOR: return "HIPDNN_BACKEND_INTERMEDIATE_INFO_DESCRIPTOR";
    case HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR: return "HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR";
    case HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR: return "HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR";
    case HIPDNN_BACKEND_LAYOUT_INFO_DESCRIPTOR: return "HIPDNN_BACKEND_LAYOUT_INFO_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATION_GEN_STATS_DESCRIPTOR: return "HIPDNN_BACKEND_OPERATION_GEN_STATS_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: return "HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR";
    case HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR: return "HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR";
    case HIPDNN_BACKEND_KERNEL_CACHE_DESCRIPTOR: return "HIPDNN_BACKEND_KERNEL_CACHE_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATION_PAGED_CACHE_LOAD_DESCRIPTOR: return "HIPDNN_BACKEND_OPERATION_PAGED_CACHE_LOAD_DESCRIPTOR";
    case HIPDNN_BACKEND_TENSOR_DESCRIPTOR: return "HIPDNN_BACKEND_TENSOR_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR: return "HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR: return "HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT: return "HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT";
    case HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: return "HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DESCRIPTOR: return "HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DESCRIPTOR";
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT: return "HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT";
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT: return "HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT";
    case HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT: return "HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT";
    }
    return "HIPDNN_BACKEND_<unknown descriptor type>";
}

void BackendDescriptor::setAttribute(hipdnnBackendAttributeName_t name,
                                     hipdnnBackendAttributeType_t type,
                                     int64_t count,
                                     const void* values)
{
    if(_finalized)
    {
        throw HipdnnException(HIPDNN_STATUS_NOT_INITIALIZED,
                              std::string(typeName()) + " is already finalized; its attributes are read-only");
    }
    throwIf(count < 0, HIPDNN_STATUS_BAD_PARAM, "elementCount is negative");
    // No attribute takes this many elements; refused before any allocation or read.
    constexpr int64_t kMaxAttributeElements = int64_t(1) << 24;
    throwIf(count > kMaxAttributeElements, HIPDNN_STATUS_BAD_PARAM,
            "elementCount " + std::to_string(count) + " exceeds " + std::to_string(kMaxAttributeElements));
    throwIf(count > 0 && values == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
            "arrayOfElements is null");
    doSetAttribute(name, type, count, values);
}

void BackendDescriptor::getAttribute(hipdnnBackendAttributeName_t name,
                                     hipdnnBackendAttributeType_t type,
                                     int64_t requested,
                                     int64_t* count,
                                     void* values) const
{
    if(!_finalized)
    {
        throw HipdnnException(HIPDNN_STATUS_NOT_INITIALIZED,
                              std::string(typeName()) + " is not finalized; finalize it before reading attributes");
    }
    throwIf(requested < 0, HIPDNN_STATUS_BAD_PARAM, "requestedElementCount is negative");
    throwIf(count == nullptr && values == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
            "elementCount and arrayOfElements are both null");
    throwIf(requested > 0 && values == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
            "arrayOfElements is null while requestedElementCount > 0");
    doGetAttribute(name, type, requested, count, values);
}

void BackendDescriptor::finalize()
{
    if(_finalized)
    {
        throw HipdnnException(HIPDNN_STATUS_NOT_INITIALIZED, std::string(typeName()) + " is already finalized");
    }
    doFinalize();
    _finalized = true;
}

void BackendDescriptor::throwUnknownAttribute(hipdnnBackendAttributeName_t name) const
{
    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                          "attribute " + std::to_string(static_cast<int>(name))
                              + " is not an attribute of " + typeName());
}

namespace
{
struct RegistryEntry
{
    std::shared_ptr<BackendDescriptor> owned; // created by the user
    std::weak_ptr<BackendDescriptor> borrowed; // owned by another descriptor
};
std::mutex& registryMutex()
{
    static std::mutex m;
    return m;
}
std::unordered_map<hipdnnBackendDescriptor_t, RegistryEntry>& registry()
{
    static std::unordered_map<hipdnnBackendDescriptor_t, RegistryEntry> r;
    return r;
}
} // namespace

hipdnnBackendDescriptor_t DescriptorRegistry::add(std::shared_ptr<BackendDescriptor> descriptor)
{
    hipdnnBackendDescriptor_t raw = descriptor.get();
    std::lock_guard<std::mutex> lock(registryMutex());
    registry()[raw] = RegistryEntry{std::move(descriptor), {}};
    return raw;
}

hipdnnBackendDescriptor_t DescriptorRegistry::addBorrowed(const std::shared_ptr<BackendDescriptor>& descriptor)
{
    hipdnnBackendDescriptor_t raw = descriptor.get();
    std::lock_guard<std::mutex> lock(registryMutex());
    auto& entry = registry()[raw];
    if(entry.owned == nullptr)
    {
        entry.borrowed = descriptor;
    }
    return raw;
}

void DescriptorRegistry::remove(hipdnnBackendDescriptor_t descriptor)
{
    std::shared_ptr<BackendDescriptor> keep; // destroyed outside the lock
    std::lock_guard<std::mutex> lock(registryMutex());
    auto it = registry().find(descriptor);
    const bool live = it != registry().end()
                      && (it->second.owned != nullptr || !it->second.borrowed.expired());
    throwIf(!live, HIPDNN_STATUS_BAD_PARAM, "descriptor is not a live hipDNN descriptor");
    throwIf(it->second.owned == nullptr, HIPDNN_STATUS_BAD_PARAM,
            "descriptor is owned by another descriptor and is destroyed with it");
    keep = std::move(it->second.owned);
    registry().erase(it);
}

std::shared_ptr<BackendDescriptor> DescriptorRegistry::get(hipdnnBackendDescriptor_t descriptor)
{
    throwIf(descriptor == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "descriptor is null");
    std::lock_guard<std::mutex> lock(registryMutex());
    auto it = registry().find(descriptor);
    throwIf(it == registry().end(), HIPDNN_STATUS_BAD_PARAM,
            "descriptor is not a live hipDNN descriptor");
    if(it->second.owned != nullptr)
    {
        return it->second.owned;
    }
    auto alive = it->second.borrowed.lock();
    if(alive == nullptr)
    {
        registry().erase(it);
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "descriptor is not a live hipDNN descriptor");
    }
    return alive;
}

hipdnnBackendDescriptor_t DescriptorRegistry::toHandle(const BackendDescriptor& descriptor)
{
    // Every handle handed out resolves: user-created ones are registered already, others are
    // registered as borrowed.
    return addBorrowed(std::const_pointer_cast<BackendDescriptor>(descriptor.shared_from_this()));
}

} // namespace hipdnn_backend
