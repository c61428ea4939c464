// RUN: ascendir-opt %s | filecheck %s

// Reductions (the count forms and WholeReduceSum's mask/repeat form) and Duplicate with a scalar.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void row_sum_custom()
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<float> src = buf.Get<float>();
    LocalTensor<float> work = src[512];
    LocalTensor<float> dst = src[1024];
    Duplicate(src, 1.5f, 512);
    ReduceSum<float>(dst, src, work, 512);
    ReduceMax(dst, src, work, 512, false);
    WholeReduceSum<float>(dst, src, 64, 8, 1, 1, 8);
}

// CHECK-LABEL: ascendc.kernel @row_sum_custom
// CHECK:       %[[SRC:.*]] = ascendc.tbuf_get %buf
// CHECK:       %[[V:.*]] = arith.constant 1.500000e+00 : f32
// CHECK:       ascendc.duplicate "Duplicate"(%[[SRC]], %[[V]], %{{.*}}) {overload = "count"} : (!ascendc.local_tensor<f32, VECCALC>, f32, i32) -> ()
// CHECK:       ascendc.reduce "ReduceSum"(%[[DST:.*]], %[[SRC]], %[[WORK:.*]], %{{.*}}) {overload = "count", template_args = [f32]}
// CHECK:       ascendc.reduce "ReduceMax"(%[[DST]], %[[SRC]], %[[WORK]], %{{.*}}, %{{.*}}) {overload = "count"} : ({{.*}}, i32, i1) -> ()
// CHECK:       ascendc.reduce "WholeReduceSum"(%[[DST]], %[[SRC]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {overload = "mask", template_args = [f32]}
