// The kernel copies its tiling data into a struct of its own and writes one field under a name the struct
// does not declare (a rename done in one place only): "no member named 'stepp'" where the kernel compiles.
#include "kernel_operator.h"

struct LinSpaceTiling {
    uint32_t total;
    float start;
    float step;
};

extern "C" __global__ __aicore__ void lin_space(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    LinSpaceTiling td;
    td.total = 256;
    td.start = 0.0f;
    td.stepp = 0.5f;  // expected-error {{tiling field 'stepp' is not declared in 'LinSpaceTiling'}} [ASC803]
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, td.total);
    for (uint32_t i = 0; i < td.total; i++) {
        yGm.SetValue(i, td.start + td.step * i);
    }
}
