// HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: either built from finalized operation descriptors
// (OPS) or deserialized from a FlatBuffer Graph; finalizing needs the handle and produces the
// verified serialized graph every engine receives.
#pragma once

#include "../Handle.hpp"
#include "OperationDescriptor.hpp"

#include <optional>
#include <vector>

namespace hipdnn_backend
{

class OperationGraphDescriptor : public BackendDescriptor
{
public:
    OperationGraphDescriptor()
        : BackendDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR)
    {
    }

    /// Copies and verifies a serialized graph (BAD_PARAM with the reason when invalid).
    void loadSerialized(const uint8_t* data, size_t size);

    const std::vector<uint8_t>& serialized() const { return _serialized; }
    const hipdnn_data_sdk::data_objects::Graph& graph() const;
    const std::shared_ptr<HandleState>& handleState() const { return _handleState; }
    hipdnnHandle_t handle() const { return _handle; }
    std::optional<int64_t> preferredEngineId() const;

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
    void buildFromOperations();

    hipdnnHandle_t _handle = nullptr;
    std::shared_ptr<HandleState> _handleState;
    std::vector<std::shared_ptr<OperationDescriptor>> _ops;
    std::optional<hipdnn_data_sdk::data_objects::DataType> _compute;
    std::optional<hipdnn_data_sdk::data_objects::DataType> _intermediate;
    std::optional<hipdnn_data_sdk::data_objects::DataType> _io;
    std::optional<int64_t> _preferredEngine;
    std::string _name;
    bool _fromSerialized = false;
    std::vector<uint8_t> _serialized;
};

} // namespace hipdnn_backend
