// activation_modes.cpp
// One fp32 kernel, several cheap activations picked by a tiling field:
//   mode 0: relu(x)      mode 1: |x|      mode 2: min(relu(x), 6)      mode 3: -|x|
#include "kernel_operator.h"

using namespace AscendC;

enum class ActMode : uint8_t { RELU = 0, ABS = 1, RELU6 = 2, NEG_ABS = 3 };

constexpr int32_t BUFFER_NUM = 2;
constexpr float RELU6_CAP = 6.0f;

class KernelActivation {
public:
    __aicore__ inline KernelActivation() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileLength, uint32_t mode)
    {
        const uint32_t blockNum = GetBlockNum();
        const uint32_t blockIdx = GetBlockIdx();
        // split in units of 8 floats so every core start stays 32B aligned
        const uint32_t units = totalLength >> 3;
        const uint32_t unitsPerCore = units / blockNum;
        const uint32_t extraUnits = units % blockNum;
        const uint32_t myUnits = unitsPerCore + (blockIdx < extraUnits ? 1 : 0);
        const uint32_t startUnit = unitsPerCore * blockIdx + (blockIdx < extraUnits ? blockIdx : extraUnits);

        blockLength = myUnits << 3;
        this->tileLength = tileLength;
        this->mode = ActMode(mode);

        xGm.SetGlobalBuffer((__gm__ float *)x + (startUnit << 3), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + (startUnit << 3), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t done = 0;
        while (done < blockLength) {
            const uint32_t len = (blockLength - done) < tileLength ? (blockLength - done) : tileLength;
            CopyIn(done, len);
            Compute(len);
            CopyOut(done, len);
            done += len;
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[offset], len);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        switch (mode) {
            case ActMode::RELU:
                Relu(yLocal, xLocal, len);
                break;
            case ActMode::ABS:
                Abs(yLocal, xLocal, len);
                break;
            case ActMode::RELU6:
                Relu(yLocal, xLocal, len);
                Mins(yLocal, yLocal, RELU6_CAP, len);
                break;
            case ActMode::NEG_ABS:
                Abs(yLocal, xLocal, len);
                Muls(yLocal, yLocal, -1.0f, len);
                break;
            default:
                DataCopy(yLocal, xLocal, len); // identity, UB -> UB
                break;
        }
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[offset], yLocal, len);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    ActMode mode = ActMode::RELU;
};

extern "C" __global__ __aicore__ void activation_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelActivation op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileLength, tilingData.mode);
    op.Process();
}
