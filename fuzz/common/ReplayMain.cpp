// The replay driver of a fuzz target built without libFuzzer: every file named on the command line
// (a directory: each regular file in it, in name order) is passed to LLVMFuzzerTestOneInput once.
// ctest runs it over the target's seed corpus and its regression inputs (fuzz/regressions), so
// the Release suite exercises the same entry function as the fuzzer; a crash, a sanitizer report
// or a target's own invariant check fails the test. Exit status 1 when no input was found, so
// a mistyped path cannot pass.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

int main(int argc, char** argv)
{
    if(LLVMFuzzerInitialize != nullptr)
        LLVMFuzzerInitialize(&argc, &argv);
    std::vector<std::filesystem::path> files;
    for(int i = 1; i < argc; ++i)
    {
        const std::filesystem::path p(argv[i]);
        std::error_code ec;
        if(std::filesystem::is_directory(p, ec))
        {
            std::vector<std::filesystem::path> inDir;
            for(const auto& e : std::filesystem::directory_iterator(p, ec))
                if(e.is_regular_file())
                    inDir.push_back(e.path());
            std::sort(inDir.begin(), inDir.end());
            files.insert(files.end(), inDir.begin(), inDir.end());
        }
        else if(std::filesystem::is_regular_file(p, ec))
            files.push_back(p);
        else
            std::fprintf(stderr, "replay: %s: not a file or directory\n", argv[i]);
    }
    for(const auto& f : files)
    {
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::printf("replay: %s (%zu bytes)\n", f.c_str(), bytes.size());
        std::fflush(stdout);
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replay: %zu inputs\n", files.size());
    return files.empty() ? 1 : 0;
}
