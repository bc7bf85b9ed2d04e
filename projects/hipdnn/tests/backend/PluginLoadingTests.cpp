// Lazy plugin loading through the plugin manifest (PluginManifest.hpp, "Plugin loading" in the
// README) and the backend's file and environment rules (Security.hpp, docs/security.md), linked
// against the static hipdnn_backend_private.
//
// Each test works on its own directory of plugin copies (unique paths), so "is this plugin
// loaded" is a look for the copy's path in /proc/self/maps. Loading everything once to write the
// manifest happens in a child process (a death test that exits 0), as it would in an earlier
// process: this process then starts from the manifest without ever having mapped the copies.
#include "BackendLogger.hpp"
#include "EngineRanking.hpp"
#include "Handle.hpp"
#include "HipdnnException.hpp"
#include "PluginManager.hpp"
#include "PluginManifest.hpp"
#include "Security.hpp"
#include "descriptors/DescriptorFactory.hpp"
#include "descriptors/EngineDescriptors.hpp"
#include "descriptors/OperationGraphDescriptor.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

using namespace hipdnn_backend;
namespace fs = std::filesystem;
namespace dobj = hipdnn_data_sdk::data_objects;

namespace
{
const std::string kPlugins = HIPDNN_TEST_PLUGIN_OUTPUT_DIR;

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool mapped(const std::string& path)
{
    return readAll("/proc/self/maps").find(path) != std::string::npos;
}

/// Parsed entries of a manifest file (corrupt lines counted).
std::map<std::string, PluginManifestEntry> entriesOf(const std::string& path, size_t* corrupt = nullptr)
{
    PluginManifest manifest(path);
    manifest.load();
    if(corrupt != nullptr)
    {
        *corrupt = manifest.corruptLines();
    }
    std::map<std::string, PluginManifestEntry> out;
    std::istringstream in(readAll(path));
    std::string line;
    while(std::getline(in, line))
    {
        PluginManifestEntry e;
        if(PluginManifest::parseEntry(line, e))
        {
            out[e.path] = e;
        }
    }
    return out;
}

/// Conv fprop x [1,2,5,5] * w [3,2,3,3] -> y [1,3,5,5], optionally pinned to an engine.
std::vector<uint8_t> convGraph(std::optional<int64_t> preferred)
{
    flatbuffers::FlatBufferBuilder fbb;
    const std::vector<int64_t> xd{1, 2, 5, 5}, xs{50, 25, 5, 1}, wd{3, 2, 3, 3}, ws{18, 9, 3, 1};
    const std::vector<int64_t> yd{1, 3, 5, 5}, ys{75, 25, 5, 1}, pads{1, 1}, ones{1, 1};
    std::vector<flatbuffers::Offset<dobj::TensorAttributes>> tensors{
        dobj::CreateTensorAttributesDirect(fbb, 1, "x", dobj::DataType::FLOAT, &xs, &xd),
        dobj::CreateTensorAttributesDirect(fbb, 2, "w", dobj::DataType::FLOAT, &ws, &wd),
        dobj::CreateTensorAttributesDirect(fbb, 3, "y", dobj::DataType::FLOAT, &ys, &yd)};
    auto conv = dobj::CreateConvolutionFwdAttributesDirect(fbb, 1, 2, 3, &pads, &pads, &ones, &ones,
                                                           dobj::ConvMode::CROSS_CORRELATION);
    std::vector<flatbuffers::Offset<dobj::Node>> nodes{dobj::CreateNodeDirect(
        fbb, "conv", dobj::DataType::FLOAT, dobj::NodeAttributes::ConvolutionFwdAttributes, conv.Union())};
    fbb.Finish(dobj::CreateGraphDirect(fbb, "conv", dobj::DataType::FLOAT, dobj::DataType::FLOAT,
                                       dobj::DataType::FLOAT, &tensors, &nodes,
                                       preferred ? flatbuffers::Optional<int64_t>(*preferred) : flatbuffers::nullopt));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

/// Engine names the FALLBACK heuristics list for the graph on `handle`.
std::vector<std::string> heuristics(hipdnnHandle_t handle, const std::vector<uint8_t>& bytes)
{
    auto graph = std::make_shared<OperationGraphDescriptor>();
    hipdnnBackendDescriptor_t graphHandle = DescriptorRegistry::add(graph);
    graph->setAttribute(HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle);
    graph->loadSerialized(bytes.data(), bytes.size());
    graph->finalize();
    EngineHeuristicDescriptor heur;
    heur.setAttribute(HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graphHandle);
    const hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    heur.setAttribute(HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
    heur.finalize();
    std::vector<std::string> names;
    for(size_t i : heur.ranking())
    {
        names.push_back(graph->handleState()->engines()[i].name);
    }
    DescriptorRegistry::remove(graphHandle);
    return names;
}

std::vector<std::string> engineNames(hipdnnHandle_t handle)
{
    std::vector<std::string> names;
    for(const auto& e : HandleRegistry::get(handle)->engines())
    {
        names.push_back(e.name + "@" + e.plugin->library().name());
    }
    return names;
}

/// WARN lines of the backend while alive.
class WarnCapture
{
public:
    WarnCapture()
    {
        _previous = BackendLogger::instance().level();
        BackendLogger::instance().setUserCallback(&WarnCapture::sink, HIPDNN_SEV_WARN, HIPDNN_LOG_CALLBACK_SYNC, this);
        BackendLogger::instance().setLevel(HIPDNN_SEV_WARN);
    }
    ~WarnCapture()
    {
        BackendLogger::instance().setUserCallback(&WarnCapture::sink, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, this);
        BackendLogger::instance().setLevel(_previous);
    }
    size_t count(const std::string& fragment) const
    {
        std::lock_guard<std::mutex> lock(_mutex);
        size_t n = 0;
        for(const auto& line : _lines)
        {
            n += line.find(fragment) != std::string::npos ? 1 : 0;
        }
        return n;
    }
    std::vector<std::string> lines() const
    {
        std::lock_guard<std::mutex> lock(_mutex);
        return _lines;
    }

private:
    static void sink(hipdnnUserLogCallbackHandle_t self, hipdnnSeverity_t, const char* message)
    {
        auto* capture = static_cast<WarnCapture*>(self);
        std::lock_guard<std::mutex> lock(capture->_mutex);
        capture->_lines.emplace_back(message);
    }
    mutable std::mutex _mutex;
    std::vector<std::string> _lines;
    hipdnnSeverity_t _previous = HIPDNN_SEV_OFF;
};

class PluginLoadingTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        _dir = ::testing::TempDir() + "hipdnn_plugin_loading_" + std::to_string(::getpid()) + "_"
               + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        fs::remove_all(_dir);
        fs::create_directories(_dir);
        _good = _dir + "/libgood.so";
        _counting = _dir + "/libcounting.so";
        fs::copy_file(kPlugins + "/libhipdnn_test_good_plugin.so", _good);
        fs::copy_file(kPlugins + "/counting/libhipdnn_test_counting_plugin.so", _counting);
        _manifest = _dir + "/cache/hipdnn_plugin_manifest.txt";
        PluginManager::instance().setEnginePluginPaths({_dir}, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
        PluginManager::instance().setManifestPath(_manifest);
    }
    void TearDown() override
    {
        PluginManager::instance().setManifestPath(std::nullopt);
        PluginManager::instance().setEnginePluginPaths({}, HIPDNN_PLUGIN_LOADING_ADDITIVE);
        std::error_code ec;
        fs::remove_all(_dir, ec);
    }

    /// What an earlier process does: loads every plugin of the directory (no manifest yet) and
    /// writes the manifest. Runs in a child, so this process never maps the copies.
    void earlierProcessWritesTheManifest()
    {
        EXPECT_EXIT(
            {
                hipdnnHandle_t handle = HandleRegistry::create();
                const bool both = mapped(_good) && mapped(_counting) && engineNames(handle).size() == 2;
                HandleRegistry::destroy(handle);
                std::exit(both && fs::exists(_manifest) ? 0 : 1);
            },
            ::testing::ExitedWithCode(0), "");
        ASSERT_TRUE(fs::exists(_manifest));
        ASSERT_FALSE(mapped(_good));
        ASSERT_FALSE(mapped(_counting));
    }

    std::string _dir, _good, _counting, _manifest;
};

const int64_t kGoodId = hipdnn_data_sdk::utilities::engineNameToId("TEST_GOOD_ENGINE");
} // namespace

TEST(PluginManifestFormat, EntriesRoundTripAndMalformedLinesAreRejected)
{
    PluginManifestEntry e;
    e.path = "/opt/lib/hipdnn_plugins/engines/libx.so";
    e.stamp = {2049, 123456, 4096, 1700000000123456789LL, 1700000001000000000LL};
    e.name = "x plugin";
    e.version = "1.2.3";
    e.apiVersion = "1.0.0";
    e.engines = {{0x15B46865C717A122LL, "MIOPEN_ENGINE"}, {-7, ""}};
    std::string line;
    ASSERT_TRUE(PluginManifest::formatEntry(e, line));
    PluginManifestEntry back;
    ASSERT_TRUE(PluginManifest::parseEntry(line, back)) << line;
    EXPECT_EQ(back.path, e.path);
    EXPECT_EQ(back.stamp, e.stamp);
    EXPECT_EQ(back.name, e.name);
    EXPECT_EQ(back.engines, e.engines);

    PluginManifestEntry bad = e;
    bad.path = "relative/libx.so";
    EXPECT_FALSE(PluginManifest::formatEntry(bad, line));
    bad = e;
    bad.engines[0].second = "A,B";
    EXPECT_FALSE(PluginManifest::formatEntry(bad, line));
    bad = e;
    bad.name = "tab\there";
    EXPECT_FALSE(PluginManifest::formatEntry(bad, line));

    ASSERT_TRUE(PluginManifest::formatEntry(e, line));
    const auto tab = line.find('\t');
    for(const std::string& garbage :
        {std::string(), std::string("garbage"), line.substr(0, line.size() / 2), line + "\textra",
         "hipdnn-plugin-manifest-v0" + line.substr(tab), line.substr(0, line.rfind('\t')) + "\trelative.so",
         [&] { std::string s = line; s.replace(s.find("15b46865c717a122"), 1, "z"); return s; }(),
         [&] { std::string s = line; s.replace(s.find("\t4096\t"), 6, "\t-1\t"); return s; }(),
         [&] { std::string s = line; s.replace(s.find("=MIOPEN_ENGINE"), 14, "=MIOPEN_ENGINE,15b46865c717a122=X"); return s; }()})
    {
        EXPECT_FALSE(PluginManifest::parseEntry(garbage, back)) << garbage;
    }
    // Random bytes never crash the parser and never parse.
    std::mt19937 rng(7);
    for(int i = 0; i < 2000; ++i)
    {
        std::string text = line;
        for(int k = 0; k < 4; ++k)
        {
            text[rng() % text.size()] = static_cast<char>(rng() % 256);
        }
        PluginManifest::parseEntry(text, back); // may parse when a flip hit a name byte; must not crash
    }
}

TEST_F(PluginLoadingTest, ManifestIsCreatedWithAnEntryPerCleanPluginAndMode0644)
{
    earlierProcessWritesTheManifest();
    const auto entries = entriesOf(_manifest);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries.at(fs::canonical(_good).string()).name, "test_good_plugin");
    EXPECT_EQ(entries.at(fs::canonical(_good).string()).engines.at(0).second, "TEST_GOOD_ENGINE");
    EXPECT_EQ(entries.at(fs::canonical(_counting).string()).engines.at(0).second, "TEST_COUNTING_ENGINE");
    struct stat st{};
    ASSERT_EQ(::lstat(_manifest.c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_mode & 0022, 0u) << "writable by group or others";
    for(const auto& f : fs::directory_iterator(fs::path(_manifest).parent_path()))
    {
        EXPECT_EQ(f.path().filename().string().find(".tmp."), std::string::npos) << "temporary file left: " << f.path();
    }
}

TEST_F(PluginLoadingTest, ManifestIsReusedAndAPluginNotNeededIsNeverLoaded)
{
    earlierProcessWritesTheManifest();
    const std::string before = readAll(_manifest);
    hipdnnHandle_t handle = HandleRegistry::create();
    // Engines, plugin list and names as with every plugin loaded, but nothing is mapped yet.
    const auto names = engineNames(handle);
    EXPECT_EQ(names.size(), 2u);
    EXPECT_EQ(HandleRegistry::get(handle)->plugins().size(), 2u);
    EXPECT_NE(std::find(names.begin(), names.end(), "TEST_GOOD_ENGINE@test_good_plugin"), names.end());
    EXPECT_FALSE(mapped(_good));
    EXPECT_FALSE(mapped(_counting));
    // A graph pinned to the good engine asks only its plugin: only that one is loaded.
    EXPECT_EQ(heuristics(handle, convGraph(kGoodId)), std::vector<std::string>{"TEST_GOOD_ENGINE"});
    EXPECT_TRUE(mapped(_good));
    EXPECT_FALSE(mapped(_counting));
    // An unpinned graph with no known ranking needs every plugin's answer: all load.
    EngineRankingSettings staticOrder;
    staticOrder.mode = EngineRankingMode::Static;
    EngineRanking::instance().reconfigure(staticOrder);
    EXPECT_EQ(heuristics(handle, convGraph(std::nullopt)).size(), 2u);
    EngineRanking::instance().reconfigure(EngineRankingSettings::fromEnvironment());
    EXPECT_TRUE(mapped(_counting));
    HandleRegistry::destroy(handle);
    EXPECT_EQ(readAll(_manifest), before) << "a valid manifest is not rewritten";
}

TEST_F(PluginLoadingTest, ThreadsNeedingTheSameUnloadedPluginLoadItOnce)
{
    earlierProcessWritesTheManifest();
    WarnCapture warnings;
    std::vector<std::thread> threads;
    std::atomic<int> good{0};
    for(int t = 0; t < 4; ++t)
    {
        threads.emplace_back([&] {
            hipdnnHandle_t handle = HandleRegistry::create();
            for(int i = 0; i < 3; ++i)
            {
                good += heuristics(handle, convGraph(kGoodId)) == std::vector<std::string>{"TEST_GOOD_ENGINE"} ? 1 : 0;
            }
            HandleRegistry::destroy(handle);
        });
    }
    for(auto& t : threads)
    {
        t.join();
    }
    EXPECT_EQ(good.load(), 12);
    EXPECT_TRUE(mapped(_good));
    EXPECT_FALSE(mapped(_counting));
    EXPECT_TRUE(warnings.lines().empty()) << warnings.lines().front();
}

TEST_F(PluginLoadingTest, TouchedOrReplacedPluginInvalidatesItsEntry)
{
    earlierProcessWritesTheManifest();
    const std::string countingKey = fs::canonical(_counting).string();
    const auto oldStamp = entriesOf(_manifest).at(countingKey).stamp;
    // touch: a new mtime (and ctime) for the counting plugin.
    const fs::file_time_type later = fs::last_write_time(_counting) + std::chrono::seconds(5);
    fs::last_write_time(_counting, later);
    hipdnnHandle_t handle = HandleRegistry::create();
    EXPECT_TRUE(mapped(_counting)) << "a touched plugin is loaded to read its engines again";
    EXPECT_FALSE(mapped(_good)) << "an unchanged one is not";
    EXPECT_EQ(engineNames(handle).size(), 2u);
    HandleRegistry::destroy(handle);
    const auto newStamp = entriesOf(_manifest).at(countingKey).stamp;
    EXPECT_NE(newStamp, oldStamp);
    EXPECT_EQ(newStamp.mtimeNs, oldStamp.mtimeNs + 5000000000LL);

    // replace: another plugin under the good plugin's name (new inode, other engine).
    const std::string replacement = _dir + "/replacement.tmp";
    fs::copy_file(kPlugins + "/libhipdnn_test_execute_fails_plugin.so", replacement);
    fs::rename(replacement, _good);
    PluginManager::instance().reset();
    handle = HandleRegistry::create();
    const auto names = engineNames(handle);
    EXPECT_NE(std::find(names.begin(), names.end(), "TEST_EXECUTE_FAILS_ENGINE@test_execute_fails_plugin"),
              names.end());
    EXPECT_EQ(std::find(names.begin(), names.end(), "TEST_GOOD_ENGINE@test_good_plugin"), names.end());
    HandleRegistry::destroy(handle);
    EXPECT_EQ(entriesOf(_manifest).at(fs::canonical(_good).string()).name, "test_execute_fails_plugin");
}

TEST_F(PluginLoadingTest, BrokenPluginIsRejectedAtEveryStartAndNeverEntersTheManifest)
{
    fs::copy_file(kPlugins + "/libhipdnn_test_version_liar_plugin.so", _dir + "/libliar.so");
    fs::copy_file(kPlugins + "/libhipdnn_test_missing_symbols_plugin.so", _dir + "/libmissing.so");
    std::ofstream(_dir + "/libnotelf.so") << "not an ELF file";
    for(int start = 0; start < 2; ++start)
    {
        WarnCapture warnings;
        PluginManager::instance().reset();
        hipdnnHandle_t handle = HandleRegistry::create();
        EXPECT_EQ(engineNames(handle).size(), 2u);
        HandleRegistry::destroy(handle);
        EXPECT_EQ(warnings.count("rejected plugin " + _dir + "/libliar.so: plugin API version 2.0.0 has major 2"), 1u)
            << "start " << start;
        EXPECT_EQ(warnings.count("rejected plugin " + _dir + "/libmissing.so: missing required symbol "
                                 "hipdnnEnginePluginExecuteOpGraph"),
                  1u)
            << "start " << start;
        EXPECT_EQ(warnings.count("rejected plugin " + _dir + "/libnotelf.so: dlopen failed"), 1u) << "start " << start;
    }
    const auto entries = entriesOf(_manifest);
    EXPECT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries.count(_dir + "/libliar.so"), 0u);
}

