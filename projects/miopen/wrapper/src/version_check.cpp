// RFC 4.7, version skew: MIOpen Public and MIOpen Private are co-versioned (same version, same
// SOVERSION; the packages depend on each other exactly). A partial upgrade can still pair this
// libMIOpen.so with a libMIOpen_private.so.1 of another version, whose implementation may not
// match the stubs' expectations. Checked once, when the library is loaded (Private, a DT_NEEDED
// dependency, is initialized first): on a mismatch one Error line names both versions and every
// MIOpen call fails with miopenStatusVersionMismatch instead of reaching Private.
#include "wrapper_runtime.hpp"

#include <miopen/miopen_impl.h>
#include <miopen/version.h>

#include <string>

namespace {

__attribute__((constructor)) void checkPrivateVersion() noexcept
{
    try
    {
        size_t major = 0, minor = 0, patch = 0;
        const bool reported = miopenGetVersion_impl(&major, &minor, &patch) == miopenStatusSuccess;
        if(reported && major == MIOPEN_VERSION_MAJOR && minor == MIOPEN_VERSION_MINOR && patch == MIOPEN_VERSION_PATCH)
            return;
        const std::string self = std::to_string(MIOPEN_VERSION_MAJOR) + "." + std::to_string(MIOPEN_VERSION_MINOR) + "." +
                                 std::to_string(MIOPEN_VERSION_PATCH);
        const std::string other = reported ? std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch)
                                           : std::string("an unknown version");
        miopen::wrapper::refuseAllCalls("libMIOpen.so " + self + " is paired with libMIOpen_private.so.1 " + other +
                                        ": MIOpen Public and Private must be the same version (install matching "
                                        "libmiopen and libmiopen-private packages); every MIOpen call fails with "
                                        "miopenStatusVersionMismatch");
    }
    catch(...) // std::bad_alloc building the message: still refuse
    {
        miopen::wrapper::refuseAllCalls("libMIOpen.so and libMIOpen_private.so.1 are of different versions");
    }
}

} // namespace
