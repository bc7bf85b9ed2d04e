// Embedded version metadata: one string in section .miopen_version of each library, so the
// co-versioning gate can check that libMIOpen.so and libMIOpen_private.so come from one build.
#include <miopen/version.h>

#define MIOPEN_STR2(x) #x
#define MIOPEN_STR(x) MIOPEN_STR2(x)

namespace {
__attribute__((used, section(".miopen_version"))) const char kVersionTag[] =
    MIOPEN_VERSION_TAG_LIBRARY " " MIOPEN_STR(MIOPEN_VERSION_MAJOR) "." MIOPEN_STR(MIOPEN_VERSION_MINOR) "." MIOPEN_STR(
        MIOPEN_VERSION_PATCH) " soversion 1";
} // namespace
