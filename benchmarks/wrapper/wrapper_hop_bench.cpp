// wrapper_hop_bench: the cost of the wrapper hop on a no-work entry point (issue 5,
// "Measurements"): miopenGetVersion through libMIOpen.so (generated stub: test the route word,
// tail-jump to miopenGetVersion_impl) against miopenGetVersion_impl called directly in
// libMIOpen_private.so, in the same process.
//
//   wrapper_hop_bench [--calls=N] [--repeats=R]
//       time per call: R repeats of N calls per path, alternating the paths; median ns/call each,
//       the difference and the ratio.
//   wrapper_hop_bench --callgrind-driver=public|impl [--calls=N]
//       runs N calls of one path inside hop_loop_public / hop_loop_impl (one warm-up call first,
//       so lazy binding and the wrapper's one-time environment parse are outside). Meant for
//       valgrind --tool=callgrind --collect-atstart=no --toggle-collect=hop_loop_<path>: the
//       difference of the two runs' instruction counts / N is the hop in instructions per call
//       (hop_callgrind.sh does this).
#include "wrapper_common.hpp"

#include <miopen/miopen_impl.h>

using namespace wrapper_bench;

// Not inlined, C names: callgrind toggles collection on these two functions by name. Each loop
// has the same shape; only the callee differs.
extern "C" __attribute__((noinline)) std::size_t hop_loop_public(long calls)
{
    std::size_t sum = 0;
    for(long i = 0; i < calls; ++i)
    {
        std::size_t a = 0, b = 0, c = 0;
        miopenGetVersion(&a, &b, &c);
        sum += a;
    }
    return sum;
}

extern "C" __attribute__((noinline)) std::size_t hop_loop_impl(long calls)
{
    std::size_t sum = 0;
    for(long i = 0; i < calls; ++i)
    {
        std::size_t a = 0, b = 0, c = 0;
        miopenGetVersion_impl(&a, &b, &c);
        sum += a;
    }
    return sum;
}

int main(int argc, char** argv)
{
    long calls   = 20000000;
    int repeats  = 15;
    std::string driver;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if(startsWith(a, "--calls="))
            calls = std::atol(a.c_str() + 8);
        else if(startsWith(a, "--repeats="))
            repeats = std::atoi(a.c_str() + 10);
        else if(startsWith(a, "--callgrind-driver="))
            driver = a.substr(19);
        else
        {
            std::fprintf(stderr, "usage: wrapper_hop_bench [--calls=N] [--repeats=R] [--callgrind-driver=public|impl]\n");
            return 2;
        }
    }
    if(calls < 1 || repeats < 1)
        return 2;

    // Warm-up: binds both PLT slots and runs the wrapper's one-time route setup.
    std::size_t a = 0, b = 0, c = 0;
    WB_CHECK(miopenGetVersion(&a, &b, &c));
    WB_CHECK(miopenGetVersion_impl(&a, &b, &c));

    if(!driver.empty())
    {
        if(driver != "public" && driver != "impl")
            return 2;
        const std::size_t sum = driver == "public" ? hop_loop_public(calls) : hop_loop_impl(calls);
        std::printf("%s: %ld calls, checksum %zu\n", driver.c_str(), calls, sum);
        return sum == static_cast<std::size_t>(calls) * a ? 0 : 1;
    }

    reportLibrary("");
    std::vector<double> pub, impl;
    std::size_t check = 0;
    for(int r = 0; r < repeats; ++r)
    {
        // Alternate which path goes first, so drift affects both alike.
        for(int k = 0; k < 2; ++k)
        {
            const bool publicPath = (k == 0) == (r % 2 == 0);
            const double t0 = nowSeconds();
            check += publicPath ? hop_loop_public(calls) : hop_loop_impl(calls);
            const double ns = (nowSeconds() - t0) * 1e9 / static_cast<double>(calls);
            (publicPath ? pub : impl).push_back(ns);
        }
    }
    if(check != static_cast<std::size_t>(calls) * a * 2 * static_cast<std::size_t>(repeats))
    {
        std::fprintf(stderr, "error: wrong checksum\n");
        return 1;
    }
    const double mp = median(pub), mi = median(impl);
    std::printf("| path | ns/call (median of %d x %ld calls) | min | max |\n|---|---:|---:|---:|\n", repeats, calls);
    std::printf("| miopenGetVersion (libMIOpen.so stub -> _impl) | %.3f | %.3f | %.3f |\n", mp,
                *std::min_element(pub.begin(), pub.end()), *std::max_element(pub.begin(), pub.end()));
    std::printf("| miopenGetVersion_impl (libMIOpen_private.so, direct) | %.3f | %.3f | %.3f |\n", mi,
                *std::min_element(impl.begin(), impl.end()), *std::max_element(impl.begin(), impl.end()));
    std::printf("\nhop: %+.3f ns/call (public - direct), ratio public/direct %.3f; target <= 0.5 ns: %s\n", mp - mi,
                mi > 0 ? mp / mi : 0.0, mp - mi <= 0.5 ? "met" : "MISSED");
    return 0;
}
