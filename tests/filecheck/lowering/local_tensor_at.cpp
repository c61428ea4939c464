// RUN: ascendir-opt %s | filecheck %s

// The raw-address LocalTensor constructor lowers to local_tensor_at in the named TPosition.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void placed(GM_ADDR x, GM_ADDR tiling)
{
    AscendC::LocalTensor<float> cLocal(AscendC::TPosition::VECOUT, 2048, 512);
    AscendC::Adds(cLocal, cLocal, 1.0f, 512);
}

// CHECK:      %[[ADDR:.*]] = arith.constant 2048 : i32
// CHECK-NEXT: %[[N:.*]] = arith.constant 512 : i32
// CHECK-NEXT: %[[T:.*]] = ascendc.local_tensor_at %[[ADDR]] count %[[N]] : i32, i32 -> !ascendc.local_tensor<f32, VECOUT>
// CHECK:      ascendc.vec_scalar "Adds"(%[[T]], %[[T]], {{.*}}) {overload = "count"}
