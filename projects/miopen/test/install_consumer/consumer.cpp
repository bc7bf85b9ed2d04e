// Built against an installed MIOpen: includes only the installed headers and links the package.
#include <miopen/miopen.h>
#include <miopen/version.h>

#include <cstdio>

int main()
{
    miopenHandle_t h = nullptr;
    if(miopenCreate(&h) != miopenStatusSuccess)
        return 1;
    size_t ma = 0, mi = 0, pa = 0;
    miopenGetVersion(&ma, &mi, &pa);
    std::printf("consumer: MIOpen %zu.%zu.%zu (header %d.%d.%d)\n", ma, mi, pa, MIOPEN_VERSION_MAJOR,
                MIOPEN_VERSION_MINOR, MIOPEN_VERSION_PATCH);
    return miopenDestroy(h) == miopenStatusSuccess && ma == MIOPEN_VERSION_MAJOR ? 0 : 1;
}
