// A configurable IEngine for plugin-SDK unit tests: fixed applicability, workspace and a plan
// that counts executions (or throws).
#pragma once

#include <hipdnn_plugin_sdk/interfaces/IEngine.hpp>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

namespace hipdnn_test_sdk::mocks
{

struct MockEngineState
{
    bool applicable = true;
    std::string whyNot = "mock engine declines";
    size_t workspace = 0;
    bool throwOnExecute = false;
    std::atomic<int> executions{0};
};

class MockPlan : public hipdnn_plugin_sdk::IPlan
{
public:
    explicit MockPlan(std::shared_ptr<MockEngineState> state) : _state(std::move(state)) {}
    size_t getWorkspaceSize() const override { return _state->workspace; }
    void execute(const hipdnnPluginDeviceBuffer_t*, uint32_t, void*, hipStream_t) const override
    {
        if(_state->throwOnExecute)
        {
            throw std::runtime_error("mock plan failure");
        }
        ++_state->executions;
    }

private:
    std::shared_ptr<MockEngineState> _state;
};

class MockEngine : public hipdnn_plugin_sdk::IEngine
{
public:
    MockEngine(std::string name, std::shared_ptr<MockEngineState> state)
        : _name(std::move(name))
        , _id(hipdnn_data_sdk::utilities::engineNameToId(_name))
        , _state(std::move(state))
    {
    }
    int64_t id() const override { return _id; }
    const std::string& name() const override { return _name; }
    bool isApplicable(const hipdnn_plugin_sdk::GraphView&, std::string& whyNot) const override
    {
        if(!_state->applicable)
        {
            whyNot = _state->whyNot;
        }
        return _state->applicable;
    }
    std::vector<uint8_t> getDetails(const hipdnn_plugin_sdk::GraphView&) const override
    {
        flatbuffers::FlatBufferBuilder fbb;
        fbb.Finish(hipdnn_data_sdk::data_objects::CreateEngineDetailsDirect(fbb, _id, nullptr, nullptr, _name.c_str()));
        return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
    }
    size_t getWorkspaceSize(const hipdnn_plugin_sdk::GraphView&,
                            const hipdnn_data_sdk::data_objects::EngineConfig&) const override
    {
        return _state->workspace;
    }
    std::unique_ptr<hipdnn_plugin_sdk::IPlan> buildPlan(const hipdnn_plugin_sdk::GraphView&,
                                                        const hipdnn_data_sdk::data_objects::EngineConfig&) const override
    {
        return std::make_unique<MockPlan>(_state);
    }

private:
    std::string _name;
    int64_t _id;
    std::shared_ptr<MockEngineState> _state;
};

} // namespace hipdnn_test_sdk::mocks
