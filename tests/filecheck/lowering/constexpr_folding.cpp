// RUN: ascendir-opt %s | filecheck %s

// constexpr values, sizeof and arithmetic on them fold to one constant: no arith op computes
// TILE * sizeof(half) or the derived tile count at run time.

#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TILE = 256;
constexpr int32_t TOTAL = TILE * 8;
constexpr int32_t TILES = TOTAL / TILE;

extern "C" __global__ __aicore__ void fold_custom(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, TILE * sizeof(half));
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, TOTAL);
    for (int32_t i = 0; i < TILES; ++i) {
        LocalTensor<half> t = q.AllocTensor<half>();
        DataCopy(t, xGm[i * TILE], TILE);
        q.FreeTensor(t);
    }
}

// CHECK-LABEL: ascendc.kernel @fold_custom
// CHECK-NOT:   arith.{{muli|divsi|extui|trunci}}
// CHECK:       %[[LEN:.*]] = arith.constant 512 : i32
// CHECK-NEXT:  ascendc.init_buffer %pipe, %q num %{{.*}} : i32 len %[[LEN]]
// CHECK:       %[[COUNT:.*]] = arith.constant 2048 : i64
// CHECK-NEXT:  ascendc.set_global_buffer %xGm, %{{.*}} count %[[COUNT]]
// CHECK-NOT:   arith.{{muli|divsi|extui|trunci}}
// CHECK:       %[[UB:.*]] = arith.constant 8 : i32
// CHECK:       scf.for %i = %{{.*}} to %[[UB]] step %{{.*}} : i32 {
