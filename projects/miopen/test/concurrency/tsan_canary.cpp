// The ThreadSanitizer canary (issue 10, "Concurrency"): a deliberately racy program of ours. Two
// threads increment one plain int with no synchronisation. Built only in a PROJECT_SANITIZE=thread
// tree and run by ctest with the same TSAN_OPTIONS as every other test of that tree (the reviewed
// suppressions file, cmake/sanitizers/tsan.supp); the test passes only when TSan reports the race
// in tsanCanaryIncrement, proving the suppressions hide none of our own races.
//
// It first checks that it runs as intended: compiled with TSan, and TSAN_OPTIONS naming a
// suppressions file that exists (otherwise the report would prove nothing about that file).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <sys/stat.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN_CANARY_INSTRUMENTED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TSAN_CANARY_INSTRUMENTED 1
#endif

namespace {

int gCounter = 0; // shared, unsynchronised: the race

// Not inlined, so that the report names it (the test's regular expression expects this name).
__attribute__((noinline)) void tsanCanaryIncrement(int times)
{
    for(int i = 0; i < times; ++i)
        gCounter = gCounter + 1;
}

// The path after "suppressions=" in TSAN_OPTIONS ("" when none).
std::string suppressionsFile()
{
    const char* opts = std::getenv("TSAN_OPTIONS");
    if(opts == nullptr)
        return {};
    const std::string s(opts);
    const auto at = s.find("suppressions=");
    if(at == std::string::npos)
        return {};
    const auto begin = at + std::strlen("suppressions=");
    const auto end   = s.find_first_of(" :,", begin);
    std::string path = s.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if(path.size() >= 2 && (path.front() == '"' || path.front() == '\''))
        path = path.substr(1, path.size() - 2);
    return path;
}

} // namespace

int main()
{
#if !defined(TSAN_CANARY_INSTRUMENTED)
    std::fputs("tsan_canary: not built with -fsanitize=thread\n", stderr);
    return 1;
#else
    const std::string supp = suppressionsFile();
    struct stat st{};
    if(supp.empty() || ::stat(supp.c_str(), &st) != 0)
    {
        std::fprintf(stderr, "tsan_canary: TSAN_OPTIONS names no existing suppressions file ('%s')\n", supp.c_str());
        return 1;
    }
    std::printf("tsan_canary: racing under suppressions %s\n", supp.c_str());
    std::fflush(stdout);
    std::thread a(tsanCanaryIncrement, 1000);
    std::thread b(tsanCanaryIncrement, 1000);
    a.join();
    b.join();
    std::printf("tsan_canary: counter %d\n", gCounter);
    return 0;
#endif
}
