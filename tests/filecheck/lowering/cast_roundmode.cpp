// RUN: ascendir-opt %s | filecheck %s

// Cast keeps its RoundMode as an enum_constant operand, and its element types in the operand types.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_custom()
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<half> h = buf.Get<half>();
    LocalTensor<float> f = buf.GetWithOffset<float>(512, 2048);
    LocalTensor<int32_t> i = buf.GetWithOffset<int32_t>(512, 4096);
    Cast(f, h, RoundMode::CAST_NONE, 512);
    Cast(i, f, RoundMode::CAST_RINT, 512);
    Cast(h, f, RoundMode::CAST_FLOOR, 512);
}

// CHECK-LABEL: ascendc.kernel @cast_custom
// CHECK:       %[[F:.*]] = ascendc.tbuf_get %buf count %{{.*}} : i32 offset %{{.*}} : i32 : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f32, VECCALC>
// CHECK:       %[[NONE:.*]] = ascendc.enum_constant "CAST_NONE" : !ascendc.enum<"RoundMode">
// CHECK:       ascendc.cast "Cast"(%[[F]], %{{.*}}, %[[NONE]], %{{.*}}) {overload = "count"} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, !ascendc.enum<"RoundMode">, i32) -> ()
// CHECK:       %[[RINT:.*]] = ascendc.enum_constant "CAST_RINT" : !ascendc.enum<"RoundMode">
// CHECK:       ascendc.cast "Cast"(%{{.*}}, %[[F]], %[[RINT]], %{{.*}}) {overload = "count"} : (!ascendc.local_tensor<si32, VECCALC>, !ascendc.local_tensor<f32, VECCALC>
// CHECK:       %[[FLOOR:.*]] = ascendc.enum_constant "CAST_FLOOR" : !ascendc.enum<"RoundMode">
// CHECK:       ascendc.cast "Cast"(%{{.*}}, %[[F]], %[[FLOOR]], %{{.*}}) {overload = "count"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f32, VECCALC>
