// The example engine plugin: one engine, EXAMPLE_NAIVE_ENGINE, that runs conv fprop/dgrad/wgrad,
// pointwise and batchnorm graphs (and fusions of them) with the test SDK's CPU references.
// Copy-and-rename template for new plugins: a description, an engine of plan builders, a plan.
#pragma once

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>

namespace example_plugin
{

class ExampleEnginePlugin : public hipdnn_plugin_sdk::EnginePluginDescription
{
public:
    static const ExampleEnginePlugin& instance();
    const char* name() const override { return "example_engine_plugin"; }
    const char* version() const override { return "1.0.0"; }
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> createEngines() const override;
};

} // namespace example_plugin
