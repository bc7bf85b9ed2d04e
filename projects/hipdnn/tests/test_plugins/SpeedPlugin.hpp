// A fake plugin for the measured engine ranking: two engines, TEST_SPEED_A_ENGINE and
// TEST_SPEED_B_ENGINE, that run graphs with the CPU references and then wait a configurable
// time. The environment is read at every execution (so a test can change it between cases):
//   HIPDNN_TEST_SPEED_A_US / HIPDNN_TEST_SPEED_B_US   microseconds to sleep after the reference
//                                                     (default 0); "FIRST/REST": a plan's first
//                                                     execution sleeps FIRST, later ones REST (a
//                                                     one-time cost); or "fail": execution fails.
//   HIPDNN_TEST_SPEED_LOG                             a file: each execution appends its engine's
//                                                     letter (A or B)
#pragma once

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>

namespace speed_plugin
{

class SpeedPlugin : public hipdnn_plugin_sdk::EnginePluginDescription
{
public:
    static const SpeedPlugin& instance();
    const char* name() const override { return "test_speed_plugin"; }
    const char* version() const override { return "1.0.0"; }
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> createEngines() const override;
};

} // namespace speed_plugin
