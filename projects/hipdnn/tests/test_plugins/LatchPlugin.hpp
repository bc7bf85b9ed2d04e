// The latch test plugin: one engine, TEST_LATCH_ENGINE, that runs graphs with the test SDK's CPU
// references (like the example engine), except that building the plan of a graph with a tensor
// whose dimension 1 is kLatchChannels blocks until the test opens the latch. It serves the
// plan-cache concurrency test of MIOpen's forwarding (projects/miopen/test/api): while one build
// is held, other problems' builds and cached plans must still go through.
//
// Control, from the test process (dlopen(<plugin>, RTLD_NOLOAD) + dlsym; the names match the
// plugin version script's hipdnnPlugin* pattern):
//   int  hipdnnPluginTestLatchAwaitBlocked(int count, int timeoutMs)  waits until at least `count`
//        builds are held; returns how many are held (fewer than `count` means it timed out).
//   void hipdnnPluginTestLatchRelease(void)  opens the latch for good: held builds continue.
//   long hipdnnPluginTestLatchBuilds(void)   plan builds started so far (held or not).
// A held build gives up after kSafetyTimeoutSeconds and fails (HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR),
// so a test that never opens the latch fails instead of hanging.
#pragma once

#include <hipdnn_plugin_sdk/EnginePlugin.hpp>

namespace hipdnn_test_plugins
{

inline constexpr int64_t kLatchChannels = 7;
inline constexpr int kSafetyTimeoutSeconds = 60;

class LatchPlugin : public hipdnn_plugin_sdk::EnginePluginDescription
{
public:
    static const LatchPlugin& instance();
    const char* name() const override { return "test_latch_plugin"; }
    const char* version() const override { return "1.0.0"; }
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IEngine>> createEngines() const override;
};

} // namespace hipdnn_test_plugins

extern "C" {
HIPDNN_PLUGIN_EXPORT int hipdnnPluginTestLatchAwaitBlocked(int count, int timeoutMs);
HIPDNN_PLUGIN_EXPORT void hipdnnPluginTestLatchRelease(void);
HIPDNN_PLUGIN_EXPORT long hipdnnPluginTestLatchBuilds(void);
}