TEST_F(PluginLoadingTest, CorruptManifestIsIgnoredAndRewrittenAtomically)
{
    fs::create_directories(fs::path(_manifest).parent_path());
    {
        std::ofstream out(_manifest, std::ios::binary);
        out << "hipdnn-plugin-manifest-v1\t1\t2\n" << std::string(1000, '\t') << "\n" << std::string("\0\x01\xff", 3)
            << "\nhipdnn-plugin-manifest-v1\t1\t2\t3\t4\t5\tn\tv\t1.0.0\tzz=Q\t/abs.so";
    }
    struct stat before{};
    ASSERT_EQ(::stat(_manifest.c_str(), &before), 0);
    WarnCapture warnings;
    hipdnnHandle_t handle = HandleRegistry::create();
    EXPECT_EQ(engineNames(handle).size(), 2u);
    EXPECT_TRUE(mapped(_good)) << "nothing usable in the manifest: plugins are loaded";
    HandleRegistry::destroy(handle);
    EXPECT_EQ(warnings.count("malformed line(s) ignored"), 1u);
    size_t corrupt = 99;
    EXPECT_EQ(entriesOf(_manifest, &corrupt).size(), 2u);
    EXPECT_EQ(corrupt, 0u);
    struct stat after{};
    ASSERT_EQ(::stat(_manifest.c_str(), &after), 0);
    EXPECT_NE(after.st_ino, before.st_ino) << "rewritten by rename, not in place";
}

