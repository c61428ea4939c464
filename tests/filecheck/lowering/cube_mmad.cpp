// RUN: ascendir-opt %s | filecheck %s

// One 16x16x16 cube step by hand: DataCopy GM -> L1 (A1/B1 queues), LoadData L1 -> L0A/L0B,
// Mmad into L0C (CO1), Fixpipe L0C -> GM. Each step is an ascendc.cube call on tensors whose types
// carry the TPosition of their queue.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mmad_tile(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qCO1;
    pipe.InitBuffer(qA1, 1, 512);
    pipe.InitBuffer(qB1, 1, 512);
    pipe.InitBuffer(qA2, 1, 512);
    pipe.InitBuffer(qB2, 1, 512);
    pipe.InitBuffer(qCO1, 1, 1024);
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, 256);
    bGm.SetGlobalBuffer((__gm__ half *)b, 256);
    cGm.SetGlobalBuffer((__gm__ float *)c, 256);

    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(a1, aGm, 256);
    DataCopy(b1, bGm, 256);
    qA1.EnQue(a1);
    qB1.EnQue(b1);
    LocalTensor<half> a1In = qA1.DeQue<half>();
    LocalTensor<half> b1In = qB1.DeQue<half>();

    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    LoadData2DParams load;
    load.repeatTimes = 1;
    LoadData(a2, a1In, load);
    load.ifTranspose = true;
    LoadData(b2, b1In, load);
    qA1.FreeTensor(a1In);
    qB1.FreeTensor(b1In);
    qA2.EnQue(a2);
    qB2.EnQue(b2);
    LocalTensor<half> a2In = qA2.DeQue<half>();
    LocalTensor<half> b2In = qB2.DeQue<half>();

    LocalTensor<float> c1 = qCO1.AllocTensor<float>();
    MmadParams mm;
    mm.m = 16;
    mm.n = 16;
    mm.k = 16;
    Mmad(c1, a2In, b2In, mm);
    qA2.FreeTensor(a2In);
    qB2.FreeTensor(b2In);
    qCO1.EnQue(c1);
    LocalTensor<float> c1Out = qCO1.DeQue<float>();

    FixpipeParamsV220 fix;
    fix.nSize = 16;
    fix.mSize = 16;
    fix.srcStride = 16;
    fix.dstStride = 16;
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, c1Out, fix);
    qCO1.FreeTensor(c1Out);
}

// CHECK-LABEL: ascendc.kernel @mmad_tile
// CHECK-DAG:   ascendc.tque "qA1" : !ascendc.tque<A1, 1>
// CHECK-DAG:   ascendc.tque "qA2" : !ascendc.tque<A2, 1>
// CHECK-DAG:   ascendc.tque "qCO1" : !ascendc.tque<CO1, 1>
// CHECK:       ascendc.data_copy "DataCopy"({{.*}}) {overload = "count_gm_to_local"} : (!ascendc.local_tensor<f16, A1>, !ascendc.global_tensor<f16>, i32) -> ()
// CHECK:       %[[A1:.*]] = ascendc.deque %qA1 : !ascendc.tque<A1, 1> -> !ascendc.local_tensor<f16, A1>
// CHECK:       %[[A2:.*]] = ascendc.alloc_tensor %qA2 : !ascendc.tque<A2, 1> -> !ascendc.local_tensor<f16, A2>
// CHECK:       ascendc.struct_set %{{.*}} "repeatTimes", %{{.*}} : !ascendc.struct<"LoadData2DParams">
// CHECK:       ascendc.cube "LoadData"(%[[A2]], %[[A1]], %{{.*}}) {overload = "2d"} : (!ascendc.local_tensor<f16, A2>, !ascendc.local_tensor<f16, A1>, !ascendc.struct<"LoadData2DParams">) -> ()
// CHECK:       ascendc.struct_set %{{.*}} "ifTranspose"
// CHECK:       ascendc.cube "LoadData"({{.*}}) {overload = "2d"} : (!ascendc.local_tensor<f16, B2>, !ascendc.local_tensor<f16, B1>, !ascendc.struct<"LoadData2DParams">) -> ()
// CHECK:       ascendc.cube "Mmad"({{.*}}) {overload = "plain"} : (!ascendc.local_tensor<f32, CO1>, !ascendc.local_tensor<f16, A2>, !ascendc.local_tensor<f16, B2>, !ascendc.struct<"MmadParams">) -> ()
// CHECK:       %[[C1:.*]] = ascendc.deque %qCO1 : !ascendc.tque<CO1, 1> -> !ascendc.local_tensor<f32, CO1>
// CHECK:       ascendc.cube "Fixpipe"(%cGm, %[[C1]], %{{.*}}) {overload = "gm", template_args = [f32, f32, "CFG_ROW_MAJOR"]} : (!ascendc.global_tensor<f32>, !ascendc.local_tensor<f32, CO1>, !ascendc.struct<"FixpipeParamsV220">) -> ()
// CHECK-NEXT:  ascendc.free_tensor %qCO1, %[[C1]]
