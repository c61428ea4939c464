// Idioms of the vendor's mixed (cube + vector) kernels, checked as the vector pass of a 910B compile sees
// them: code under __DAV_C220_VEC__ is read, code under __DAV_C220_CUBE__ is not. None is a defect.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TILE = 4096;

struct CoreMeta {
    uint32_t kind;
    uint32_t ratio;
};

// An attribute between the declarator and its initialiser: the launch metadata of a mixed kernel.
#if defined(__DAV_C220_VEC__)
static const struct CoreMeta demo_mix_aiv_section __attribute__((used, section(".ascend.meta.demo_mix_aiv"))) = {
    2, 1
};
#endif

class Stage {
public:
    // Two overloads with the same number of parameters, told apart by the struct they take.
    struct LongParam {
        int32_t blockNum;
        int32_t paddingNum;
    };
    struct MediumParam {
        int32_t stepNum;
        int32_t lastNum;
    };

    // An attribute-like macro from a header we do not read, before a constructor and before methods.
    DEMO_FORCE_INLINE Stage() {}

    DEMO_FORCE_INLINE void Init(TPipe* pipeIn, GM_ADDR x, uint32_t n)
    {
        pipe = pipeIn;
        total = n;
        xGm.SetGlobalBuffer((__gm__ float*)x, n);
        pipe->InitBuffer(bigQue, 1, 160 * 1024);
    }

    DEMO_FORCE_INLINE void Process()
    {
        LocalTensor<float> big = bigQue.AllocTensor<float>();
        DataCopy(big, xGm, TILE);
        bigQue.EnQue(big);
        big = bigQue.DeQue<float>();
        DataCopy(xGm, big, TILE);
        bigQue.FreeTensor(big);
        // Reset through the TPipe* member gives the 160 KiB back: the next 2 x 64 KiB fit in the UB.
        pipe->Reset();
        pipe->InitBuffer(pingPongQue, 2, 64 * 1024);
        LongParam p;
        p.blockNum = 2;
        p.paddingNum = 0;
        Copy(p, 0);
        // a static helper of the vendor's utility class: not modelled, not an unknown API either
        int64_t kept = AscendC::AscendCUtils::GetRsvdCnt();
        total = total + static_cast<uint32_t>(kept);
    }

private:
    DEMO_FORCE_INLINE void Copy(MediumParam p, int32_t offset)
    {
        LocalTensor<float> t = pingPongQue.AllocTensor<float>();
        // p.blockNum does not exist in MediumParam: only the wrong overload would read it
        DataCopy(t, xGm[offset], static_cast<uint32_t>(p.stepNum * 8));
        pingPongQue.EnQue(t);
        t = pingPongQue.DeQue<float>();
        DataCopy(xGm[offset], t, static_cast<uint32_t>(p.lastNum * 8));
        pingPongQue.FreeTensor(t);
    }

    DEMO_FORCE_INLINE void Copy(LongParam p, int32_t offset)
    {
        LocalTensor<float> t = pingPongQue.AllocTensor<float>();
        DataCopyParams params(static_cast<uint16_t>(p.blockNum), TILE / 8, 0, 0);
        DataCopy(t, xGm[offset], params);
        pingPongQue.EnQue(t);
        t = pingPongQue.DeQue<float>();
        DataCopy(xGm[offset], t, params);
        pingPongQue.FreeTensor(t);
    }

    TPipe* pipe = nullptr;
    TQue<QuePosition::VECIN, 1> bigQue;
    TQue<QuePosition::VECIN, 2> pingPongQue;
    GlobalTensor<float> xGm;
    uint32_t total = 0;
};

extern "C" __global__ __aicore__ void mixkernel_vector_pass(GM_ADDR x, GM_ADDR tiling)
{
#ifdef __DAV_C220_CUBE__
    // the cube pass's code: not part of this compile (a call with no overload would be ASC101 here)
    Mmad(x, x, x, 1, 2, 3, 4, 5);
#elif __DAV_C220_VEC__
    TPipe pipe;
    Stage op;
    op.Init(&pipe, x, TILE);
    op.Process();
#endif
}
