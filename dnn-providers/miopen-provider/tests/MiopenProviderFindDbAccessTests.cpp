// RFC 4.8 end to end: a convolution forwarded to hipDNN and run by the MIOpen provider neither
// reads nor writes MIOpen's find-db. Through MIOpen Public (libMIOpen.so) with
// MIOPEN_HIPDNN_FORWARDING=enabled and MIOPEN_HIPDNN_PREFERRED_ENGINE=MIOPEN_ENGINE (ctest sets
// them, and MIOPEN_TEST_EXPECT_ENGINE=MIOPEN_ENGINE, which the route probe checks), each test runs
// miopenConvolutionForward / BackwardData / BackwardWeights and their three Immediate forms on a
// 3x3 and a strided 1x1 problem, with MIOPEN_USER_DB_PATH pointing at a fresh directory D:
//
//   ColdProcess   no find-db in D, and the process has not looked for one yet;
//   WarmProcess   a find-db in D with records of both problems in all three directions,
//                 written by an earlier process with forwarding disabled (this executable running
//                 MiopenProviderFindDbSetup.PopulateFindDb), so Private would find and use them.
//
// Two detectors watch D while the calls run:
//   - FindDbAccessSpy: the executable's own open/openat/stat/... (they interpose on the C
//     library's) record every call on a path in D, failed ones included (a cold process's look
//     for a missing file), with the library that asked (from the call stack);
//   - inotify on D (IN_OPEN, IN_ACCESS and every kind of write): the kernel's view, which must
//     agree with the spy's successful opens, so no open escapes the spy.
// Checked: no access at all — neither by the MIOpen provider (its solver choice) nor by the
// wrapper in libMIOpen.so (its validation of the caller's algorithm / solution id, from Private's
// per-solution workspace queries over the generated solver catalogue) nor by anything else —
// nothing written in D (the warm file keeps its bytes and mtime), every call forwarded on
// MIOPEN_ENGINE. The accesses are listed by caller when there are any.
#include "FindDbAccessSpy.hpp"

#include "common/forwarding_route.hpp"

