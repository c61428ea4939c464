// RUN: ascendir-opt %s | filecheck %s

// Compare writes a ui8 bit mask; Select picks between two tensors (or a tensor and a scalar) by it.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void maximum_custom()
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[64];
    LocalTensor<float> out = a[128];
    LocalTensor<uint8_t> mask = buf.GetWithOffset<uint8_t>(64, 1024);
    Compare(mask, a, b, CMPMODE::GT, 64);
    Select(out, mask, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    CompareScalar(mask, a, 0.0f, CMPMODE::LT, 64);
    Select(out, mask, a, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
}

// CHECK-LABEL: ascendc.kernel @maximum_custom
// CHECK:       %[[A:.*]] = ascendc.tbuf_get %buf : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f32, VECCALC>
// CHECK:       %[[B:.*]] = ascendc.subtensor %[[A]][%{{.*}}] : !ascendc.local_tensor<f32, VECCALC>, i32 -> !ascendc.local_tensor<f32, VECCALC>
// CHECK:       %[[MASK:.*]] = ascendc.tbuf_get %buf count {{.*}} -> !ascendc.local_tensor<ui8, VECCALC>
// CHECK:       %[[GT:.*]] = ascendc.enum_constant "GT" : !ascendc.enum<"CMPMODE">
// CHECK:       ascendc.compare "Compare"(%[[MASK]], %[[A]], %[[B]], %[[GT]], %{{.*}}) {overload = "count"}
// CHECK:       %[[TT:.*]] = ascendc.enum_constant "VSEL_TENSOR_TENSOR_MODE" : !ascendc.enum<"SELMODE">
// CHECK:       ascendc.select "Select"(%{{.*}}, %[[MASK]], %[[A]], %[[B]], %[[TT]], %{{.*}}) {overload = "tensor_count"}
// CHECK:       ascendc.compare "CompareScalar"(%[[MASK]], %[[A]], %{{.*}}, %{{.*}}, %{{.*}}) {overload = "count"} : (!ascendc.local_tensor<ui8, VECCALC>, !ascendc.local_tensor<f32, VECCALC>, f32, !ascendc.enum<"CMPMODE">, i32) -> ()
// CHECK:       ascendc.select "Select"(%{{.*}}, %[[MASK]], %[[A]], %{{.*}}, %{{.*}}, %{{.*}}) {overload = "scalar_count"} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<ui8, VECCALC>, !ascendc.local_tensor<f32, VECCALC>, f32, !ascendc.enum<"SELMODE">, i32) -> ()
