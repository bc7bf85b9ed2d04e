// A deliberately broken input for gate 1: it calls a public MIOpen entry point (as a provider
// linked to libMIOpen.so would). Compiled, never linked into anything; the gate must reject it.
#include <miopen/miopen.h>

miopenStatus_t miopenProviderGateBrokenInput(miopenHandle_t* handle)
{
    return miopenCreate(handle);
}