#include <miopen/miopen.h>

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace
{

namespace fs = std::filesystem;
using find_db_spy::Access;
using find_db_spy::Caller;

struct Geometry
{
    std::vector<int> x, w, y;
    int pad, stride;
    // Solution ids the Immediate forms name (GEMM solvers that apply to the problem).
    uint64_t fwdId, bwdId, wrwId;
    const char* name;
};

// 3x3 stride 1 (Winograd, GEMMs, phase grid apply) and a strided 1x1 (the strided-1x1 solvers).
const Geometry kGeometries[] = {
    {{2, 8, 10, 10}, {8, 8, 3, 3}, {2, 8, 10, 10}, 1, 1, 91, 97, 102, "3x3"},
    {{2, 6, 9, 9}, {4, 6, 1, 1}, {2, 4, 5, 5}, 0, 2, 90, 95, 102, "1x1 stride 2"},
};

#define OK(expr) ASSERT_EQ((expr), miopenStatusSuccess) << #expr

/// One convolution problem through the public API, with buffers and a workspace for every
/// solution of it.
class Conv
{
public:
    explicit Conv(const Geometry& g) : _g(g)
    {
        EXPECT_EQ(miopenCreate(&_h), miopenStatusSuccess);
        auto tensor = [](miopenTensorDescriptor_t& d, const std::vector<int>& dims) {
            EXPECT_EQ(miopenCreateTensorDescriptor(&d), miopenStatusSuccess);
            EXPECT_EQ(miopenSet4dTensorDescriptor(d, miopenFloat, dims[0], dims[1], dims[2], dims[3]),
                      miopenStatusSuccess);
        };
        tensor(_x, g.x);
        tensor(_w, g.w);
        tensor(_y, g.y);
        EXPECT_EQ(miopenCreateConvolutionDescriptor(&_conv), miopenStatusSuccess);
        EXPECT_EQ(miopenInitConvolutionDescriptor(_conv, miopenConvolution, g.pad, g.pad, g.stride, g.stride, 1, 1),
                  miopenStatusSuccess);
        auto count = [](const std::vector<int>& d) { return static_cast<size_t>(d[0] * d[1] * d[2] * d[3]); };
        _xb.resize(count(g.x));
        _wb.resize(count(g.w));
        _yb.resize(count(g.y));
        for(size_t i = 0; i < _xb.size(); ++i)
        {
            _xb[i] = static_cast<float>(static_cast<int>(i % 13) - 6) / 8.f;
        }
        for(size_t i = 0; i < _wb.size(); ++i)
        {
            _wb[i] = static_cast<float>(static_cast<int>(i % 7) - 3) / 4.f;
        }
        for(size_t i = 0; i < _yb.size(); ++i)
        {
            _yb[i] = static_cast<float>(static_cast<int>(i % 5) - 2) / 2.f;
        }
    }
    ~Conv()
    {
        miopenDestroyConvolutionDescriptor(_conv);
        miopenDestroyTensorDescriptor(_x);
        miopenDestroyTensorDescriptor(_w);
        miopenDestroyTensorDescriptor(_y);
        miopenDestroy(_h);
    }
    Conv(const Conv&) = delete;
    Conv& operator=(const Conv&) = delete;

    /// Workspace queries (DB-free in Private: the largest need of the applicable solvers), and a
    /// check that each Immediate id applies. Run before the detectors are armed.
    void prepare()
    {
        size_t f = 0, b = 0, wr = 0;
        OK(miopenConvolutionForwardGetWorkSpaceSize(_h, _w, _x, _conv, _y, &f));
        OK(miopenConvolutionBackwardDataGetWorkSpaceSize(_h, _y, _w, _conv, _x, &b));
        OK(miopenConvolutionBackwardWeightsGetWorkSpaceSize(_h, _y, _x, _conv, _w, &wr));
        _ws.resize(std::max({f, b, wr, size_t{1}}));
        size_t need = 0;
        OK(miopenConvolutionForwardGetSolutionWorkspaceSize(_h, _w, _x, _conv, _y, _g.fwdId, &need));
        OK(miopenConvolutionBackwardDataGetSolutionWorkspaceSize(_h, _y, _w, _conv, _x, _g.bwdId, &need));
        OK(miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(_h, _y, _x, _conv, _w, _g.wrwId, &need));
    }

    /// Find in all three directions (forwarding disabled: Private benchmarks and records them).
    void find()
    {
        miopenConvAlgoPerf_t perf[4] = {};
        int n = 0;
        OK(miopenFindConvolutionForwardAlgorithm(_h, _x, _xb.data(), _w, _wb.data(), _conv, _y, _yb.data(), 4, &n, perf,
                                                 _ws.data(), _ws.size(), false));
        OK(miopenFindConvolutionBackwardDataAlgorithm(_h, _y, _yb.data(), _w, _wb.data(), _conv, _x, _xb.data(), 4, &n,
                                                      perf, _ws.data(), _ws.size(), false));
        OK(miopenFindConvolutionBackwardWeightsAlgorithm(_h, _y, _yb.data(), _x, _xb.data(), _conv, _w, _wb.data(), 4,
                                                         &n, perf, _ws.data(), _ws.size(), false));
    }

    /// The six forms, each checked to be forwarded (on MIOPEN_TEST_EXPECT_ENGINE).
    void runForwarded()
    {
        const float one = 1.f, zero = 0.f;
        using test::route::Expected;
        using test::route::Probe;
        {
            const Probe probe;
            OK(miopenConvolutionForward(_h, &one, _x, _xb.data(), _w, _wb.data(), _conv, miopenConvolutionFwdAlgoGEMM,
                                        &zero, _y, _yb.data(), _ws.data(), _ws.size()));
            EXPECT_TRUE(probe.check("miopenConvolutionForward", Expected::forwarded()));
        }
        {
            const Probe probe;
            OK(miopenConvolutionBackwardData(_h, &one, _y, _yb.data(), _w, _wb.data(), _conv,
                                             miopenConvolutionBwdDataAlgoGEMM, &zero, _x, _xb.data(), _ws.data(),
                                             _ws.size()));
            EXPECT_TRUE(probe.check("miopenConvolutionBackwardData", Expected::forwarded()));
        }
        {
            const Probe probe;
            OK(miopenConvolutionBackwardWeights(_h, &one, _y, _yb.data(), _x, _xb.data(), _conv,
                                                miopenConvolutionBwdWeightsAlgoGEMM, &zero, _w, _wb.data(), _ws.data(),
                                                _ws.size()));
            EXPECT_TRUE(probe.check("miopenConvolutionBackwardWeights", Expected::forwarded()));
        }
        {
            const Probe probe;
            OK(miopenConvolutionForwardImmediate(_h, _w, _wb.data(), _x, _xb.data(), _conv, _y, _yb.data(), _ws.data(),
                                                 _ws.size(), _g.fwdId));
            EXPECT_TRUE(probe.check("miopenConvolutionForwardImmediate", Expected::forwarded()));
        }
        {
            const Probe probe;
            OK(miopenConvolutionBackwardDataImmediate(_h, _y, _yb.data(), _w, _wb.data(), _conv, _x, _xb.data(),
                                                      _ws.data(), _ws.size(), _g.bwdId));
            EXPECT_TRUE(probe.check("miopenConvolutionBackwardDataImmediate", Expected::forwarded()));
        }
        {
            const Probe probe;
            OK(miopenConvolutionBackwardWeightsImmediate(_h, _y, _yb.data(), _x, _xb.data(), _conv, _w, _wb.data(),
                                                         _ws.data(), _ws.size(), _g.wrwId));
            EXPECT_TRUE(probe.check("miopenConvolutionBackwardWeightsImmediate", Expected::forwarded()));
        }
    }

private:
    Geometry _g;
    miopenHandle_t _h = nullptr;
    miopenTensorDescriptor_t _x = nullptr, _w = nullptr, _y = nullptr;
    miopenConvolutionDescriptor_t _conv = nullptr;
    std::vector<float> _xb, _wb, _yb;
    std::vector<unsigned char> _ws;
};

struct InotifyEvent
{
    uint32_t mask = 0;
    std::string name;
};

std::string maskText(uint32_t m)
{
    static const std::pair<uint32_t, const char*> kNames[] = {
        {IN_OPEN, "OPEN"},         {IN_ACCESS, "ACCESS"},     {IN_CREATE, "CREATE"},       {IN_MODIFY, "MODIFY"},
        {IN_ATTRIB, "ATTRIB"},     {IN_CLOSE_WRITE, "CLOSE_WRITE"}, {IN_MOVED_TO, "MOVED_TO"},
        {IN_MOVED_FROM, "MOVED_FROM"}, {IN_DELETE, "DELETE"},  {IN_CLOSE_NOWRITE, "CLOSE_NOWRITE"}};
    std::string s;
    for(const auto& [bit, name] : kNames)
    {
        if((m & bit) != 0)
        {
            s += s.empty() ? name : std::string("|") + name;
        }
    }
    return s;
}

/// What the detectors saw while `work` ran.
struct Observed
{
    std::vector<Access> accesses;     // the spy's records
    std::vector<InotifyEvent> events; // inotify, entries of the directory only

    std::vector<Access> by(Caller c) const
    {
        std::vector<Access> out;
        for(const auto& a : accesses)
        {
            if(a.caller == c)
            {
                out.push_back(a);
            }
        }
        return out;
    }
    size_t kernelOpens() const
    {
        size_t n = 0;
        for(const auto& e : events)
        {
            n += (e.mask & IN_OPEN) != 0 ? 1 : 0;
        }
        return n;
    }
    size_t spySuccessfulOpens() const
    {
        size_t n = 0;
        for(const auto& a : accesses)
        {
            n += a.call.rfind("open", 0) == 0 || a.call.rfind("fopen", 0) == 0 ? (a.result >= 0 ? 1 : 0) : 0;
        }
        return n;
    }
    std::vector<InotifyEvent> writes() const
    {
        std::vector<InotifyEvent> out;
        for(const auto& e : events)
        {
            if((e.mask & (IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE))
               != 0)
            {
                out.push_back(e);
            }
        }
        return out;
    }
};

std::string listText(const std::vector<Access>& list)
{
    std::string s;
    for(const auto& a : list)
    {
        s += "\n  " + find_db_spy::describe(a);
    }
    return s;
}

std::string listText(const std::vector<InotifyEvent>& list)
{
    std::string s;
    for(const auto& e : list)
    {
        s += "\n  " + maskText(e.mask) + " " + e.name;
    }
    return s;
}

Observed watch(const fs::path& dir, const std::function<void()>& work)
{
    Observed o;
    const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    EXPECT_GE(fd, 0) << "inotify_init1: " << std::strerror(errno);
    if(fd < 0)
    {
        return o;
    }
    const uint32_t mask = IN_OPEN | IN_ACCESS | IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_TO
                          | IN_MOVED_FROM | IN_DELETE;
    EXPECT_GE(inotify_add_watch(fd, dir.c_str(), mask), 0) << "inotify_add_watch: " << std::strerror(errno);
    find_db_spy::arm(dir.string());
    work();
    o.accesses = find_db_spy::disarm();
    // The kernel queues the events at the calls themselves: they are all there now.
    alignas(struct inotify_event) char buf[64 * 1024];
    for(;;)
    {
        const ssize_t n = read(fd, buf, sizeof buf);
        if(n <= 0)
        {
            break;
        }
        for(ssize_t at = 0; at < n;)
        {
            const auto* ev = reinterpret_cast<const struct inotify_event*>(buf + at);
            if(ev->len > 0) // an entry of the directory (events of the directory itself have no name)
            {
                o.events.push_back({ev->mask, std::string(ev->name)});
            }
            at += static_cast<ssize_t>(sizeof(struct inotify_event) + ev->len);
        }
    }
    close(fd);
    return o;
}

fs::path freshDirectory()
{
    std::string tmpl = (fs::temp_directory_path() / "miopen-provider-find-db-XXXXXX").string();
    if(mkdtemp(tmpl.data()) == nullptr)
    {
        ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
        return {};
    }
    return tmpl;
}

std::vector<fs::path> findDbFiles(const fs::path& dir)
{
    std::vector<fs::path> out;
    for(const auto& e : fs::directory_iterator(dir))
    {
        const std::string name = e.path().filename().string();
        if(name.size() > 9 && name.compare(name.size() - 9, 9, ".ufdb.txt") == 0)
        {
            out.push_back(e.path());
        }
    }
    return out;
}

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

int64_t mtimeNs(const fs::path& p)
{
    struct stat st
    {
    };
    if(::stat(p.c_str(), &st) != 0)
    {
        return -1;
    }
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

/// The earlier, non-forwarded run: this executable running MiopenProviderFindDbSetup.PopulateFindDb
/// with forwarding disabled and MIOPEN_USER_DB_PATH = dir. Returns its exit status.
int populate(const fs::path& dir)
{
    std::vector<std::string> env;
    for(char** e = environ; *e != nullptr; ++e)
    {
        const std::string v = *e;
        // Its own counters file: the wrapper of this process writes the one it was given.
        if(v.rfind("MIOPEN_HIPDNN_FORWARDING=", 0) != 0 && v.rfind("MIOPEN_USER_DB_PATH=", 0) != 0
           && v.rfind("MIOPEN_HIPDNN_COUNTERS_FILE=", 0) != 0)
        {
            env.push_back(v);
        }
    }
    env.push_back("MIOPEN_HIPDNN_FORWARDING=disabled");
    env.push_back("MIOPEN_USER_DB_PATH=" + dir.string());
    env.push_back("MIOPEN_PROVIDER_TEST_POPULATE_FIND_DB=1");
    std::vector<char*> envp;
    for(auto& v : env)
    {
        envp.push_back(v.data());
    }
    envp.push_back(nullptr);
    std::string self = fs::read_symlink("/proc/self/exe").string(),
                filter = "--gtest_filter=MiopenProviderFindDbSetup.PopulateFindDb";
    char* argv[] = {self.data(), filter.data(), nullptr};
    pid_t pid = 0;
    if(posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, envp.data()) != 0)
    {
        return -1;
    }
    int status = 0;
    if(waitpid(pid, &status, 0) != pid)
    {
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

enum class Scenario
{
    Cold,
    Warm
};

void run(Scenario scenario)
{
    ASSERT_TRUE(test::route::forwardingEnabled()) << "run through ctest: MIOPEN_HIPDNN_FORWARDING=enabled";
    ASSERT_EQ(test::route::expectedEngine(), "MIOPEN_ENGINE") << "run through ctest: MIOPEN_TEST_EXPECT_ENGINE";
    const char* pinned = std::getenv("MIOPEN_HIPDNN_PREFERRED_ENGINE");
    ASSERT_TRUE(pinned != nullptr && std::string(pinned) == "MIOPEN_ENGINE");

    const fs::path dir = freshDirectory();
    ASSERT_FALSE(dir.empty());
    ASSERT_EQ(setenv("MIOPEN_USER_DB_PATH", dir.c_str(), 1), 0); // Private reads it at each lookup

    fs::path file;
    std::string bytes;
    int64_t mtime = -1;
    if(scenario == Scenario::Warm)
    {
        ASSERT_EQ(populate(dir), 0) << "the non-forwarded run that writes the find-db failed";
        const auto files = findDbFiles(dir);
        ASSERT_EQ(files.size(), 1u) << "the non-forwarded run wrote no find-db in " << dir;
        file = files[0];
        bytes = readAll(file);
        mtime = mtimeNs(file);
        // Both problems in all three directions: keys end in -F, -B, -W.
        std::map<char, int> directions;
        std::istringstream lines(bytes);
        for(std::string line; std::getline(lines, line);)
        {
            const auto eq = line.find('=');
            if(eq != std::string::npos && eq > 0)
            {
                ++directions[line[eq - 1]];
            }
        }
        EXPECT_EQ(directions['F'], 2) << bytes;
        EXPECT_EQ(directions['B'], 2) << bytes;
        EXPECT_EQ(directions['W'], 2) << bytes;
        std::cout << "find-db of the earlier non-forwarded run (" << file.filename().string() << "):\n" << bytes;
    }
    else
    {
        ASSERT_TRUE(fs::is_empty(dir));
    }

    std::vector<std::unique_ptr<Conv>> convs;
    for(const auto& g : kGeometries)
    {
        convs.push_back(std::make_unique<Conv>(g));
        convs.back()->prepare();
    }
    ASSERT_FALSE(::testing::Test::HasFatalFailure());

    const Observed seen = watch(dir, [&] {
        for(auto& c : convs)
        {
            c->runForwarded();
        }
    });

    const auto provider = seen.by(Caller::Provider), wrapper = seen.by(Caller::Wrapper),
               other = seen.by(Caller::Other);
    std::cout << "find-db accesses during the forwarded calls: " << provider.size() << " by the MIOpen provider, "
              << wrapper.size() << " by libMIOpen.so (the wrapper), " << other.size() << " by others; "
              << seen.kernelOpens() << " opens seen by inotify" << listText(seen.accesses) << std::endl;

    EXPECT_TRUE(provider.empty()) << "the MIOpen provider reached MIOpen's find-db during forwarded calls:"
                                  << listText(provider);
    EXPECT_TRUE(wrapper.empty()) << "the wrapper (libMIOpen.so) reached MIOpen's find-db during forwarded calls:"
                                 << listText(wrapper);
    EXPECT_TRUE(other.empty()) << "find-db accesses by neither the provider nor the wrapper:" << listText(other);
    EXPECT_EQ(seen.kernelOpens(), seen.spySuccessfulOpens())
        << "inotify saw opens in " << dir << " that the spy did not record:" << listText(seen.events)
        << "\nrecorded:" << listText(seen.accesses);
    EXPECT_TRUE(seen.writes().empty()) << "forwarded calls wrote in " << dir << ":" << listText(seen.writes());
    EXPECT_TRUE(seen.accesses.empty() && seen.events.empty())
        << "forwarded calls reached MIOpen's find-db:" << listText(seen.accesses) << "\ninotify:"
        << listText(seen.events);
    if(scenario == Scenario::Warm)
    {
        EXPECT_EQ(readAll(file), bytes) << "the find-db changed";
        EXPECT_EQ(mtimeNs(file), mtime) << "the find-db was rewritten";
        EXPECT_EQ(findDbFiles(dir).size(), 1u);
    }
    else
    {
        EXPECT_TRUE(fs::is_empty(dir)) << "forwarded calls created files in " << dir;
    }
    convs.clear();
    std::error_code ec;
    fs::remove_all(dir, ec);
}

TEST(MiopenProviderFindDb, ColdProcess) { run(Scenario::Cold); }
TEST(MiopenProviderFindDb, WarmProcess) { run(Scenario::Warm); }

// The earlier run of WarmProcess (spawned by it): Find for every problem and direction, forwarding
// disabled, so Private benchmarks and records them.
TEST(MiopenProviderFindDbSetup, PopulateFindDb)
{
    if(std::getenv("MIOPEN_PROVIDER_TEST_POPULATE_FIND_DB") == nullptr)
    {
        GTEST_SKIP() << "run by MiopenProviderFindDb.WarmProcess in a child process";
    }
    ASSERT_FALSE(test::route::forwardingEnabled());
    for(const auto& g : kGeometries)
    {
        Conv c(g);
        c.prepare();
        ASSERT_FALSE(::testing::Test::HasFatalFailure());
        c.find();
    }
}


} // namespace

int main(int argc, char** argv)
{
    find_db_spy::warmUp();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
