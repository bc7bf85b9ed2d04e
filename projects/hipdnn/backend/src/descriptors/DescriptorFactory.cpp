#include "DescriptorFactory.hpp"

#include "EngineDescriptors.hpp"

namespace hipdnn_backend
{

std::shared_ptr<BackendDescriptor> createDescriptor(hipdnnBackendDescriptorType_t type)
{
    if(const OperationSpec* spec = findOperationSpec(type))
    {
        return std::make_shared<OperationDescriptor>(*spec);
    }
    switch(type)
    {
    case HIPDNN_BACKEND_TENSOR_DESCRIPTOR: return std::make_shared<TensorDescriptor>();
    case HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: return std::make_shared<OperationGraphDescriptor>();
    case HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR: return std::make_shared<EngineHeuristicDescriptor>();
    case HIPDNN_BACKEND_ENGINE_DESCRIPTOR: return std::make_shared<EngineDescriptor>();
    case HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR: return std::make_shared<EngineConfigDescriptor>();
    case HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR: return std::make_shared<KnobChoiceDescriptor>();
    case HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: return std::make_shared<ExecutionPlanDescriptor>();
    case HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR: return std::make_shared<VariantPackDescriptor>();
    default:
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                              std::string("descriptor type ") + descriptorTypeName(type) + " ("
                                  + std::to_string(static_cast<int>(type))
                                  + ") is not supported by this backend");
    }
}

} // namespace hipdnn_backend
