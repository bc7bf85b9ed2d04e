// Calls MIOpen Private directly, as the MIOpen provider plugin does (RFC 4.5): every miopenFoo_impl
// it uses must resolve in libMIOpen_private.so (the link uses --no-undefined semantics of the
// executable: an unresolved reference fails the link).
#include <miopen/miopen_impl.h>

#include <cstdio>

int main()
{
    miopenHandle_t h = nullptr;
    if(miopenCreate_impl(&h) != miopenStatusSuccess)
        return 1;
    size_t ma = 0, mi = 0, pa = 0;
    if(miopenGetVersion_impl(&ma, &mi, &pa) != miopenStatusSuccess)
        return 1;
    miopenTensorDescriptor_t t = nullptr;
    if(miopenCreateTensorDescriptor_impl(&t) != miopenStatusSuccess ||
       miopenSet4dTensorDescriptor_impl(t, miopenFloat, 1, 2, 3, 4) != miopenStatusSuccess)
        return 1;
    size_t bytes = 0;
    miopenGetTensorNumBytes_impl(t, &bytes);
    miopenDestroyTensorDescriptor_impl(t);
    std::printf("private consumer: MIOpen_private %zu.%zu.%zu, tensor bytes %zu\n", ma, mi, pa, bytes);
    return miopenDestroy_impl(h) == miopenStatusSuccess && bytes == 96 ? 0 : 1;
}
