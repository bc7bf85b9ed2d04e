// Many threads, each with its own handle, running convolutions through the public API at once
// (issue 10, "Concurrency"). Registered in ctest with forwarding disabled and enabled
// (concurrency.cmake); the TSan stage (scripts/ci-sanitizers.sh) runs it under ThreadSanitizer.
//
// Every thread runs the same small problems in its own rotated order, so that at the start
// different problems are built concurrently and the same problem is asked for by two threads at
// once (a problem builds once), and afterwards every call is a hit of the shared caches: Private's
// find-db and solver state, and with forwarding enabled the wrapper's plan cache, hipDNN's plugin
// manager and its engine ranking. Per problem and thread: Find (always Private), then forward,
// backward data and backward weights with alpha = 1, beta = 0, and a forward with beta != 0 (all
// forwarded when enabled: the beta forward as conv -> ADD of MUL(prior, beta)). Inputs are shared by
// all threads read-only; every output is checked against conv_reference (plain loops, double).
// No deadlock: the main thread waits a bounded time for the workers and fails the run (naming
// each unfinished thread's step) when one is still busy.
#include "common/api_helpers.hpp"
#include "common/conv_reference.hpp"
#include "common/forwarding_route.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace ref = conv_reference;

constexpr int kThreads = 8;
constexpr int kRounds  = 2;
constexpr float kBeta  = 0.5f; // the pass-through forward: y = conv(x, w) + kBeta * y
// A bound on the whole run, far above what it needs even under ThreadSanitizer on 2 cores.
constexpr std::chrono::seconds kWait{240};

std::vector<int> toInt(const std::vector<std::size_t>& v) { return std::vector<int>(v.begin(), v.end()); }

// One problem: geometry, shared read-only inputs and the reference results.
struct Problem
{
    std::string name;
    ref::ConvParams p;
    ref::Tensor x, w, y;
    std::vector<float> xv, wv, dyv, yPrior; // inputs (dyv: the incoming gradient for both backward calls)
    std::vector<double> wantY, wantYBeta, wantDx, wantDw;
    double tolY = 0, tolDx = 0, tolDw = 0;

    Problem(std::string n, std::vector<std::size_t> xl, std::vector<std::size_t> wl, int pad, int stride,
            int dil, int groups, const std::string& order, unsigned seed)
        : name(std::move(n))
    {
        p.pads = {pad, pad}, p.strides = {stride, stride}, p.dilations = {dil, dil}, p.groups = groups;
        std::vector<std::size_t> yl = {xl[0], wl[0]};
        for(std::size_t i = 0; i < 2; ++i)
            yl.push_back(ref::outputLength(xl[2 + i], wl[2 + i], pad, stride, dil));
        x = ref::makeTensor(xl, order);
        w = ref::makeTensor(wl, order);
        y = ref::makeTensor(yl, order);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        for(auto [v, n2] : {std::pair{&xv, x.elementSpace()}, {&wv, w.elementSpace()}, {&dyv, y.elementSpace()},
                            {&yPrior, y.elementSpace()}})
        {
            v->resize(n2);
            for(auto& e : *v)
                e = d(rng);
        }
        const auto xd = std::vector<double>(xv.begin(), xv.end());
        const auto wdd = std::vector<double>(wv.begin(), wv.end());
        const auto dyd = std::vector<double>(dyv.begin(), dyv.end());
        wantY.assign(y.elementSpace(), 0.0);
        wantDx.assign(x.elementSpace(), 0.0);
        wantDw.assign(w.elementSpace(), 0.0);
        ref::forward(p, x, xd.data(), w, wdd.data(), y, wantY.data());
        ref::backwardData(p, x, wantDx.data(), w, wdd.data(), y, dyd.data());
        ref::backwardWeights(p, x, xd.data(), w, wantDw.data(), y, dyd.data());
        wantYBeta.resize(wantY.size());
        for(std::size_t i = 0; i < wantY.size(); ++i)
            wantYBeta[i] = wantY[i] + kBeta * static_cast<double>(yPrior[i]);

        // Reduction lengths of the three directions (inputs in [-1, 1]).
        const std::size_t g = static_cast<std::size_t>(groups);
        const std::size_t filt = wl[2] * wl[3];
        tolY  = bound(xl[1] / g * filt, ref::maxAbs(y, wantYBeta));
        tolDx = bound(wl[0] / g * filt, ref::maxAbs(x, wantDx));
        tolDw = bound(xl[0] * yl[2] * yl[3], ref::maxAbs(w, wantDw));
    }

