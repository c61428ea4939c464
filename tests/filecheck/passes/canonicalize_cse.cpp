// RUN: ascendir-opt %s | filecheck %s --check-prefix BEFORE
// RUN: ascendir-opt %s --passes canonicalize,cse | filecheck %s

// The lowering materialises a folded constant once per block (ascendir/lower/const_cache.py: it
// was once per use, 5 here, before); after canonicalize and cse still one `arith.constant 256 : i32`
// feeds the sub-tensor offset and every DataCopy and Add.

#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 256;

extern "C" __global__ __aicore__ void dedup_custom(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, TILE * sizeof(float) * 2);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE);
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[TILE];
    DataCopy(a, xGm, TILE);
    DataCopy(b, xGm, TILE);
    Add(a, a, b, TILE);
    DataCopy(xGm, a, TILE);
}

// BEFORE-COUNT-1: arith.constant 256 : i32

// CHECK-LABEL: ascendc.kernel @dedup_custom
// CHECK:       %[[TILE:.*]] = arith.constant 256 : i32
// CHECK-NOT:   arith.constant 256 : i32
// CHECK:       ascendc.subtensor %{{.*}}[%[[TILE]]]
// CHECK-NEXT:  ascendc.data_copy "DataCopy"(%{{.*}}, %xGm, %[[TILE]])
// CHECK-NEXT:  ascendc.data_copy "DataCopy"(%{{.*}}, %xGm, %[[TILE]])
// CHECK-NEXT:  ascendc.vec_binary "Add"(%{{.*}}, %{{.*}}, %{{.*}}, %[[TILE]])
// CHECK-NEXT:  ascendc.data_copy "DataCopy"(%xGm, %{{.*}}, %[[TILE]])
