// InitGlobalMemory clears this core's slice of the output before any InitBuffer; ArithProgression fills
// a UB tensor with 0, 1, 2, ... which is then added to the input.
#include "kernel_operator.h"

constexpr uint32_t LENGTH = 256;

extern "C" __global__ __aicore__ void add_index(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + LENGTH * AscendC::GetBlockIdx(), LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y + LENGTH * AscendC::GetBlockIdx(), LENGTH);
    AscendC::InitGlobalMemory(yGm, LENGTH, 0.0f);

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> indexBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> dataBuf;
    pipe.InitBuffer(indexBuf, LENGTH * sizeof(float));
    pipe.InitBuffer(dataBuf, LENGTH * sizeof(float));
    AscendC::LocalTensor<float> index = indexBuf.Get<float>();
    AscendC::LocalTensor<float> data = dataBuf.Get<float>();
    AscendC::ArithProgression<float>(index, 0.0f, 1.0f, LENGTH);
    AscendC::DataCopy(data, xGm, LENGTH);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Add(data, data, index, LENGTH);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, data, LENGTH);
}
