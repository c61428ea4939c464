// RUN: not ascendir-opt %s --no-print-ir 2>&1 | filecheck %s

// A name that is neither a local, a parameter, a member, a constant nor an AscendC API. Each use is
// reported once, at the name; the rest of the kernel is still lowered (no other error).

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void undeclared(GM_ADDR x)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, totalLength);
    xGm.SetValue(0, scale);
}

// CHECK:      {{.*}}undeclared_identifier.cpp:12:44: error: use of undeclared identifier 'totalLength' [ASC102]
// CHECK-NEXT:    12 |     xGm.SetGlobalBuffer((__gm__ float *)x, totalLength);
// CHECK-NEXT:       |                                            ^~~~~~~~~~~
// CHECK-NEXT: {{.*}}undeclared_identifier.cpp:13:21: error: use of undeclared identifier 'scale' [ASC102]
// CHECK-NOT:  error
