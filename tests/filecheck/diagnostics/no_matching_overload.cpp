// RUN: not ascendir-opt %s --no-print-ir 2>&1 | filecheck %s
// RUN: not ascendir-opt %s | filecheck %s --check-prefix IR

// Add with three arguments: no overload takes three, so the error lists every candidate and why it
// was rejected. The call is kept with an empty overload id.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bad_arity()
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<half> t = buf.Get<half>();
    Add(t, t, 512);
}

// CHECK:      {{.*}}no_matching_overload.cpp:16:5: error: no matching function for call to 'Add' [ASC101]
// CHECK-NEXT:    16 |     Add(t, t, 512);
// CHECK-NEXT:       |     ^~~~~~~~~~~~~~
// CHECK-NEXT: note: candidate: Add<T>(dst: LocalTensor<T>@VEC, src0: LocalTensor<T>@VEC, src1: LocalTensor<T>@VEC, count: int32_t): expects 4 arguments, got 3
// CHECK-NEXT: note: candidate: Add<{{.*}}>({{.*}} mask: uint64_t, repeatTime: uint8_t, repeatParams: BinaryRepeatParams): expects 6 arguments, got 3
// CHECK-NEXT: note: candidate: Add<{{.*}}>({{.*}} mask: uint64_t[2], repeatTime: uint8_t, repeatParams: BinaryRepeatParams): expects 6 arguments, got 3

// IR: ascendc.vec_binary "Add"(%{{.*}}) {overload = ""} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, i32) -> ()
