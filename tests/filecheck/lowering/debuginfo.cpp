// RUN: ascendir-opt %s --print-debuginfo | filecheck %s

// --print-debuginfo prints the source location of every op: the C++ line and column the op was
// lowered from, and for the kernel op its declaration.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void loc_custom(GM_ADDR x)
{
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 16);
    uint32_t idx = GetBlockIdx();
    xGm.SetValue(idx, (half)1.0);
}

// CHECK:      ascendc.global_tensor "xGm" : !ascendc.global_tensor<f16> loc("{{.*}}debuginfo.cpp":11:24)
// CHECK:      ascendc.set_global_buffer {{.*}} loc("{{.*}}debuginfo.cpp":12:5)
// CHECK:      ascendc.system "GetBlockIdx"() {overload = "plain"} : () -> i64 loc("{{.*}}debuginfo.cpp":13:20)
// CHECK:      ascendc.set_value {{.*}} loc("{{.*}}debuginfo.cpp":14:5)
// CHECK:      ascendc.return loc("{{.*}}debuginfo.cpp":
// CHECK-NEXT: } loc("{{.*}}debuginfo.cpp":9:
