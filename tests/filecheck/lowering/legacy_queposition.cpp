// RUN: ascendir-opt %s | filecheck %s

// The 2023 sample style: `using namespace AscendC`, QuePosition instead of TPosition, the queue depth
// given by BUFFER_NUM, a TBuf for scratch, and the kernel written as a free function calling a class.

#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 4096;
constexpr int32_t BUFFER_NUM = 1;

class KernelSinh {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, TOTAL_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y, TOTAL_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TOTAL_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TOTAL_LENGTH * sizeof(float));
        pipe.InitBuffer(tmpBuffer, TOTAL_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm, TOTAL_LENGTH);
        inQueueX.EnQue(xLocal);
        xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuffer.Get<float>();
        Muls(tmp, xLocal, (float)-1.0, TOTAL_LENGTH);
        Exp(tmp, tmp, TOTAL_LENGTH);
        Exp(yLocal, xLocal, TOTAL_LENGTH);
        Sub(yLocal, yLocal, tmp, TOTAL_LENGTH);
        Muls(yLocal, yLocal, (float)0.5, TOTAL_LENGTH);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
        yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm, yLocal, TOTAL_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<QuePosition::VECCALC> tmpBuffer;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void sinh_custom(GM_ADDR x, GM_ADDR y)
{
    KernelSinh op;
    op.Init(x, y);
    op.Process();
}

// CHECK-LABEL: ascendc.kernel @sinh_custom
// CHECK-DAG:   %inQueueX = ascendc.tque "inQueueX" : !ascendc.tque<VECIN, 1>
// CHECK-DAG:   %outQueueY = ascendc.tque "outQueueY" : !ascendc.tque<VECOUT, 1>
// CHECK-DAG:   %tmpBuffer = ascendc.tbuf "tmpBuffer" : !ascendc.tbuf<VECCALC>
// CHECK:       ascendc.init_buffer %pipe, %tmpBuffer len %{{.*}} : !ascendc.tpipe, !ascendc.tbuf<VECCALC>, i32
// CHECK:       %[[TMP:.*]] = ascendc.tbuf_get %tmpBuffer : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f32, VECCALC>
// CHECK:       ascendc.vec_scalar "Muls"(%[[TMP]], %{{.*}}, %{{.*}}, %{{.*}}) {overload = "count"}
// CHECK:       ascendc.vec_unary "Exp"(%[[TMP]], %[[TMP]], %{{.*}}) {overload = "count"}
// CHECK:       ascendc.vec_binary "Sub"(%{{.*}}, %{{.*}}, %[[TMP]], %{{.*}}) {overload = "count"}