TEST_F(PluginLoadingTest, ManifestEntryThatLiesFailsLoudlyWhenThePluginIsNeeded)
{
    // A manifest claiming another engine for the good plugin's file (stamp matches).
    PluginFileStamp stamp;
    ASSERT_TRUE(statPluginFile(fs::canonical(_good).string(), stamp));
    PluginManifest manifest(_manifest);
    PluginManifestEntry lie;
    lie.path = fs::canonical(_good).string();
    lie.stamp = stamp;
    lie.name = "test_good_plugin";
    lie.version = "1.0.0";
    lie.apiVersion = "1.0.0";
    lie.engines = {{hipdnn_data_sdk::utilities::engineNameToId("LIE_ENGINE"), "LIE_ENGINE"}};
    manifest.put(lie);
    std::string why;
    ASSERT_TRUE(manifest.save(why)) << why;
    hipdnnHandle_t handle = HandleRegistry::create();
    auto state = HandleRegistry::get(handle);
    const int64_t index = state->engineIndex(lie.engines[0].first);
    ASSERT_GE(index, 0);
    try
    {
        state->engines()[static_cast<size_t>(index)].plugin->handle();
        ADD_FAILURE() << "a plugin reporting other engines than its manifest entry was used";
    }
    catch(const HipdnnException& e)
    {
        EXPECT_EQ(e.status(), HIPDNN_STATUS_PLUGIN_ERROR);
        EXPECT_NE(std::string(e.what()).find("not what its plugin manifest entry lists"), std::string::npos) << e.what();
    }
    HandleRegistry::destroy(handle);
}

