// RUN: ascendir-opt %s | filecheck %s

// A `switch` on a runtime value becomes a chain of scf.if on equality with each case label; the
// `default` label is the last else.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void switch_custom(GM_ADDR x, int32_t mode)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 8);
    switch (mode) {
        case 1:
            xGm.SetValue(0, 1.0f);
            break;
        case 2:
            xGm.SetValue(0, 2.0f);
            break;
        default:
            xGm.SetValue(0, 0.0f);
            break;
    }
}

// CHECK-LABEL: ascendc.kernel @switch_custom(%x: !ascendc.gm_ptr<ui8>, %mode: i32)
// CHECK:       arith.constant 1 : i32
// CHECK:       arith.cmpi eq, %mode, %{{.*}} : i32
// CHECK:       scf.if
// CHECK:         arith.constant 1.000000e+00 : f32
// CHECK:       } else {
// CHECK:         arith.cmpi eq, %mode, %{{.*}} : i32
// CHECK:         scf.if
// CHECK:           arith.constant 2.000000e+00 : f32
// CHECK:         } else {
// CHECK:           arith.constant 0.000000e+00 : f32
