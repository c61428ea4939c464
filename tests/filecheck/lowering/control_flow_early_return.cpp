// RUN: ascendir-opt %s | filecheck %s

// An early `return` guard: the statements after `if (...) return;` move into the else region of the
// guard's scf.if, so no return flag or cell is needed.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void guard_custom(GM_ADDR x, uint32_t blocks)
{
    if (GetBlockIdx() >= blocks) {
        return;
    }
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 8);
    xGm.SetValue(0, 1.0f);
}

// CHECK-LABEL: ascendc.kernel @guard_custom
// CHECK:       %[[IDX:.*]] = ascendc.system "GetBlockIdx"() {overload = "plain"} : () -> i64
// CHECK:       %[[COND:.*]] = arith.cmpi {{.*}}, %[[IDX]], %{{.*}} : i64
// CHECK-NEXT:  scf.if %[[COND]] {
// CHECK-NEXT:  } else {
// CHECK-NEXT:    %xGm = ascendc.global_tensor "xGm" : !ascendc.global_tensor<f32>
// CHECK:         ascendc.set_value %xGm[%{{.*}}], %{{.*}} : !ascendc.global_tensor<f32>
// CHECK-NEXT:  }
// CHECK-NEXT:  ascendc.return
