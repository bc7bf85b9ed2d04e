// A fake plugin that records its applicability queries, for the heuristics' query tests: one
// engine, TEST_COUNTING_ENGINE, that runs graphs with the CPU references. The environment is
// read at every query:
//   HIPDNN_TEST_QUERY_LOG        a file; every applicability query appends a line "TEST_COUNTING_ENGINE"
//   HIPDNN_TEST_COUNTING_DECLINE "1": the engine declines every graph
#pragma once

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>

namespace counting_plugin
{

class CountingPlugin : public hipdnn_plugin_sdk::EnginePluginDescription
{
public:
    static const CountingPlugin& instance();
    const char* name() const override { return "test_counting_plugin"; }
    const char* version() const override { return "1.0.0"; }
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> createEngines() const override;
};

} // namespace counting_plugin
