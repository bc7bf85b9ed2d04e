// The plugin-agnostic integration suite: every graph case against every engine the backend loads
// from its default plugin directory, each engine pinned in turn (the graph's preferred engine) and
// checked to be the engine that planned the graph. An engine's config file lists what it must
// accept: declining a listed (kind, dtype) fails with the engine's reason; an unlisted one may be
// declined (skipped with the reason) but, when accepted, must be numerically right.
#include "EngineConfig.hpp"
#include "EngineRegistry.hpp"
#include "GraphCases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

namespace integration_tests
{
namespace
{

namespace fe = hipdnn_frontend;

struct Configs
{
    std::vector<EngineConfig> configs;
    std::vector<std::string> errors;
};

const Configs& configs()
{
    static const Configs c = [] {
        Configs out;
        out.configs = loadEngineConfigs(engineConfigDirectory(), out.errors);
        return out;
    }();
    return c;
}

const EngineConfig* findConfig(const std::string& engine)
{
    for(const auto& c : configs().configs)
    {
        if(c.engine() == engine)
        {
            return &c;
        }
    }
    return nullptr;
}

// ------------------------------------------------------------------------------------------------
// The engines and their config files

TEST(IntegrationEngines, BackendLoadsEnginesFromItsDefaultPluginDirectory)
{
    const EngineRegistry& registry = EngineRegistry::instance();
    ASSERT_TRUE(registry.error().empty()) << registry.error();
    std::cout << "plugin files loaded by the backend:\n";
    for(const auto& path : registry.pluginPaths())
    {
        std::cout << "  " << path << "\n";
    }
    std::cout << "engines:\n";
    for(const auto& e : registry.engines())
    {
        std::cout << "  " << e.name << " (plugin " << e.pluginName << ", " << e.pluginPath << ")"
                  << (findConfig(e.name) != nullptr ? "" : "  <- no config file") << "\n";
    }
    EXPECT_FALSE(registry.engines().empty()) << "the backend loaded no engine";
    for(const auto& e : registry.engines())
    {
        EXPECT_FALSE(e.pluginPath.empty()) << "no loaded plugin file lists engine " << e.name;
    }
}

TEST(IntegrationEngines, EveryInstalledEngineHasAConfigFile)
{
    const EngineRegistry& registry = EngineRegistry::instance();
    ASSERT_TRUE(registry.error().empty()) << registry.error();
    for(const auto& e : registry.engines())
    {
        EXPECT_NE(findConfig(e.name), nullptr)
            << "engine " << e.name << " (from " << e.pluginPath << ") is installed but has no config file "
            << engineConfigDirectory() << "/" << e.name
            << ".txt: add one listing the graph kinds it must accept (see README.md)";
    }
}

TEST(IntegrationEngines, ConfigFilesParseAndEveryRuleNamesAKindOfTheSuite)
{
    for(const auto& error : configs().errors)
    {
        ADD_FAILURE() << error;
    }
    EXPECT_FALSE(configs().configs.empty()) << "no config file in " << engineConfigDirectory();
    const auto kinds = allGraphKinds();
    for(const auto& config : configs().configs)
    {
        for(const auto& rule : config.rules())
        {
            const bool matches = std::any_of(kinds.begin(), kinds.end(),
                                             [&](const std::string& k) { return wildcardMatch(rule.pattern, k); });
            EXPECT_TRUE(matches) << config.path() << ":" << rule.line << ": '" << rule.pattern
                                 << "' matches no graph kind of the suite";
        }
    }
}

TEST(IntegrationEngines, KindNamesAreUnique)
{
    std::set<std::string> names;
    for(const auto& c : allGraphCases())
    {
        EXPECT_TRUE(names.insert(c.testName()).second) << c.testName();
    }
}

class ConfiguredEngine : public ::testing::TestWithParam<std::string>
{
};

TEST_P(ConfiguredEngine, IsInstalled)
{
    const EngineRegistry& registry = EngineRegistry::instance();
    ASSERT_TRUE(registry.error().empty()) << registry.error();
    EXPECT_NE(registry.find(GetParam()), nullptr)
        << "engine " << GetParam() << " has a config file but the backend did not load it (is its plugin built "
        << "and in the engines directory?)";
}

std::vector<std::string> configuredEngineNames()
{
    std::vector<std::string> names;
    for(const auto& c : configs().configs)
    {
        names.push_back(c.engine());
    }
    return names;
}

INSTANTIATE_TEST_SUITE_P(IntegrationEngines, ConfiguredEngine, ::testing::ValuesIn(configuredEngineNames()),
                         [](const ::testing::TestParamInfo<std::string>& paramInfo) { return paramInfo.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConfiguredEngine);

// ------------------------------------------------------------------------------------------------
// Every case on every installed engine

struct EngineCase
{
    std::string engine;
    const GraphCase* graphCase = nullptr;
};

std::vector<EngineCase> engineCases()
{
    std::vector<EngineCase> out;
    for(const auto& e : EngineRegistry::instance().engines())
    {
        for(const auto& c : allGraphCases())
        {
            out.push_back({e.name, &c});
        }
    }
    return out;
}

/// gtest prints a failing case's parameter with this (instead of its bytes).
void PrintTo(const EngineCase& c, std::ostream* os)
{
    *os << c.engine << " " << c.graphCase->kind << " " << dtypeName(c.graphCase->dtype);
}

class EngineGraphTest : public ::testing::TestWithParam<EngineCase>
{
};

TEST_P(EngineGraphTest, MatchesReference)
{
    const EngineRegistry& registry = EngineRegistry::instance();
    ASSERT_TRUE(registry.error().empty()) << registry.error();
    const EngineCase& param = GetParam();
    const GraphCase& graphCase = *param.graphCase;
    const InstalledEngine* engine = registry.find(param.engine);
    ASSERT_NE(engine, nullptr) << param.engine << " is not loaded";
    const EngineConfig* config = findConfig(engine->name);
    const Requirement requirement = config != nullptr ? config->requirement(graphCase.kind, graphCase.dtype)
                                                      : Requirement{false, "the engine has no config file"};
    const std::string what = engine->name + " " + graphCase.kind + " " + dtypeName(graphCase.dtype);
    std::vector<std::string> declines;
    int ran = 0;
    for(int i = 0; i < graphCase.samples; ++i)
    {
        std::unique_ptr<CaseSample> sample = graphCase.make(i);
        const std::string sampleText = "sample " + std::to_string(i) + ": " + sample->text();
        SCOPED_TRACE(what + ", " + sampleText);
        fe::graph::Graph& g = sample->graph();
        g.set_preferred_engine_id_ext(engine->id);
        const fe::Error built = g.build(registry.handle());
        if(built.is_bad() || g.get_engine_name_ext() != engine->name)
        {
            std::vector<uint8_t> bytes;
            const fe::Error serialized = g.serialize(bytes);
            const std::string reason = serialized.is_bad()
                                           ? "the frontend could not build the graph: " + built.get_message()
                                           : registry.declineReason(*engine, bytes);
            if(requirement.required)
            {
                ADD_FAILURE() << what << " must be accepted (" << requirement.because << ") but " << engine->name
                              << " declined " << sampleText << "\n  reason: " << reason;
            }
            else
            {
                declines.push_back(sampleText + "\n  reason: " + reason);
            }
            continue;
        }
        std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
        const fe::Error executed = g.execute(registry.handle(), sample->variantPack(),
                                             workspace.empty() ? nullptr : workspace.data());
        ASSERT_FALSE(executed.is_bad()) << what << ": execute failed: " << executed;
        sample->check();
        ++ran;
    }
    if(!declines.empty())
    {
        std::string text = what + " declined by the engine (" + requirement.because + "):";
        for(const auto& d : declines)
        {
            text += "\n  " + d;
        }
        std::cout << "[ DECLINED ] " << text << std::endl;
        if(ran == 0 && !HasFailure())
        {
            GTEST_SKIP() << text;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Integration, EngineGraphTest, ::testing::ValuesIn(engineCases()),
                         [](const ::testing::TestParamInfo<EngineCase>& paramInfo) {
                             return paramInfo.param.engine + "__" + paramInfo.param.graphCase->testName();
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EngineGraphTest);

} // namespace
} // namespace integration_tests
