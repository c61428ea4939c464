// RUN: ascendir-opt %s | filecheck %s

// A class template used with two element types: each use is instantiated separately, so one
// kernel holds a half copy and a float copy of the same class, each with its own types.

#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelAbs {
public:
    __aicore__ inline void Init(GM_ADDR x, TPipe *pipe)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, 256);
        pipe->InitBuffer(buf, 256 * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> t = buf.Get<T>();
        DataCopy(t, xGm, 256);
        Abs(t, t, 256);
        DataCopy(xGm, t, 256);
    }

private:
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> xGm;
};

extern "C" __global__ __aicore__ void abs_two(GM_ADDR a, GM_ADDR b)
{
    TPipe pipe;
    KernelAbs<half> halfOp;
    halfOp.Init(a, &pipe);
    halfOp.Process();
    KernelAbs<float> floatOp;
    floatOp.Init(b, &pipe);
    floatOp.Process();
}

// CHECK-LABEL: ascendc.kernel @abs_two
// CHECK:       %[[PIPE:.*]] = ascendc.tpipe "pipe" : !ascendc.tpipe
// CHECK:       %[[HBUF:.*]] = ascendc.tbuf "buf" : !ascendc.tbuf<VECCALC>
// CHECK:       ascendc.global_tensor "xGm" : !ascendc.global_tensor<f16>
// CHECK:       %[[HLEN:.*]] = arith.constant 512 : i32
// CHECK-NEXT:  ascendc.init_buffer %[[PIPE]], %[[HBUF]] len %[[HLEN]]
// CHECK:       ascendc.vec_unary "Abs"({{.*}}) {overload = "count"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, i32) -> ()
// CHECK:       %[[FBUF:.*]] = ascendc.tbuf "buf" : !ascendc.tbuf<VECCALC>
// CHECK:       ascendc.global_tensor "xGm" : !ascendc.global_tensor<f32>
// CHECK:       %[[FLEN:.*]] = arith.constant 1024 : i32
// CHECK-NEXT:  ascendc.init_buffer %[[PIPE]], %[[FBUF]] len %[[FLEN]]
// CHECK:       ascendc.vec_unary "Abs"({{.*}}) {overload = "count"} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<f32, VECCALC>, i32) -> ()