    // Accumulated fp32 rounding (16: Winograd's transforms, as conv_api_test) plus the output's own.
    static double bound(std::size_t n, double maxAbsRef)
    {
        return 2.0 * (16.0 * static_cast<double>(n) * std::ldexp(1.0, -24) +
                      2.0 * std::ldexp(1.0, -24) * std::max(1.0, maxAbsRef));
    }
};

std::vector<std::unique_ptr<Problem>> makeProblems()
{
    std::vector<std::unique_ptr<Problem>> v;
    v.push_back(std::make_unique<Problem>("3x3pad1", std::vector<std::size_t>{2, 3, 7, 7},
                                          std::vector<std::size_t>{4, 3, 3, 3}, 1, 1, 1, 1, "NCHW", 1));
    v.push_back(std::make_unique<Problem>("1x1", std::vector<std::size_t>{1, 4, 8, 6},
                                          std::vector<std::size_t>{6, 4, 1, 1}, 0, 1, 1, 1, "NCHW", 2));
    v.push_back(std::make_unique<Problem>("grouped_stride2", std::vector<std::size_t>{2, 4, 9, 9},
                                          std::vector<std::size_t>{4, 2, 3, 3}, 1, 2, 1, 2, "NCHW", 3));
    v.push_back(std::make_unique<Problem>("dilated", std::vector<std::size_t>{1, 2, 9, 8},
                                          std::vector<std::size_t>{3, 2, 3, 3}, 0, 1, 2, 1, "NCHW", 4));
    v.push_back(std::make_unique<Problem>("nhwc_5x5", std::vector<std::size_t>{1, 3, 8, 8},
                                          std::vector<std::size_t>{4, 3, 5, 5}, 2, 1, 1, 1, "NHWC", 5));
    return v;
}

// Per-thread progress, readable by the main thread when a wait runs out.
struct Progress
{
    std::atomic<int> problem{-1};
    std::atomic<int> step{0}; // 0 not started, 1 find, 2 forward, 3 backward data, 4 backward weights, 5 beta forward, 6 done
};

const char* stepName(int s)
{
    static const std::array<const char*, 7> names{"not started", "find", "forward", "backward data",
                                                  "backward weights", "forward (beta)", "done"};
    return s >= 0 && s < 7 ? names[static_cast<std::size_t>(s)] : "?";
}

class Worker
{
public:
    Worker(int id, const std::vector<std::unique_ptr<Problem>>& problems, Progress& progress)
        : _id(id), _problems(problems), _progress(progress)
    {
    }

    // Runs every problem kRounds times in this thread's order; failures go to errors().
    void run()
    {
        miopenHandle_t h = nullptr;
        if(miopenCreate(&h) != miopenStatusSuccess)
        {
            fail("miopenCreate failed");
            return;
        }
        const std::size_t n = _problems.size();
        for(int round = 0; round < kRounds; ++round)
            for(std::size_t i = 0; i < n; ++i)
            {
                const std::size_t pi = (static_cast<std::size_t>(_id) + i) % n;
                _progress.problem.store(static_cast<int>(pi));
                runProblem(h, *_problems[pi], round);
            }
        _progress.step.store(6);
        miopenDestroy(h);
    }

    const std::vector<std::string>& errors() const { return _errors; }
    long callsInto(int step) const { return _calls[static_cast<std::size_t>(step)]; }

private:
    void fail(const std::string& what)
    {
        std::ostringstream s;
        s << "thread " << _id << ": " << what;
        _errors.push_back(s.str());
    }

    bool ok(miopenStatus_t st, const Problem& pr, const char* call)
    {
        if(st == miopenStatusSuccess)
            return true;
        fail(pr.name + ": " + call + " returned " + miopenGetErrorString(st));
        return false;
    }

    void check(const Problem& pr, const char* what, const ref::Tensor& t, const std::vector<float>& got,
               const std::vector<double>& want, double tol)
    {
        const std::vector<double> g(got.begin(), got.end());
        const double err = ref::maxAbsDiff(t, g, want);
        if(!(err <= tol))
        {
            std::ostringstream s;
            s << pr.name << ": " << what << " max |error| " << err << " > " << tol;
            fail(s.str());
        }
    }

