// The usual shape of the bug: a uint32_t tiling member cast to float to build a reciprocal.
#include "kernel_operator.h"
using namespace AscendC;

class KernelMean {
public:
    __aicore__ inline KernelMean() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t groupSize, uint32_t groups)
    {
        this->groupSize = groupSize;
        this->groups = groups;
        xGm.SetGlobalBuffer((__gm__ float *)x, groupSize * groups);
        yGm.SetGlobalBuffer((__gm__ float *)y, groups);
        pipe.InitBuffer(buf, groupSize * sizeof(float));
        pipe.InitBuffer(work, groupSize * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        // expected-error@+1 {{cast from uint32_t to float}} [ASC507]
        const float inv = 1.0f / static_cast<float>(this->groupSize);
        const float invOk = 1.0f / static_cast<float>(static_cast<int32_t>(this->groupSize));
        LocalTensor<float> t = buf.Get<float>();
        LocalTensor<float> w = work.Get<float>();
        for (uint32_t g = 0; g < groups; ++g) {
            DataCopy(t, xGm[g * groupSize], groupSize);
            ReduceSum(t, t, w, groupSize);
            float mean = t.GetValue(0) * inv;
            float pos = float(g) * invOk;  // expected-error {{cast from uint32_t to float}} [ASC507]
            yGm.SetValue(g, mean + pos);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t groupSize;
    uint32_t groups;
};

extern "C" __global__ __aicore__ void group_mean(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KernelMean op;
    op.Init(x, y, 256, 8);
    op.Process();
}