// The real engine plugins of the build (MIOpen and oneDNN providers): with a known ranking whose
// first engine is MIOPEN_ENGINE, a process loads only the MIOpen provider; libdnnl and libgomp
// are never mapped. Skipped in a build without the providers.
TEST(PluginLoadingProviders, KnownRankingWithMiopenFirstLoadsOnlyTheMiopenProvider)
{
    const std::string engines = HIPDNN_TEST_ENGINE_PLUGIN_DIR;
    const std::string miopen = engines + "/libhipdnn_miopen_provider_plugin.so";
    const std::string dnnl = engines + "/libhipdnn_dnnl_provider_plugin.so";
    if(!fs::exists(miopen) || !fs::exists(dnnl))
    {
        GTEST_SKIP() << "the provider plugins are not built (" << engines << ")";
    }
    const std::string dir = ::testing::TempDir() + "hipdnn_plugin_loading_providers_" + std::to_string(::getpid());
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string manifest = dir + "/hipdnn_plugin_manifest.txt", db = dir + "/engine_ranking.txt";
    PluginManager::instance().setEnginePluginPaths({engines}, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    PluginManager::instance().setManifestPath(manifest);
    EXPECT_EXIT(
        {
            hipdnnHandle_t handle = HandleRegistry::create();
            const bool all = mapped(miopen) && mapped(dnnl);
            HandleRegistry::destroy(handle);
            std::exit(all && fs::exists(manifest) ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
        {
            EngineRankingSettings settings;
            settings.dbPath = db;
            EngineRanking::instance().reconfigure(settings);
            hipdnnHandle_t handle = HandleRegistry::create();
            const bool nothingYet = !mapped(miopen) && !mapped(dnnl);
            const auto bytes = convGraph(std::nullopt);
            const std::string key = graphFingerprint(*flatbuffers::GetRoot<dobj::Graph>(bytes.data())) + "-"
                                    + contextFingerprint(*HandleRegistry::get(handle));
            EngineRankingDb(db).store(key, EngineRankingRecord{{hipdnn_data_sdk::utilities::engineNameToId("MIOPEN_ENGINE"),
                                                                hipdnn_data_sdk::utilities::engineNameToId("DNNL_ENGINE")},
                                                               {10.0, 30.0}}); // final: 3x apart
            EngineRanking::instance().reconfigure(settings); // a fresh cache over the file
            const auto names = heuristics(handle, bytes);
            HandleRegistry::destroy(handle);
            const bool ok = nothingYet && !names.empty() && names.front() == "MIOPEN_ENGINE" && mapped(miopen)
                            && !mapped(dnnl) && !mapped("libdnnl") && !mapped("libgomp");
            if(!ok)
            {
                std::fprintf(stderr, "nothing mapped at create: %d; first engine %s; mapped: miopen %d dnnl %d "
                             "libdnnl %d libgomp %d\n", nothingYet ? 1 : 0, names.empty() ? "none" : names.front().c_str(),
                             mapped(miopen) ? 1 : 0, mapped(dnnl) ? 1 : 0, mapped("libdnnl") ? 1 : 0,
                             mapped("libgomp") ? 1 : 0);
            }
            std::exit(ok ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
    PluginManager::instance().setManifestPath(std::nullopt);
    PluginManager::instance().setEnginePluginPaths({}, HIPDNN_PLUGIN_LOADING_ADDITIVE);
    fs::remove_all(dir);
}

TEST(BackendSecurity, EnvironmentPathsMustBeAbsoluteAndAreIgnoredUnderSecureExecution)
{
    EXPECT_EQ(decideEnvironmentPath("V", "/opt/x", false).path, "/opt/x");
    EXPECT_TRUE(decideEnvironmentPath("V", "/opt/x", false).warning.empty());
    EXPECT_TRUE(decideEnvironmentPath("V", nullptr, false).path.empty());
    EXPECT_TRUE(decideEnvironmentPath("V", "", false).warning.empty());
    for(const char* relative : {"plugins", "./plugins", "../lib", "~/x"})
    {
        const auto d = decideEnvironmentPath("V", relative, false);
        EXPECT_TRUE(d.path.empty()) << relative;
        EXPECT_NE(d.warning.find("must be an absolute path"), std::string::npos) << d.warning;
    }
    const auto secure = decideEnvironmentPath("V", "/opt/x", true);
    EXPECT_TRUE(secure.path.empty());
    EXPECT_NE(secure.warning.find("secure execution"), std::string::npos);
}

TEST(BackendSecurity, PluginDirectoryFromTheEnvironment)
{
    const std::string dir = ::testing::TempDir() + "hipdnn_security_plugins_" + std::to_string(::getpid());
    fs::create_directories(dir);
    fs::copy_file(kPlugins + "/libhipdnn_test_good_plugin.so", dir + "/libgood.so");
    const auto defaults = PluginManager::instance().candidateFiles();

    ::setenv("HIPDNN_PLUGIN_DIR", dir.c_str(), 1);
    EXPECT_EQ(PluginManager::instance().candidateFiles(), std::vector<std::string>{dir + "/libgood.so"});
    setSecureExecutionForTesting(1);
    EXPECT_EQ(PluginManager::instance().candidateFiles(), defaults) << "used under secure execution";
    setSecureExecutionForTesting(-1);

    // A relative directory would resolve against the current directory: ignored with one WARN.
    const auto cwd = fs::current_path();
    fs::current_path(fs::path(dir).parent_path());
    ::setenv("HIPDNN_PLUGIN_DIR", fs::path(dir).filename().c_str(), 1);
    {
        WarnCapture warnings;
        EXPECT_EQ(PluginManager::instance().candidateFiles(), defaults);
        EXPECT_EQ(PluginManager::instance().candidateFiles(), defaults);
        EXPECT_EQ(warnings.count("HIPDNN_PLUGIN_DIR='"), 1u) << "warned once per process";
    }
    fs::current_path(cwd);
    ::unsetenv("HIPDNN_PLUGIN_DIR");
    fs::remove_all(dir);
}

TEST(BackendSecurity, RankingFileFromTheEnvironment)
{
    ::setenv("HIPDNN_ENGINE_RANKING_DB", "/abs/ranking.txt", 1);
    EXPECT_EQ(EngineRankingSettings::fromEnvironment().dbPath, "/abs/ranking.txt");
    ::setenv("HIPDNN_ENGINE_RANKING_DB", "relative/ranking.txt", 1);
    const std::string fallback = EngineRankingSettings::fromEnvironment().dbPath;
    EXPECT_TRUE(fallback.empty() || fallback[0] == '/') << fallback;
    EXPECT_EQ(fallback.find("relative/ranking.txt"), std::string::npos);
    ::setenv("HIPDNN_ENGINE_RANKING_DB", "/abs/ranking.txt", 1);
    setSecureExecutionForTesting(1);
    EXPECT_TRUE(EngineRankingSettings::fromEnvironment().dbPath.empty()) << "no file under secure execution";
    EXPECT_TRUE(PluginManifest::pathNextTo(EngineRankingSettings::fromEnvironment().dbPath).empty());
    setSecureExecutionForTesting(-1);
    ::unsetenv("HIPDNN_ENGINE_RANKING_DB");
    EXPECT_TRUE(PluginManifest::pathNextTo("relative.txt").empty());
    EXPECT_EQ(PluginManifest::pathNextTo("/a/b/rank.txt"), "/a/b/hipdnn_plugin_manifest.txt");
}

TEST(BackendSecurity, CacheFilesAreNeverReadOrWrittenThroughAnotherUsersSymlink)
{
    EXPECT_TRUE(mayFollowSymlink(1000, 1000));
    EXPECT_FALSE(mayFollowSymlink(0, 1000));
    EXPECT_FALSE(mayFollowSymlink(1001, 1000));

    const std::string dir = ::testing::TempDir() + "hipdnn_security_links_" + std::to_string(::getpid());
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string target = dir + "/target.txt", link = dir + "/link.txt";
    std::ofstream(target) << "original";
    fs::create_symlink(target, link);
    std::string content, why;
    // Our own link: followed for reading and written through (the target is replaced).
    EXPECT_TRUE(readCacheFile(link, content, why)) << why;
    EXPECT_EQ(content, "original");
    EXPECT_TRUE(writeCacheFileAtomically(link, "new", 0644, why)) << why;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(readAll(target), "new");
    // Another user's link (needs root to create one): neither read nor written through.
    if(::geteuid() == 0 && ::lchown(link.c_str(), 65534, 65534) == 0)
    {
        EXPECT_FALSE(readCacheFile(link, content, why));
        EXPECT_NE(why.find("symbolic link owned by uid 65534"), std::string::npos) << why;
        EXPECT_FALSE(writeCacheFileAtomically(link, "evil", 0644, why));
        EXPECT_EQ(readAll(target), "new");
    }
    // Not a regular file; too large; absent (no reason given).
    EXPECT_FALSE(readCacheFile(dir, content, why));
    EXPECT_FALSE(why.empty());
    EXPECT_FALSE(readCacheFile(target, content, why, 2));
    EXPECT_NE(why.find("larger than"), std::string::npos);
    EXPECT_FALSE(readCacheFile(dir + "/absent", content, why));
    EXPECT_TRUE(why.empty());
    // A new file gets the requested mode (less the umask) and no temporary file is left.
    const std::string fresh = dir + "/fresh.txt";
    ASSERT_TRUE(writeCacheFileAtomically(fresh, "x", 0600, why)) << why;
    struct stat st{};
    ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0077, 0u);
    size_t files = 0;
    for(const auto& f : fs::directory_iterator(dir))
    {
        (void)f;
        ++files;
    }
    EXPECT_EQ(files, 3u) << "target, link, fresh";
    fs::remove_all(dir);
}

TEST(BackendSecurity, CorruptRankingFileNeverCrashesAndIsRewritten)
{
    const std::string path = ::testing::TempDir() + "hipdnn_security_ranking_" + std::to_string(::getpid()) + ".txt";
    std::mt19937 rng(11);
    {
        std::ofstream out(path, std::ios::binary);
        const std::string key = std::string(32, 'a') + "-" + std::string(16, 'b');
        const std::string good = EngineRankingDb::formatRecord(key, EngineRankingRecord{{1, 2}, {3.0, 4.0}});
        for(int i = 0; i < 300; ++i)
        {
            std::string line = good;
            for(int k = 0; k < 3; ++k)
            {
                line[rng() % line.size()] = static_cast<char>(rng() % 256);
            }
            out << line << '\n';
        }
    }
    EngineRankingDb db(path);
    EXPECT_FALSE(db.find("no-such-key").has_value());
    db.store(std::string(32, 'c') + "-" + std::string(16, 'd'), EngineRankingRecord{{5}, {1.0}});
    EngineRankingDb again(path);
    EXPECT_TRUE(again.find(std::string(32, 'c') + "-" + std::string(16, 'd')).has_value());
    EXPECT_EQ(again.corruptLines(), 0u) << "malformed lines are dropped at the rewrite";
    std::remove(path.c_str());
    std::remove((path + ".lock").c_str());
}
