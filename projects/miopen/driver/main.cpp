// MIOpenDriver: runs one MIOpen operation from the command line, times it and verifies it, as
// upstream's driver does, built on the public C API only (<miopen/miopen.h>, libMIOpen.so) with
// plain host buffers (this MIOpen runs on the CPU: device memory is host memory).
//
//   MIOpenDriver <base> [flags]        base: conv convfp16 convbfp16 bnorm bnormfp16 bnormbfp16
//                                            bnormfp16fp32 bnormbfp16fp32 pool poolfp16 poolbfp16
//                                            activ activfp16 activbfp16 softmax softmaxfp16
//                                            softmaxbfp16 CBAInfer CBAInferfp16 CBAInferbfp16
//                                            tensorop tensoropfp16 tensoropbfp16
//   MIOpenDriver <base> --help         the sub-command's flags (upstream's names and defaults)
//   MIOpenDriver --version
//
// Flow (upstream's): echo the command; set up descriptors and random data; run forward when
// -F is 0 or has bit 1 (conv: bit 1 fwd, 2 backward data, 4 backward weights; 0 all), then
// backward, each direction -i times; with -t 1 print the kernel time (miopenEnableProfiling +
// miopenGetKernelTime, averaged over calls 2..N), the wall-clock time and the `stats:` lines;
// with -V 1 (the default) compare every output with the hipDNN test SDK's CPU reference
// (convolution, batch normalization, pointwise for activations) or the plain-loop references in
// PoolSoftmaxReference.hpp (CBAInfer: the SDK's convolution then plain loops for bias, batchnorm
// and activation; tensorop: a plain loop), printing "... Verifies OK on CPU reference (err <
// tol)" or "... FAILED: err > tol". CBAInfer and tensorop run forward only. The exit status
// is non-zero when a call fails, a flag is unknown or a verification fails (upstream ORs
// per-stage codes the same way).
//
// conv -S: < 0 (default) Find + miopenConvolution{Forward,BackwardData,BackwardWeights};
// 0 immediate mode with the first (fastest) solution; > 0 immediate mode with that solution id.
// -s 1 asks Find for an exhaustive search. MIOPEN_ENABLE_LOGGING_CMD=1 prints, for each call, a
// command line this driver accepts (docs/environment.md).
//
// Test hook: MIOPEN_DRIVER_TEST_CORRUPT_OUTPUT=1 perturbs one element of the first verified
// output, so the verification must fail (the negative ctest).
#include "Driver.hpp"

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

namespace
{

using Runner = int (*)(const std::string&, int, char**);

Runner findRunner(const std::string& base)
{
    using namespace miopen_driver;
    struct Entry
    {
        const char* base;
        Runner run;
    };
    static const Entry kEntries[] = {
        {"conv", runConvolution},       {"convfp16", runConvolution},      {"convbfp16", runConvolution},
        {"bnorm", runBatchNorm},        {"bnormfp16", runBatchNorm},       {"bnormbfp16", runBatchNorm},
        {"bnormfp16fp32", runBatchNorm}, {"bnormbfp16fp32", runBatchNorm}, {"pool", runPooling},
        {"poolfp16", runPooling},       {"poolbfp16", runPooling},         {"activ", runActivation},
        {"activfp16", runActivation},   {"activbfp16", runActivation},     {"softmax", runSoftmax},
        {"softmaxfp16", runSoftmax},    {"softmaxbfp16", runSoftmax},      {"CBAInfer", runCBAInfer},
        {"CBAInferfp16", runCBAInfer},  {"CBAInferbfp16", runCBAInfer},    {"tensorop", runTensorOp},
        {"tensoropfp16", runTensorOp},  {"tensoropbfp16", runTensorOp},
    };
    for(const auto& e : kEntries)
        if(base == e.base)
            return e.run;
    return nullptr;
}

void printBaseUsage()
{
    std::printf("Usage: MIOpenDriver <base> [flags]  (MIOpenDriver <base> --help lists the flags)\n"
                "Base arguments: conv, convfp16, convbfp16, bnorm, bnormfp16, bnormbfp16, bnormfp16fp32,\n"
                "                bnormbfp16fp32, pool, poolfp16, poolbfp16, activ, activfp16, activbfp16,\n"
                "                softmax, softmaxfp16, softmaxbfp16, CBAInfer, CBAInferfp16, CBAInferbfp16,\n"
                "                tensorop, tensoropfp16, tensoropbfp16\n");
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 2)
    {
        printBaseUsage();
        return 1;
    }
    const std::string base = argv[1];
    if(base == "--version")
    {
        size_t major = 0, minor = 0, patch = 0;
        miopenGetVersion(&major, &minor, &patch);
        std::cout << "MIOpen (version: " << major << "." << minor << "." << patch << ")" << std::endl;
        return 0;
    }
    if(base == "-h" || base == "--help")
    {
        printBaseUsage();
        return 0;
    }
    miopen_driver::echoCommand(argc, argv);
    const Runner run = findRunner(base);
    if(run == nullptr)
    {
        std::printf("Incorrect BaseArg\n");
        printBaseUsage();
        return 1;
    }
    try
    {
        return run(base, argc, argv);
    }
    catch(const std::exception& e)
    {
        std::cout << "MIOpenDriver " << base << ": " << e.what() << std::endl;
        return 1;
    }
}
