// RUN: ascendir-opt %s --dtype DTYPE_X=float | filecheck %s --check-prefix FLOAT
// RUN: ascendir-opt %s --dtype DTYPE_X=half | filecheck %s --check-prefix HALF

// DTYPE_<NAME> macros are bound on the command line (an op project binds them from its json); the
// same kernel is checked once per binding.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void neg_custom(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(DTYPE_X));
    GlobalTensor<DTYPE_X> xGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x, 64);
    LocalTensor<DTYPE_X> t = buf.Get<DTYPE_X>();
    DataCopy(t, xGm, 64);
    Muls(t, t, (DTYPE_X)-1, 64);
    DataCopy(xGm, t, 64);
}

// FLOAT:      %xGm = ascendc.global_tensor "xGm" : !ascendc.global_tensor<f32>
// FLOAT:      ascendc.vec_scalar "Muls"({{.*}}) {overload = "count"} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<f32, VECCALC>, f32, i32) -> ()
// FLOAT-NOT:  f16

// HALF:       %xGm = ascendc.global_tensor "xGm" : !ascendc.global_tensor<f16>
// HALF:       ascendc.vec_scalar "Muls"({{.*}}) {overload = "count"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, f16, i32) -> ()
