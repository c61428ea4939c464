// RUN: ascendir-opt %s | filecheck %s --check-prefix BEFORE
// RUN: ascendir-opt %s --passes mem2reg | filecheck %s

// A mutable local written only in straight-line code lives in a memref cell after lowering; mem2reg
// forwards its stores to its loads (also to loads inside a loop body) and deletes the cell. A local
// written inside the loop keeps its cell.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cells_custom(GM_ADDR x, uint32_t n)
{
    GlobalTensor<uint32_t> xGm;
    xGm.SetGlobalBuffer((__gm__ uint32_t *)x, 64);
    uint32_t len = n;
    len = len * 2;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 8; i++) {
        acc = acc + len;
    }
    xGm.SetValue(0, acc);
}

// BEFORE:     %len = memref.alloca() : memref<i32>
// BEFORE:     %acc = memref.alloca() : memref<i32>

// CHECK-LABEL: ascendc.kernel @cells_custom(%x: !ascendc.gm_ptr<ui8>, %n: i32)
// CHECK-NOT:   %len = memref.alloca
// CHECK:       %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:  %[[LEN:.*]] = arith.muli %n, %[[TWO]] : i32
// CHECK:       %acc = memref.alloca() : memref<i32>
// CHECK:       scf.for
// CHECK-NEXT:    %[[A:.*]] = memref.load %acc[] : memref<i32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[A]], %[[LEN]] : i32
// CHECK-NEXT:    memref.store %[[SUM]], %acc[] : memref<i32>
