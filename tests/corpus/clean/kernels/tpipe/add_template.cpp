/**
 * @file add_template.cpp
 * @brief Templated element-wise add for half / float / bfloat16_t with uneven core split.
 *
 * The host splits the flattened length in 32-byte units: the first `bigCoreNum` cores get
 * `bigCoreLength` elements, the rest get `smallCoreLength`. Inside a core, full tiles of
 * `tileLength` elements are processed first and the remainder is moved with DataCopyPad.
 *
 * TilingKey: 1 -> half, 2 -> float, 3 -> bfloat16_t (computed in fp32, A2 has no bf16 vector add).
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
}

template <typename T>
class KernelAdd {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value ||
                      std::is_same<T, bfloat16_t>::value,
                  "KernelAdd only supports half, float and bfloat16_t");
    static constexpr bool NEED_CAST = std::is_same<T, bfloat16_t>::value;

public:
    __aicore__ inline KernelAdd() = default;
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t bigCoreNum, uint32_t bigCoreLength,
                                uint32_t smallCoreLength, uint32_t tileLength);
    __aicore__ inline void Process();

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count);
    __aicore__ inline void Compute(uint32_t count);
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count);

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<TPosition::VECCALC> castBufX;
    TBuf<TPosition::VECCALC> castBufY;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> zGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

template <typename T>
__aicore__ inline void KernelAdd<T>::Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t bigCoreNum,
                                          uint32_t bigCoreLength, uint32_t smallCoreLength, uint32_t tileLength)
{
    const uint32_t blockIdx = GetBlockIdx();
    uint64_t offset = 0;
    if (blockIdx < bigCoreNum) {
        coreLength = bigCoreLength;
        offset = static_cast<uint64_t>(bigCoreLength) * blockIdx;
    } else {
        coreLength = smallCoreLength;
        offset = static_cast<uint64_t>(bigCoreLength) * bigCoreNum +
                 static_cast<uint64_t>(smallCoreLength) * (blockIdx - bigCoreNum);
    }
    this->tileLength = tileLength;

    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + offset, coreLength);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + offset, coreLength);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(z) + offset, coreLength);

    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
    if constexpr (NEED_CAST) {
        pipe.InitBuffer(castBufX, tileLength * sizeof(float));
        pipe.InitBuffer(castBufY, tileLength * sizeof(float));
    }
}

template <typename T>
__aicore__ inline void KernelAdd<T>::Process()
{
    const uint32_t fullTiles = coreLength / tileLength;
    const uint32_t tailLength = coreLength - fullTiles * tileLength;
    for (uint32_t i = 0; i < fullTiles; ++i) {
        CopyIn(i * tileLength, tileLength);
        Compute(tileLength);
        CopyOut(i * tileLength, tileLength);
    }
    if (tailLength > 0) {
        CopyIn(fullTiles * tileLength, tailLength);
        Compute(tailLength);
        CopyOut(fullTiles * tileLength, tailLength);
    }
}

template <typename T>
__aicore__ inline void KernelAdd<T>::CopyIn(uint32_t offset, uint32_t count)
{
    LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
    LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
    DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
    DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
    DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
}

template <typename T>
__aicore__ inline void KernelAdd<T>::Compute(uint32_t count)
{
    LocalTensor<T> xLocal = inQueueX.DeQue<T>();
    LocalTensor<T> yLocal = inQueueY.DeQue<T>();
    LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
    if constexpr (NEED_CAST) {
        LocalTensor<float> xFloat = castBufX.Get<float>();
        LocalTensor<float> yFloat = castBufY.Get<float>();
        Cast(xFloat, xLocal, RoundMode::CAST_NONE, count);
        Cast(yFloat, yLocal, RoundMode::CAST_NONE, count);
        Add(xFloat, xFloat, yFloat, count);
        Cast(zLocal, xFloat, RoundMode::CAST_RINT, count);
    } else {
        Add(zLocal, xLocal, yLocal, count);
    }
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
}

template <typename T>
__aicore__ inline void KernelAdd<T>::CopyOut(uint32_t offset, uint32_t count)
{
    LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
    DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    DataCopyPad(zGm[offset], zLocal, copyParams);
    outQueueZ.FreeTensor(zLocal);
}

template <typename T, typename TilingT>
__aicore__ inline void RunAdd(GM_ADDR x, GM_ADDR y, GM_ADDR z, const TilingT &td)
{
    KernelAdd<T> op;
    op.Init(x, y, z, td.bigCoreNum, td.bigCoreLength, td.smallCoreLength, td.tileLength);
    op.Process();
}

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        RunAdd<half>(x, y, z, tilingData);
    } else if (TILING_KEY_IS(2)) {
        RunAdd<float>(x, y, z, tilingData);
    } else if (TILING_KEY_IS(3)) {
        RunAdd<bfloat16_t>(x, y, z, tilingData);
    }
}
