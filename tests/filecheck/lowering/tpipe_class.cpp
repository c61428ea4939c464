// RUN: ascendir-opt %s | filecheck %s

// The canonical TPipe class kernel: members become declarations at the top of the kernel, methods are
// inlined (no call survives), InitBuffer keeps the queue depth and buffer count, and the
// CopyIn/Compute/CopyOut stages become the queue protocol inside one scf.for.

#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tileLength, uint32_t tileNum)
    {
        this->tileLength = tileLength;
        this->tileNum = tileNum;
        xGm.SetGlobalBuffer((__gm__ half *)x, tileLength * tileNum);
        yGm.SetGlobalBuffer((__gm__ half *)y, tileLength * tileNum);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t i)
    {
        LocalTensor<half> x = inQueue.AllocTensor<half>();
        DataCopy(x, xGm[i * tileLength], tileLength);
        inQueue.EnQue(x);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<half> x = inQueue.DeQue<half>();
        LocalTensor<half> y = outQueue.AllocTensor<half>();
        Muls(y, x, (half)2.0, tileLength);
        outQueue.EnQue<half>(y);
        inQueue.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(int32_t i)
    {
        LocalTensor<half> y = outQueue.DeQue<half>();
        DataCopy(yGm[i * tileLength], y, tileLength);
        outQueue.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm, yGm;
    uint32_t tileLength;
    uint32_t tileNum;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y)
{
    KernelScale op;
    op.Init(x, y, 128, 8);
    op.Process();
}

// CHECK-LABEL: ascendc.kernel @scale_custom(%x: !ascendc.gm_ptr<ui8>, %y: !ascendc.gm_ptr<ui8>)
// CHECK-DAG:   %[[PIPE:.*]] = ascendc.tpipe "pipe" : !ascendc.tpipe
// CHECK-DAG:   %[[IN:.*]] = ascendc.tque "inQueue" : !ascendc.tque<VECIN, 2>
// CHECK-DAG:   %[[OUT:.*]] = ascendc.tque "outQueue" : !ascendc.tque<VECOUT, 2>
// CHECK-DAG:   %[[XGM:.*]] = ascendc.global_tensor "xGm" : !ascendc.global_tensor<f16>
// CHECK:       ascendc.set_global_buffer %[[XGM]], %{{.*}} count %{{.*}} : i64 : !ascendc.global_tensor<f16>, !ascendc.gm_ptr<f16>
// CHECK:       ascendc.init_buffer %[[PIPE]], %[[IN]] num %{{.*}} : i32 len %{{.*}} : !ascendc.tpipe, !ascendc.tque<VECIN, 2>, i32
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:         %[[X:.*]] = ascendc.alloc_tensor %[[IN]] : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECIN>
// CHECK:         ascendc.data_copy "DataCopy"(%[[X]], %{{.*}}, %{{.*}}) {overload = "count_gm_to_local"}
// CHECK:         ascendc.enque %[[IN]], %[[X]]
// CHECK:         %[[XD:.*]] = ascendc.deque %[[IN]] : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECIN>
// CHECK:         %[[Y:.*]] = ascendc.alloc_tensor %[[OUT]] : !ascendc.tque<VECOUT, 2> -> !ascendc.local_tensor<f16, VECOUT>
// CHECK:         ascendc.vec_scalar "Muls"(%[[Y]], %[[XD]], %{{.*}}, %{{.*}}) {overload = "count"} : (!ascendc.local_tensor<f16, VECOUT>, !ascendc.local_tensor<f16, VECIN>, f16, i32) -> ()
// CHECK:         ascendc.enque %[[OUT]], %[[Y]]
// CHECK:         ascendc.free_tensor %[[IN]], %[[XD]]
// CHECK:         %[[YD:.*]] = ascendc.deque %[[OUT]]
// CHECK:         ascendc.data_copy "DataCopy"(%{{.*}}, %[[YD]], %{{.*}}) {overload = "count_local_to_gm"}
// CHECK:         ascendc.free_tensor %[[OUT]], %[[YD]]
// CHECK:       }
// CHECK-NEXT:  ascendc.return