    void runProblem(miopenHandle_t h, const Problem& pr, int round)
    {
        // Descriptors of this thread (the inputs' buffers are shared by all threads).
        const test::Tensor xd(miopenFloat, toInt(pr.x.lens), toInt(pr.x.strides));
        const test::Tensor wd(miopenFloat, toInt(pr.w.lens), toInt(pr.w.strides));
        const test::Tensor yd(miopenFloat, toInt(pr.y.lens), toInt(pr.y.strides));
        const test::Conv conv;
        if(!ok(miopenInitConvolutionNdDescriptor(conv, 2, pr.p.pads.data(), pr.p.strides.data(),
                                                 pr.p.dilations.data(), miopenConvolution),
               pr, "miopenInitConvolutionNdDescriptor") ||
           !ok(miopenSetConvolutionGroupCount(conv, pr.p.groups), pr, "miopenSetConvolutionGroupCount"))
            return;

        std::vector<float> y(pr.y.elementSpace()), dx(pr.x.elementSpace()), dw(pr.w.elementSpace());
        const float one = 1.0f, zero = 0.0f, beta = kBeta;

        // Find (Private, the find-db) once per problem, in the first round.
        _progress.step.store(1);
        Algos& a = _algos[pr.name];
        if(round == 0)
        {
            std::size_t wsF = 0, wsD = 0, wsW = 0;
            if(!ok(miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, conv, yd, &wsF), pr, "forward workspace") ||
               !ok(miopenConvolutionBackwardDataGetWorkSpaceSize(h, yd, wd, conv, xd, &wsD), pr, "bwd-data workspace") ||
               !ok(miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, conv, wd, &wsW), pr, "bwd-weights workspace"))
                return;
            a.workspace.assign(std::max({wsF, wsD, wsW, std::size_t{1}}), 0);
            miopenConvAlgoPerf_t perf{};
            int returned = 0;
            if(!ok(miopenFindConvolutionForwardAlgorithm(h, xd, pr.xv.data(), wd, pr.wv.data(), conv, yd, y.data(), 1,
                                                         &returned, &perf, a.workspace.data(), wsF, false),
                   pr, "miopenFindConvolutionForwardAlgorithm"))
                return;
            a.fwd = perf.fwd_algo;
            if(!ok(miopenFindConvolutionBackwardDataAlgorithm(h, yd, pr.dyv.data(), wd, pr.wv.data(), conv, xd, dx.data(), 1,
                                                              &returned, &perf, a.workspace.data(), wsD, false),
                   pr, "miopenFindConvolutionBackwardDataAlgorithm"))
                return;
            a.bwdData = perf.bwd_data_algo;
            if(!ok(miopenFindConvolutionBackwardWeightsAlgorithm(h, yd, pr.dyv.data(), xd, pr.xv.data(), conv, wd, dw.data(),
                                                                 1, &returned, &perf, a.workspace.data(), wsW, false),
                   pr, "miopenFindConvolutionBackwardWeightsAlgorithm"))
                return;
            a.bwdWeights = perf.bwd_weights_algo;
            ++_calls[1];
        }
        void* ws             = a.workspace.data();
        const std::size_t wn = a.workspace.size();

        _progress.step.store(2);
        std::fill(y.begin(), y.end(), 0.0f);
        if(ok(miopenConvolutionForward(h, &one, xd, pr.xv.data(), wd, pr.wv.data(), conv, a.fwd, &zero, yd, y.data(), ws, wn),
              pr, "miopenConvolutionForward"))
            check(pr, "forward", pr.y, y, pr.wantY, pr.tolY);
        ++_calls[2];

        _progress.step.store(3);
        if(ok(miopenConvolutionBackwardData(h, &one, yd, pr.dyv.data(), wd, pr.wv.data(), conv, a.bwdData, &zero, xd,
                                            dx.data(), ws, wn),
              pr, "miopenConvolutionBackwardData"))
            check(pr, "backward data", pr.x, dx, pr.wantDx, pr.tolDx);
        ++_calls[3];

        _progress.step.store(4);
        if(ok(miopenConvolutionBackwardWeights(h, &one, yd, pr.dyv.data(), xd, pr.xv.data(), conv, a.bwdWeights, &zero,
                                               wd, dw.data(), ws, wn),
              pr, "miopenConvolutionBackwardWeights"))
            check(pr, "backward weights", pr.w, dw, pr.wantDw, pr.tolDw);
        ++_calls[4];

        _progress.step.store(5);
        y = pr.yPrior;
        if(ok(miopenConvolutionForward(h, &one, xd, pr.xv.data(), wd, pr.wv.data(), conv, a.fwd, &beta, yd, y.data(), ws, wn),
              pr, "miopenConvolutionForward (beta)"))
            check(pr, "forward (beta)", pr.y, y, pr.wantYBeta, pr.tolY);
        ++_calls[5];
    }

    struct Algos
    {
        miopenConvFwdAlgorithm_t fwd                = miopenConvolutionFwdAlgoDirect;
        miopenConvBwdDataAlgorithm_t bwdData        = miopenConvolutionBwdDataAlgoDirect;
        miopenConvBwdWeightsAlgorithm_t bwdWeights  = miopenConvolutionBwdWeightsAlgoDirect;
        std::vector<unsigned char> workspace;
    };

    int _id;
    const std::vector<std::unique_ptr<Problem>>& _problems;
    Progress& _progress;
    std::map<std::string, Algos> _algos;
    std::array<long, 7> _calls{};
    std::vector<std::string> _errors;
};

