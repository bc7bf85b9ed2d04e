/* The same runtime from C11 through find_package(hip): driver-style copies and a D32 fill. */
#include <hip/hip_runtime.h>

int main(void)
{
    int host[64];
    int back[64];
    hipDeviceptr_t d = NULL;
    int ok = 1;
    if(hipMalloc(&d, sizeof host) != hipSuccess || hipMemsetD32(d, 7, 64) != hipSuccess ||
       hipMemcpyDtoH(back, d, sizeof back) != hipSuccess)
        return EXIT_FAILURE;
    for(int i = 0; i < 64; ++i)
    {
        ok = ok && back[i] == 7;
        host[i] = i;
    }
    if(hipMemcpyHtoD(d, host, sizeof host) != hipSuccess || hipMemcpyDtoH(back, d, sizeof back) != hipSuccess)
        return EXIT_FAILURE;
    for(int i = 0; i < 64; ++i)
        ok = ok && back[i] == i;
    if(hipFree(d) != hipSuccess)
        return EXIT_FAILURE;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
