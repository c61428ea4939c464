// RUN: not ascendir-opt %s --no-print-ir 2>&1 | filecheck %s
// RUN: not ascendir-opt %s | filecheck %s --check-prefix IR

// A misspelt AscendC API: an ASC100 error at the call with the closest catalogued names as help. The
// kernel is still produced; the call stays as an opaque_call.

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void unknown_api()
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<half> t = buf.Get<half>();
    AscendC::Addd(t, t, t, 512);
}

// CHECK:      {{.*}}unknown_api.cpp:15:5: error: unknown AscendC API 'Addd' [ASC100]
// CHECK-NEXT:    15 |     AscendC::Addd(t, t, t, 512);
// CHECK-NEXT:       |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT: help: did you mean 'Add', 'Adds'?

// The call is kept with every argument, the literal count included.
// IR:      %[[T:.*]] = ascendc.tbuf_get %buf
// IR-NEXT: %[[N:.*]] = arith.constant 512 : i32
// IR-NEXT: ascendc.opaque_call "Addd"(%[[T]], %[[T]], %[[T]], %[[N]]) : (!ascendc.local_tensor<f16, VECCALC>
