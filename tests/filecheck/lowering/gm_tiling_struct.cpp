// RUN: ascendir-opt %s | filecheck %s

// Tiling hand-parsed from GM: the kernel casts its tiling pointer to a `__gm__` struct and reads the
// fields through it. The cast becomes get_tiling_data, each field read a tiling_field.

#include "kernel_operator.h"
using namespace AscendC;

struct CopyTiling {
    uint32_t totalLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void copy_tiling(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    const __gm__ CopyTiling *t = reinterpret_cast<const __gm__ CopyTiling *>(tiling);
    uint32_t total = t->totalLength;
    uint32_t tile = t->tileLength;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tile * sizeof(float));
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, total);
    yGm.SetGlobalBuffer((__gm__ float *)y, total);
    LocalTensor<float> local = buf.Get<float>();
    for (uint32_t off = 0; off < total; off += tile) {
        DataCopy(local, xGm[off], tile);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm[off], local, tile);
        PipeBarrier<PIPE_ALL>();
    }
}

// CHECK-LABEL: ascendc.kernel @copy_tiling(%x: !ascendc.gm_ptr<ui8>, %y: !ascendc.gm_ptr<ui8>, %tiling: !ascendc.gm_ptr<ui8>)
// CHECK-NEXT:  %[[T:.*]] = ascendc.get_tiling_data %tiling : !ascendc.gm_ptr<ui8> -> !ascendc.tiling<"CopyTiling">
// CHECK-NEXT:  %[[TOTAL:.*]] = ascendc.tiling_field %[[T]] "totalLength" : !ascendc.tiling<"CopyTiling"> -> i32
// CHECK-NEXT:  %[[TILE:.*]] = ascendc.tiling_field %[[T]] "tileLength" : !ascendc.tiling<"CopyTiling"> -> i32
// CHECK-NOT:   ascendc.gm_load
// CHECK:       ascendc.data_copy "DataCopy"(%{{.*}}, %{{.*}}, %[[TILE]]) {overload = "count_gm_to_local"}
