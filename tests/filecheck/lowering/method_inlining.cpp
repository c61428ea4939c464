// RUN: ascendir-opt %s | filecheck %s

// Classes disappear: scalar members become memref cells named after the member, object members become
// declarations, and methods and free helpers (including ones returning a value) are inlined.

#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

class Counter {
public:
    __aicore__ inline void Init(GM_ADDR out, uint32_t total)
    {
        outGm.SetGlobalBuffer((__gm__ uint32_t *)out, 8);
        tiles = CeilDiv(total, 64);
    }
    __aicore__ inline uint32_t Tiles() const { return tiles; }
    __aicore__ inline void Store() { outGm.SetValue(0, Tiles()); }

private:
    GlobalTensor<uint32_t> outGm;
    uint32_t tiles = 0;
};

extern "C" __global__ __aicore__ void inline_custom(GM_ADDR out, uint32_t total)
{
    Counter c;
    c.Init(out, total);
    c.Store();
}

// CHECK-LABEL: ascendc.kernel @inline_custom(%out: !ascendc.gm_ptr<ui8>, %total: i32)
// CHECK-NOT:   call
// CHECK:       %outGm = ascendc.global_tensor "outGm" : !ascendc.global_tensor<ui32>
// CHECK-NEXT:  %tiles = memref.alloca() : memref<i32>
// CHECK-NEXT:  %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  memref.store %[[ZERO]], %tiles[] : memref<i32>
// CHECK:       %[[SUM:.*]] = arith.addi %total, %{{.*}} : i32
// CHECK:       %[[DIFF:.*]] = arith.subi %[[SUM]], %{{.*}} : i32
// CHECK:       %[[Q:.*]] = arith.divui %[[DIFF]], %{{.*}} : i32
// CHECK-NEXT:  memref.store %[[Q]], %tiles[] : memref<i32>
// CHECK-NEXT:  %[[V:.*]] = memref.load %tiles[] : memref<i32>
// CHECK:       ascendc.set_value %outGm[%{{.*}}], %[[V]] : !ascendc.global_tensor<ui32>, i32, i32
// CHECK-NOT:   call
// CHECK:       ascendc.return
