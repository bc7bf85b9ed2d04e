// Links libhipdnn_backend directly: the split gates' counter-example of Public's posture (no
// DT_NEEDED on, no undefined reference to the backend).
#include <hipdnn_backend.h>

extern "C" __attribute__((visibility("default"))) const char* miopen_hipdnn_direct_probe()
{
    return hipdnnGetErrorString(HIPDNN_STATUS_SUCCESS);
}
