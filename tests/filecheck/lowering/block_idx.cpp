// RUN: ascendir-opt %s | filecheck %s

// Multi-core split: GetBlockIdx() (an i64 system query) offsets each core's GM pointer before
// SetGlobalBuffer; GetBlockNum() divides the work.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void split_custom(GM_ADDR x, uint32_t total)
{
    uint32_t perCore = total / GetBlockNum();
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + perCore * GetBlockIdx(), perCore);
    xGm.SetValue(0, 0.0f);
}

// CHECK-LABEL: ascendc.kernel @split_custom(%x: !ascendc.gm_ptr<ui8>, %total: i32)
// CHECK:       %[[NUM:.*]] = ascendc.system "GetBlockNum"() {overload = "plain"} : () -> i64
// CHECK:       %{{.*}} = arith.divsi %{{.*}}, %[[NUM]] : i64
// CHECK-NEXT:  %perCore = arith.trunci %{{.*}} : i64 to i32
// CHECK:       %[[PTR:.*]] = ascendc.gm_ptr_cast %x : !ascendc.gm_ptr<ui8> -> !ascendc.gm_ptr<f32>
// CHECK:       %[[IDX:.*]] = ascendc.system "GetBlockIdx"() {overload = "plain"} : () -> i64
// CHECK-NEXT:  %[[PER:.*]] = arith.extui %perCore : i32 to i64
// CHECK-NEXT:  %[[OFF:.*]] = arith.muli %[[PER]], %[[IDX]] : i64
// CHECK-NEXT:  %[[BASE:.*]] = ascendc.gm_ptr_offset %[[PTR]], %[[OFF]] : !ascendc.gm_ptr<f32>, i64 -> !ascendc.gm_ptr<f32>
// CHECK:       ascendc.set_global_buffer %xGm, %[[BASE]] count %{{.*}} : i64
