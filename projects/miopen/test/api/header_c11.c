/* The public header must compile as C11 (with and without the beta API). */
#include <miopen/miopen.h>
#define MIOPEN_BETA_API 1
#include <miopen/miopen.h>
#include <miopen/version.h>

#if MIOPEN_VERSION_MAJOR < 3 || (MIOPEN_VERSION_MAJOR == 3 && MIOPEN_VERSION_MINOR < 5)
#error "MIOpen must report version 3.5.0 or later"
#endif

_Static_assert(sizeof(miopenConvAlgoPerf_t) == 16, "miopenConvAlgoPerf_t is 16 bytes");
_Static_assert(sizeof(miopenConvSolution_t) == 32, "miopenConvSolution_t is 32 bytes");

int miopen_header_c11_probe(void);
int miopen_header_c11_probe(void)
{
    miopenConvAlgoPerf_t perf;
    perf.fwd_algo = miopenConvolutionFwdAlgoGEMM;
    perf.time     = 0.0f;
    perf.memory   = 0;
    return (int)perf.fwd_algo + (int)miopenStatusVersionMismatch;
}
