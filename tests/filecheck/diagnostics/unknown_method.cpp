// RUN: not ascendir-opt %s --no-print-ir 2>&1 | filecheck %s

// A misspelt method of an AscendC class is reported with the class name and the closest method.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void unknown_method()
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<half> t = q.AllocTensr<half>();
    q.FreeTensor(t);
}

// CHECK:      {{.*}}unknown_method.cpp:13:27: error: unknown AscendC API 'TQue::AllocTensr' [ASC100]
// CHECK:      help: did you mean 'AllocTensor'?
