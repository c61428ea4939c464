// RUN: ascendir-opt %s | filecheck %s

// Operator forms on LocalTensors (`dst = a + b`, `dst = a * b`) are the count forms of Add/Mul over the
// whole destination: the count is the destination's GetSize().

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void ops_custom()
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3072);
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[256];
    LocalTensor<float> c = a[512];
    c = a + b;
    c = a * b;
}

// CHECK-LABEL: ascendc.kernel @ops_custom
// CHECK:       %[[A:.*]] = ascendc.tbuf_get %buf
// CHECK:       %[[B:.*]] = ascendc.subtensor %[[A]]
// CHECK:       %[[C:.*]] = memref.load %c[]
// CHECK-NEXT:  %[[N:.*]] = ascendc.local_tensor_call "GetSize"(%[[C]]) {overload = "plain"} : (!ascendc.local_tensor<f32, VECCALC>) -> i32
// CHECK-NEXT:  ascendc.vec_binary "Add"(%[[C]], %[[A]], %[[B]], %[[N]]) {overload = "count"}
// CHECK:       ascendc.vec_binary "Mul"(%{{.*}}, %[[A]], %[[B]], %{{.*}}) {overload = "count"}
