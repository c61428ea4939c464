// RUN: ascendir-opt %s | filecheck %s

// A counted `for` (unit step, loop-invariant bound) becomes scf.for with the induction variable as a
// block argument; a `while` becomes scf.while reading its cell in the condition region.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void loops_custom(GM_ADDR x, uint32_t n)
{
    GlobalTensor<int32_t> xGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 64);
    for (int32_t i = 0; i < 16; i++) {
        xGm.SetValue(i, i);
    }
    uint32_t left = n;
    while (left > 1) {
        left = left / 2;
    }
    xGm.SetValue(0, left);
}

// CHECK-LABEL: ascendc.kernel @loops_custom(%x: !ascendc.gm_ptr<ui8>, %n: i32)
// CHECK:       %[[LB:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[UB:.*]] = arith.constant 16 : i32
// CHECK-NEXT:  %[[STEP:.*]] = arith.constant 1 : i32
// CHECK-NEXT:  scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] : i32 {
// CHECK-NEXT:    ascendc.set_value %xGm[%[[I]]], %[[I]] : !ascendc.global_tensor<si32>, i32, i32
// CHECK-NEXT:  }
// CHECK:       %[[LEFT:.*]] = memref.alloca() : memref<i32>
// CHECK:       scf.while () : () -> () {
// CHECK-NEXT:    %[[L:.*]] = memref.load %[[LEFT]][] : memref<i32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi ugt, %[[L]], %[[ONE]] : i32
// CHECK-NEXT:    scf.condition(%[[C]])
// CHECK-NEXT:  } do {
// CHECK:         arith.divui
// CHECK:         memref.store %{{.*}}, %[[LEFT]][] : memref<i32>
// CHECK:         scf.yield
// CHECK-NEXT:  }
