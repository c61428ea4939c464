/*
 * scalar_walk_tiling.cpp
 * y = alpha * x + beta (fp16 in/out, math in fp16), tiling parsed by walking a GM byte cursor.
 *
 * Tiling layout written by the host, 4-byte fields, no padding:
 *   uint32 numel | uint32 tileLength | uint32 blockDim | float alpha | float beta
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline T ReadField(GM_ADDR &cursor)
{
    T value = *reinterpret_cast<__gm__ T *>(cursor);
    cursor += sizeof(T);
    return value;
}

} // namespace

class KernelScaleShift {
public:
    __aicore__ inline KernelScaleShift() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t numel, uint32_t tileLength, uint32_t blockDim,
                                float alpha, float beta)
    {
        const uint32_t perCore = (numel + blockDim - 1) / blockDim;
        const uint32_t begin = perCore * GetBlockIdx();
        count = begin >= numel ? 0 : (numel - begin > perCore ? perCore : numel - begin);
        this->tileLength = tileLength;
        this->alpha = static_cast<half>(alpha);
        this->beta = static_cast<half>(beta);

        xGm.SetGlobalBuffer((__gm__ half *)x + begin, count);
        yGm.SetGlobalBuffer((__gm__ half *)y + begin, count);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < count; done += tileLength) {
            const uint32_t len = count - done < tileLength ? count - done : tileLength;
            const DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(half)), 0, 0, 0};
            LocalTensor<half> in = inQueue.AllocTensor<half>();
            DataCopyPad(in, xGm[done], copyParams, DataCopyPadExtParams<half>{false, 0, 0, 0});
            inQueue.EnQue(in);

            in = inQueue.DeQue<half>();
            LocalTensor<half> out = outQueue.AllocTensor<half>();
            Muls(out, in, alpha, len);
            Adds(out, out, beta, len);
            outQueue.EnQue(out);
            inQueue.FreeTensor(in);

            out = outQueue.DeQue<half>();
            DataCopyPad(yGm[done], out, copyParams);
            outQueue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    uint32_t count = 0;
    uint32_t tileLength = 0;
    half alpha;
    half beta;
};

extern "C" __global__ __aicore__ void scale_shift_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    __gm__ uint32_t *p = (__gm__ uint32_t *)tiling;
    uint32_t numel = *p;
    tiling += sizeof(uint32_t);
    uint32_t tileLength = ReadField<uint32_t>(tiling);
    uint32_t blockDim = ReadField<uint32_t>(tiling);
    float alpha = ReadField<float>(tiling);
    float beta = ReadField<float>(tiling);

    KernelScaleShift op;
    op.Init(x, y, numel, tileLength, blockDim, alpha, beta);
    op.Process();
}
