// Parameter structs of the kernel's own, nested, filled through a reference and picked per core through a
// pointer (the pattern of NPUKernelBench's SwiGlu): core 0 scales by 2 and copies 256 floats, core 1 scales
// by 3 (set after the pointer was taken) and copies 128 of its 256.
#include "kernel_operator.h"
using namespace AscendC;

struct CopyParam {
    uint16_t blockCount = 0;
    uint16_t blockLen = 0;
};
struct TileParam {
    CopyParam inParam;
    CopyParam outParam;
    float scale = 1.0f;
};
struct Plan {
    TileParam whole;
    TileParam part;
    TileParam *cur = nullptr;
    __aicore__ inline void Fill(uint32_t n, float scale, TileParam &p)
    {
        p.inParam.blockCount = 1;
        p.inParam.blockLen = n * sizeof(float) / 32;
        p.outParam.blockCount = 1;
        p.outParam.blockLen = n * sizeof(float) / 32;
        p.scale = scale;
    }
    __aicore__ inline void Pick(uint32_t core)
    {
        if (core == 0) {
            cur = &whole;
        } else {
            cur = &part;
        }
    }
};

class KernelPick {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        plan.Fill(256, 2.0f, plan.whole);
        plan.Fill(128, 1.0f, plan.part);
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * 256, 256);
        pipe.InitBuffer(inQueue, 1, 256 * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        plan.Pick(GetBlockIdx());
        plan.part.scale = 3.0f;
        Scale(*(plan.cur));
    }

private:
    __aicore__ inline void Scale(TileParam &p)
    {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopyParams inParams = {p.inParam.blockCount, p.inParam.blockLen, 0, 0};
        DataCopy(in, xGm, inParams);
        inQueue.EnQue(in);
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Muls(out, x, plan.cur->scale, p.inParam.blockLen * 8);
        outQueue.EnQue(out);
        inQueue.FreeTensor(x);
        LocalTensor<float> y = outQueue.DeQue<float>();
        DataCopyParams outParams = {p.outParam.blockCount, p.outParam.blockLen, 0, 0};
        DataCopy(yGm, y, outParams);
        outQueue.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    Plan plan;
};

extern "C" __global__ __aicore__ void pick_params(GM_ADDR x, GM_ADDR y)
{
    KernelPick op;
    op.Init(x, y);
    op.Process();
}
