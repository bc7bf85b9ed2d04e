// The public header must compile as C++17, on its own and with the beta API.
#include <miopen/miopen.h>
#include <miopen/version.h>

static_assert(miopenStatusVersionMismatch == 10, "status values are upstream's");
static_assert(miopenConvolutionFindModeDefault == miopenConvolutionFindModeDynamicHybrid, "default find mode");

int miopenHeaderCxx17Probe();
int miopenHeaderCxx17Probe() { return MIOPEN_VERSION_MAJOR; }