TEST(ConvConcurrency, ThreadsWithOwnHandlesShareTheCachesAndGetReferenceResults)
{
    const auto problems = makeProblems();
    std::array<Progress, kThreads> progress;
    std::vector<std::unique_ptr<Worker>> workers;
    for(int t = 0; t < kThreads; ++t)
        workers.push_back(std::make_unique<Worker>(t, problems, progress[static_cast<std::size_t>(t)]));

    // All threads start together; the main thread waits a bounded time for all to finish.
    std::mutex m;
    std::condition_variable cv;
    bool go      = false;
    int finished = 0;
    std::vector<std::thread> threads;
    for(int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            {
                std::unique_lock<std::mutex> lock(m);
                cv.wait(lock, [&] { return go; });
            }
            workers[static_cast<std::size_t>(t)]->run();
            std::lock_guard<std::mutex> lock(m);
            ++finished;
            cv.notify_all();
        });
    bool allDone = false;
    {
        std::unique_lock<std::mutex> lock(m);
        go = true;
        cv.notify_all();
        allDone = cv.wait_for(lock, kWait, [&] { return finished == kThreads; });
    }
    if(!allDone)
    {
        // A deadlock: the blocked threads cannot be joined; name where each one is, then exit.
        for(int t = 0; t < kThreads; ++t)
        {
            const auto& pg = progress[static_cast<std::size_t>(t)];
            const int step = pg.step.load();
            if(step != 6)
                std::fprintf(stderr, "ConvConcurrency: thread %d still in %s of problem %d after %lld s (deadlock?)\n", t,
                             stepName(step), pg.problem.load(), static_cast<long long>(kWait.count()));
        }
        std::fflush(nullptr);
        std::_Exit(1);
    }
    for(auto& th : threads)
        th.join();

    long calls[7] = {};
    for(const auto& w : workers)
    {
        for(const auto& e : w->errors())
            ADD_FAILURE() << e;
        for(int s = 1; s <= 5; ++s)
            calls[s] += w->callsInto(s);
    }
    const long perCall = static_cast<long>(kThreads) * kRounds * static_cast<long>(problems.size());
    for(int s = 2; s <= 5; ++s)
        EXPECT_EQ(calls[s], perCall) << stepName(s);
    EXPECT_EQ(calls[1], static_cast<long>(kThreads) * static_cast<long>(problems.size()));

    // The routes, from the wrapper's counters (exact once every call has returned).
    const auto counters = test::route::readCounters();
    auto count = [&](const char* entry) {
        const auto it = counters.find(entry);
        return it == counters.end() ? test::route::EntryCounts{} : it->second;
    };
    const auto fwd = count("miopenConvolutionForward");
    const auto bwdD = count("miopenConvolutionBackwardData");
    const auto bwdW = count("miopenConvolutionBackwardWeights");
    if(test::route::forwardingEnabled())
    {
        EXPECT_TRUE(test::route::backendLoaded());
        EXPECT_EQ(fwd.forwarded, 2 * perCall) << "the beta forwards are forwarded too: " << fwd.last;
        EXPECT_EQ(fwd.declined, 0) << fwd.last;
        EXPECT_EQ(bwdD.forwarded, perCall) << bwdD.last;
        EXPECT_EQ(bwdW.forwarded, perCall) << bwdW.last;
        EXPECT_EQ(fwd.failed + bwdD.failed + bwdW.failed, 0);
        EXPECT_EQ(fwd.invalid + bwdD.invalid + bwdW.invalid, 0);
    }
    else
    {
        EXPECT_FALSE(test::route::backendLoaded());
        EXPECT_EQ(fwd.forwarded + fwd.declined + bwdD.forwarded + bwdW.forwarded, 0);
    }
}

} // namespace
