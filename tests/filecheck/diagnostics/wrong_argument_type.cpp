// RUN: not ascendir-opt %s --no-print-ir 2>&1 | filecheck %s

// Exp on GlobalTensors: the count overload is rejected for its first argument's type, the others for
// their arity.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void exp_on_gm(GM_ADDR x)
{
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 128);
    Exp(xGm, xGm, 128);
}

// CHECK:      {{.*}}wrong_argument_type.cpp:13:5: error: no matching function for call to 'Exp' [ASC101]
// CHECK:      note: candidate: Exp<T>(dst: LocalTensor<T>@VEC, src: LocalTensor<T>@VEC, count: int32_t): argument 1 is a GlobalTensor<half>, expected LocalTensor<T>
// CHECK-NEXT: note: candidate: {{.*}}: expects 5 arguments, got 3
