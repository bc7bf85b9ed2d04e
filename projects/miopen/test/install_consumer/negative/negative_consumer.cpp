// Must not compile against target MIOpen: the private header is not reachable.
#include <miopen/miopen_impl.h>

int main()
{
    miopenHandle_t h = nullptr;
    return miopenCreate_impl(&h);
}
