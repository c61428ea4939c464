/**
 * @file mse_loss_custom.cpp
 * @brief MseLossCustom kernel: loss = mean((predict - target)^2) over every element, fp16 / fp32 (sums in fp32).
 *
 * Each core accumulates its slice's squared differences lane by lane in fp32, reduces them to one partial sum
 * and publishes it in its own 32-byte slot of the user workspace (lanes 1..7 zero). After SyncAll, core 0 loads
 * all slots, sums them with one ReduceSum and writes the mean.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT_FLOATS = 8;   // one 32-byte slot per core
} // namespace

template <typename T>
class KernelMseLoss {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelMseLoss() {}

    __aicore__ inline void Init(GM_ADDR predict, GM_ADDR target, GM_ADDR loss, GM_ADDR userWorkspace,
                                const MseLossCustomTilingData &td)
    {
        const uint32_t blockIdx = GetBlockIdx();
        uint64_t coreStart = 0;
        uint32_t coreShare = 0;
        if (blockIdx < td.formerNum) {
            coreShare = td.formerLength;
            coreStart = static_cast<uint64_t>(td.formerLength) * blockIdx;
        } else {
            coreShare = td.tailLength;
            coreStart = static_cast<uint64_t>(td.formerLength) * td.formerNum +
                        static_cast<uint64_t>(td.tailLength) * (blockIdx - td.formerNum);
        }
        if (coreStart >= td.totalLength) {
            coreLength = 0;
        } else {
            const uint64_t rest = td.totalLength - coreStart;
            coreLength = rest < coreShare ? static_cast<uint32_t>(rest) : coreShare;
        }
        tileLength = td.tileLength;
        usedCores = td.usedCores;
        invTotal = td.invTotal;

        predictGm.SetGlobalBuffer((__gm__ T *)predict + coreStart, coreLength);
        targetGm.SetGlobalBuffer((__gm__ T *)target + coreStart, coreLength);
        lossGm.SetGlobalBuffer((__gm__ T *)loss, 1);
        slotsGm.SetGlobalBuffer((__gm__ float *)userWorkspace, usedCores * SLOT_FLOATS);
        pipe.InitBuffer(predictQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(targetQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(diffBuf, tileLength * sizeof(float));
        pipe.InitBuffer(accBuf, tileLength * sizeof(float));
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
        pipe.InitBuffer(slotQueue, 1, usedCores * SLOT_FLOATS * sizeof(float));
        pipe.InitBuffer(lossQueue, 1, SLOT_FLOATS * sizeof(float));
        pipe.InitBuffer(totalBuf, SLOT_FLOATS * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(targetFloatBuf, tileLength * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLength);
        for (uint32_t pos = 0; pos < coreLength; pos += tileLength) {
            const uint32_t n = (coreLength - pos) < tileLength ? (coreLength - pos) : tileLength;
            CopyIn(pos, n);
            Accumulate(acc, n);
        }
        PublishPartial(acc);
        SyncAll();
        if (GetBlockIdx() == 0) {
            WriteMean();
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> p = predictQueue.template AllocTensor<T>();
        LocalTensor<T> t = targetQueue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(p, predictGm[pos], params, pad);
        DataCopyPad(t, targetGm[pos], params, pad);
        predictQueue.EnQue(p);
        targetQueue.EnQue(t);
    }

    __aicore__ inline void Accumulate(const LocalTensor<float> &acc, uint32_t n)
    {
        LocalTensor<T> p = predictQueue.template DeQue<T>();
        LocalTensor<T> t = targetQueue.template DeQue<T>();
        LocalTensor<float> diff = diffBuf.Get<float>();
        if constexpr (IS_FLOAT) {
            Sub(diff, p, t, n);
        } else {
            LocalTensor<float> tf = targetFloatBuf.Get<float>();
            Cast(diff, p, RoundMode::CAST_NONE, n);
            Cast(tf, t, RoundMode::CAST_NONE, n);
            Sub(diff, diff, tf, n);
        }
        Mul(diff, diff, diff, n);
        Add(acc, acc, diff, n);
        predictQueue.FreeTensor(p);
        targetQueue.FreeTensor(t);
    }

    // this core's sum into lane 0 of its workspace slot, the other lanes zero
    __aicore__ inline void PublishPartial(const LocalTensor<float> &acc)
    {
        LocalTensor<float> slot = lossQueue.AllocTensor<float>();
        Duplicate(slot, 0.0f, SLOT_FLOATS);
        ReduceSum<float>(slot, acc, workBuf.Get<float>(), tileLength);
        lossQueue.EnQue(slot);
        slot = lossQueue.DeQue<float>();
        DataCopy(slotsGm[GetBlockIdx() * SLOT_FLOATS], slot, SLOT_FLOATS);
        lossQueue.FreeTensor(slot);
    }

    __aicore__ inline void WriteMean()
    {
        LocalTensor<float> slots = slotQueue.AllocTensor<float>();
        DataCopy(slots, slotsGm, usedCores * SLOT_FLOATS);
        slotQueue.EnQue(slots);
        slots = slotQueue.DeQue<float>();
        LocalTensor<float> total = totalBuf.Get<float>();
        ReduceSum<float>(total, slots, workBuf.Get<float>(), usedCores * SLOT_FLOATS);
        Muls(total, total, invTotal, 1);
        LocalTensor<T> out = lossQueue.AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Adds(out, total, 0.0f, 1);
        } else {
            Cast(out, total, RoundMode::CAST_RINT, 1);
        }
        lossQueue.EnQue(out);
        out = lossQueue.DeQue<T>();
        DataCopyPad(lossGm, out, DataCopyExtParams{1, sizeof(T), 0, 0, 0});
        lossQueue.FreeTensor(out);
        slotQueue.FreeTensor(slots);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> predictQueue;
    TQue<TPosition::VECIN, 1> targetQueue;
    TQue<TPosition::VECIN, 1> slotQueue;
    TQue<TPosition::VECOUT, 1> lossQueue;
    TBuf<TPosition::VECCALC> diffBuf;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> totalBuf;
    TBuf<TPosition::VECCALC> targetFloatBuf;
    GlobalTensor<T> predictGm;
    GlobalTensor<T> targetGm;
    GlobalTensor<T> lossGm;
    GlobalTensor<float> slotsGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t usedCores = 0;
    float invTotal = 0.0f;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR predict, GM_ADDR target, GM_ADDR loss,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    // SyncAll needs the vector cores started as a mixed task
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    GM_ADDR userWorkspace = GetUserWorkspace(workspace);
    KernelMseLoss<DTYPE_PREDICT> op;
    op.Init(predict, target, loss, userWorkspace, tilingData);
    op.Process();
}
