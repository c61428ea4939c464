// RUN: ascendir-opt %s | filecheck %s

// GET_TILING_DATA binds the registered tiling struct; TILING_KEY_IS(k) becomes tiling_key_is, and the
// `if / else if` chain on the keys nests scf.if ops; field reads are tiling_field ops.

#include "kernel_operator.h"
using namespace AscendC;

struct KeyTilingData {
    uint32_t totalLength;
    float scale;
};

extern "C" __global__ __aicore__ void key_custom(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(KeyTilingData);
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.totalLength);
    if (TILING_KEY_IS(1)) {
        xGm.SetValue(0, td.scale);
    } else if (TILING_KEY_IS(2)) {
        xGm.SetValue(1, td.scale);
    }
}

// CHECK-LABEL: ascendc.kernel @key_custom
// CHECK:       %[[TD:.*]] = ascendc.get_tiling_data %tiling : !ascendc.gm_ptr<ui8> -> !ascendc.tiling<"KeyTilingData">
// CHECK:       ascendc.tiling_field %[[TD]] "totalLength" : !ascendc.tiling<"KeyTilingData"> -> i32
// CHECK:       %[[K1:.*]] = ascendc.tiling_key_is 1 : i64 -> i1
// CHECK-NEXT:  scf.if %[[K1]] {
// CHECK:         %[[S:.*]] = ascendc.tiling_field %[[TD]] "scale" : !ascendc.tiling<"KeyTilingData"> -> f32
// CHECK:         ascendc.set_value %xGm[%{{.*}}], %[[S]] : !ascendc.global_tensor<f32>, i32, f32
// CHECK-NEXT:  } else {
// CHECK-NEXT:    %[[K2:.*]] = ascendc.tiling_key_is 2 : i64 -> i1
// CHECK-NEXT:    scf.if %[[K2]] {
