// A stand-in for a MIOpen Private of another version with the same SOVERSION (a partial upgrade,
// RFC 4.7): preloaded (LD_PRELOAD), its miopenGetVersion_impl interposes on the real one, so
// whoever asks Private for its version (MIOpen Public at load, the MIOpen provider) sees 9.9.9
// while every other symbol still binds to the real library.
#include <cstddef>

extern "C" __attribute__((visibility("default"))) int miopenGetVersion_impl(size_t* major, size_t* minor, size_t* patch)
{
    if(major == nullptr || minor == nullptr || patch == nullptr)
        return 3; // miopenStatusBadParm
    *major = 9;
    *minor = 9;
    *patch = 9;
    return 0; // miopenStatusSuccess
}
