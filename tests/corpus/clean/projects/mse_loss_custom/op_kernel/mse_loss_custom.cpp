/**
 * @file mse_loss_custom.cpp
 * @brief MseLossCustom kernel.
 *   key 0: y = (predict - label)^2, element-wise
 *   key 1: y = scale * sum((predict - label)^2); cores publish 32-byte partial slots to the user
 *          workspace, meet at SyncAll, and core 0 adds the slots up.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT_FLOATS = 8; // one 32-byte slot per core

__aicore__ inline uint32_t MinU32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}
} // namespace

class KernelMseLoss {
public:
    __aicore__ inline KernelMseLoss() {}

    __aicore__ inline void Init(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR userWs, uint32_t totalLength,
                                uint32_t blockLength, uint32_t tileLength, uint32_t usedCoreNum, float scale,
                                bool reduce)
    {
        const uint32_t start = blockLength * GetBlockIdx();
        coreLength = start >= totalLength ? 0 : MinU32(blockLength, totalLength - start);
        this->tileLength = tileLength;
        this->usedCoreNum = usedCoreNum;
        this->scale = scale;

        predGm.SetGlobalBuffer((__gm__ float *)predict + start, coreLength);
        labelGm.SetGlobalBuffer((__gm__ float *)label + start, coreLength);
        if (reduce) {
            yGm.SetGlobalBuffer((__gm__ float *)y, 1);
            wsGm.SetGlobalBuffer((__gm__ float *)userWs, usedCoreNum * SLOT_FLOATS);
        } else {
            yGm.SetGlobalBuffer((__gm__ float *)y + start, coreLength);
        }

        pipe.InitBuffer(inQueueP, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueL, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, reduce ? 1 : BUFFER_NUM, reduce ? 32 : tileLength * sizeof(float));
        pipe.InitBuffer(diffBuf, tileLength * sizeof(float));
        if (reduce) {
            pipe.InitBuffer(accBuf, tileLength * sizeof(float));
            pipe.InitBuffer(workBuf, tileLength * sizeof(float));
            pipe.InitBuffer(slotBuf, usedCoreNum * SLOT_FLOATS * sizeof(float));
        }
    }

    __aicore__ inline void ProcessNone()
    {
        for (uint32_t off = 0; off < coreLength; off += tileLength) {
            const uint32_t n = MinU32(tileLength, coreLength - off);
            CopyIn(off, n);
            LocalTensor<float> p = inQueueP.DeQue<float>();
            LocalTensor<float> l = inQueueL.DeQue<float>();
            LocalTensor<float> out = outQueueY.AllocTensor<float>();
            Sub(out, p, l, n);
            Mul(out, out, out, n);
            outQueueY.EnQue(out);
            inQueueP.FreeTensor(p);
            inQueueL.FreeTensor(l);

            out = outQueueY.DeQue<float>();
            DataCopyPad(yGm[off], out, DataCopyExtParams{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
            outQueueY.FreeTensor(out);
        }
    }

    __aicore__ inline void ProcessReduce()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> diff = diffBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLength);
        for (uint32_t off = 0; off < coreLength; off += tileLength) {
            const uint32_t n = MinU32(tileLength, coreLength - off);
            CopyIn(off, n);
            LocalTensor<float> p = inQueueP.DeQue<float>();
            LocalTensor<float> l = inQueueL.DeQue<float>();
            Sub(diff, p, l, n);
            Mul(diff, diff, diff, n);
            Add(acc, acc, diff, n);
            inQueueP.FreeTensor(p);
            inQueueL.FreeTensor(l);
        }
        PublishPartial(acc);
        SyncAll();
        if (GetBlockIdx() == 0) {
            CombinePartials();
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        LocalTensor<float> p = inQueueP.AllocTensor<float>();
        LocalTensor<float> l = inQueueL.AllocTensor<float>();
        DataCopyExtParams params{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(p, predGm[off], params, pad);
        DataCopyPad(l, labelGm[off], params, pad);
        inQueueP.EnQue(p);
        inQueueL.EnQue(l);
    }

    __aicore__ inline void PublishPartial(LocalTensor<float> &acc)
    {
        LocalTensor<float> partial = diffBuf.Get<float>(); // diff is free again, reuse its first block
        ReduceSum<float>(partial, acc, workBuf.Get<float>(), tileLength);
        Muls(partial, partial, scale, 1);
        event_t vToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vToMte3);
        WaitFlag<HardEvent::V_MTE3>(vToMte3);
        DataCopy(wsGm[GetBlockIdx() * SLOT_FLOATS], partial, SLOT_FLOATS);
    }

    __aicore__ inline void CombinePartials()
    {
        LocalTensor<float> slots = slotBuf.Get<float>();
        DataCopy(slots, wsGm, usedCoreNum * SLOT_FLOATS);
        event_t mte2ToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(mte2ToS);
        WaitFlag<HardEvent::MTE2_S>(mte2ToS);

        float total = 0.0f;
        for (uint32_t i = 0; i < usedCoreNum; ++i) {
            total += slots.GetValue(i * SLOT_FLOATS);
        }
        LocalTensor<float> out = outQueueY.AllocTensor<float>();
        out.SetValue(0, total);
        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        DataCopyPad(yGm, out, DataCopyExtParams{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
        outQueueY.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueP;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueL;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> diffBuf;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> slotBuf;
    GlobalTensor<float> predGm;
    GlobalTensor<float> labelGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> wsGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t usedCoreNum = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KERNEL_TASK_TYPE(1, KERNEL_TYPE_MIX_AIV_1_0);
    GM_ADDR userWs = GetUserWorkspace(workspace);

    KernelMseLoss op;
    if (TILING_KEY_IS(0)) {
        op.Init(predict, label, y, userWs, tilingData.totalLength, tilingData.blockLength, tilingData.tileLength,
                tilingData.usedCoreNum, tilingData.scale, false);
        op.ProcessNone();
    } else if (TILING_KEY_IS(1)) {
        op.Init(predict, label, y, userWs, tilingData.totalLength, tilingData.blockLength, tilingData.tileLength,
                tilingData.usedCoreNum, tilingData.scale, true);
        op.ProcessReduce();
    }
}
