// RUN: ascendir-opt %s | filecheck %s

// `break` and `continue` turn a counted loop into scf.while with flag cells: the condition also tests
// the break flag, `continue` skips the rest of the body through an scf.if, and the increment runs only
// when the loop did not break.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void skip_custom(GM_ADDR x, uint32_t n)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    for (uint32_t i = 0; i < n; i++) {
        if (i == 3) {
            continue;
        }
        if (i == 5) {
            break;
        }
        xGm.SetValue(i, 1.0f);
    }
}

// CHECK-LABEL: ascendc.kernel @skip_custom
// CHECK:       %[[I:.*]] = memref.alloca() : memref<i32>
// CHECK:       %[[BREAK:.*]] = memref.alloca() : memref<i1>
// CHECK:       scf.while () : () -> () {
// CHECK:         %[[LT:.*]] = arith.cmpi ult, %{{.*}}, %n : i32
// CHECK-NEXT:    %[[B:.*]] = memref.load %[[BREAK]][] : memref<i1>
// CHECK:         %[[NOTB:.*]] = arith.xori %[[B]], %{{.*}} : i1
// CHECK-NEXT:    %[[GO:.*]] = arith.andi %[[LT]], %[[NOTB]] : i1
// CHECK-NEXT:    scf.condition(%[[GO]])
// CHECK-NEXT:  } do {
// CHECK:         %[[CONT:.*]] = memref.alloca() : memref<i1>
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      %[[T1:.*]] = arith.constant true
// CHECK-NEXT:      memref.store %[[T1]], %[[CONT]][] : memref<i1>
// CHECK-NEXT:    } else {
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        %[[T2:.*]] = arith.constant true
// CHECK-NEXT:        memref.store %[[T2]], %[[BREAK]][] : memref<i1>
// CHECK-NEXT:      } else {
// CHECK:             ascendc.set_value %xGm
// CHECK:         memref.load %[[BREAK]][] : memref<i1>
// CHECK:         scf.if
// CHECK:           arith.addi
// CHECK-NEXT:      memref.store %{{.*}}, %[[I]][] : memref<i32>
