// The operation descriptors (convolution fwd/dgrad/wgrad, pointwise, batchnorm inference /
// inference-with-variance / training / backward). One class driven by a per-kind table of
// attribute slots: each slot has a value kind and says whether it is required. Finalize checks
// required slots and shapes; the graph asks the operation for its tensors and its serialized node.
#pragma once

#include "TensorDescriptor.hpp"

#include <map>
#include <vector>

namespace hipdnn_backend
{

enum class SlotKind
{
    Tensor,      // BACKEND_DESCRIPTOR, one finalized tensor
    TensorArray, // BACKEND_DESCRIPTOR, any number of finalized tensors
    Int64Array,  // INT64[n]
    DataType,    // DATA_TYPE
    ConvMode,    // CONVOLUTION_MODE
    PointwiseMode,
    Real,        // FLOAT or DOUBLE
    Int64        // INT64
};

struct AttributeSlot
{
    hipdnnBackendAttributeName_t name;
    SlotKind kind;
    bool required;
};

struct OperationSpec
{
    hipdnnBackendDescriptorType_t type;
    std::vector<AttributeSlot> slots;
};

/// The table entry of an operation kind, or nullptr when `type` is not an operation.
const OperationSpec* findOperationSpec(hipdnnBackendDescriptorType_t type);

class OperationDescriptor : public BackendDescriptor
{
public:
    explicit OperationDescriptor(const OperationSpec& spec)
        : BackendDescriptor(spec.type)
        , _spec(&spec)
    {
    }

    /// Every tensor the operation references.
    std::vector<std::shared_ptr<TensorDescriptor>> tensors() const;
    /// The operation's node; `graphCompute` is used when the op has no compute type of its own.
    flatbuffers::Offset<hipdnn_data_sdk::data_objects::Node>
        serialize(flatbuffers::FlatBufferBuilder& fbb,
                  hipdnn_data_sdk::data_objects::DataType graphCompute,
                  size_t index) const;

protected:
    void doSetAttribute(hipdnnBackendAttributeName_t name,
                        hipdnnBackendAttributeType_t type,
                        int64_t count,
                        const void* values) override;
    void doGetAttribute(hipdnnBackendAttributeName_t name,
                        hipdnnBackendAttributeType_t type,
                        int64_t requested,
                        int64_t* count,
                        void* values) const override;
    void doFinalize() override;

private:
    const AttributeSlot& slot(hipdnnBackendAttributeName_t name) const;
    int64_t uidOf(hipdnnBackendAttributeName_t name) const;
    flatbuffers::Optional<int64_t> optionalUid(hipdnnBackendAttributeName_t name) const;
    flatbuffers::Optional<float> optionalReal(hipdnnBackendAttributeName_t name) const;
    const std::vector<int64_t>& ints(hipdnnBackendAttributeName_t name) const;
    void checkConvolution() const;

    const OperationSpec* _spec;
    std::map<int, std::shared_ptr<TensorDescriptor>> _tensors;
    std::map<int, std::vector<std::shared_ptr<TensorDescriptor>>> _tensorArrays;
    std::map<int, std::vector<int64_t>> _ints;
    std::map<int, int64_t> _enums;
    std::map<int, double> _reals;
};

} // namespace hipdnn_backend
