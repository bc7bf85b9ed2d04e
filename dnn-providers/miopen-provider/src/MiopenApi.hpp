// The provider's only view of MIOpen: <miopen/miopen_impl.h> (the miopenFoo_impl entry points of
// libMIOpen_private.so, RFC 4.5) and owning wrappers of its objects. The provider never calls a
// public miopenFoo name: libMIOpen.so may forward to hipDNN, which would loop back here (the
// `miopen_provider_gate_impl_only` test checks the object files).
#pragma once

#include <miopen/miopen_impl.h>

#include <hipdnn_plugin_sdk/PluginException.hpp>

#include <memory>
#include <string>
#include <type_traits>

namespace miopen_provider
{

/// Throws a plugin exception (INTERNAL_ERROR for MIOpen failures after a plan was built, the
/// caller chooses) naming the MIOpen call and status.
inline void checkMiopen(miopenStatus_t status, const char* call,
                        hipdnnPluginStatus_t failure = HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR)
{
    if(status != miopenStatusSuccess)
    {
        throw hipdnn_plugin_sdk::PluginException(failure, std::string(call) + " failed: "
                                                              + miopenGetErrorString_impl(status));
    }
}

/// Owning pointer of a MIOpen object with its destroy function.
template <typename T, miopenStatus_t (*Destroy)(T)>
struct MiopenDeleter
{
    void operator()(T object) const noexcept { (void)Destroy(object); }
};

template <typename T, miopenStatus_t (*Create)(T*), miopenStatus_t (*Destroy)(T)>
std::shared_ptr<std::remove_pointer_t<T>> createMiopenObject(const char* what)
{
    T object = nullptr;
    checkMiopen(Create(&object), what);
    return std::shared_ptr<std::remove_pointer_t<T>>(object, MiopenDeleter<T, Destroy>());
}

using Handle = std::shared_ptr<std::remove_pointer_t<miopenHandle_t>>;
using TensorDesc = std::shared_ptr<std::remove_pointer_t<miopenTensorDescriptor_t>>;
using ConvDesc = std::shared_ptr<std::remove_pointer_t<miopenConvolutionDescriptor_t>>;
using ActivationDesc = std::shared_ptr<std::remove_pointer_t<miopenActivationDescriptor_t>>;
using FusionPlanDesc = std::shared_ptr<std::remove_pointer_t<miopenFusionPlanDescriptor_t>>;
using OperatorArgs = std::shared_ptr<std::remove_pointer_t<miopenOperatorArgs_t>>;

inline Handle createHandle()
{
    return createMiopenObject<miopenHandle_t, miopenCreate_impl, miopenDestroy_impl>("miopenCreate_impl");
}
inline TensorDesc createTensorDesc()
{
    return createMiopenObject<miopenTensorDescriptor_t, miopenCreateTensorDescriptor_impl,
                              miopenDestroyTensorDescriptor_impl>("miopenCreateTensorDescriptor_impl");
}
inline ConvDesc createConvDesc()
{
    return createMiopenObject<miopenConvolutionDescriptor_t, miopenCreateConvolutionDescriptor_impl,
                              miopenDestroyConvolutionDescriptor_impl>("miopenCreateConvolutionDescriptor_impl");
}
inline ActivationDesc createActivationDesc()
{
    return createMiopenObject<miopenActivationDescriptor_t, miopenCreateActivationDescriptor_impl,
                              miopenDestroyActivationDescriptor_impl>("miopenCreateActivationDescriptor_impl");
}
inline OperatorArgs createOperatorArgs()
{
    return createMiopenObject<miopenOperatorArgs_t, miopenCreateOperatorArgs_impl, miopenDestroyOperatorArgs_impl>(
        "miopenCreateOperatorArgs_impl");
}
inline FusionPlanDesc createFusionPlan(miopenTensorDescriptor_t input)
{
    miopenFusionPlanDescriptor_t plan = nullptr;
    checkMiopen(miopenCreateFusionPlan_impl(&plan, miopenVerticalFusion, input), "miopenCreateFusionPlan_impl");
    return FusionPlanDesc(plan, MiopenDeleter<miopenFusionPlanDescriptor_t, miopenDestroyFusionPlan_impl>());
}

} // namespace miopen_provider
