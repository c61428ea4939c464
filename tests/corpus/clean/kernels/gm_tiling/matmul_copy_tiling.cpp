/**
 * @file matmul_copy_tiling.cpp
 * @brief Kernel-launch matmul (Matmul API): the host serialises a TCubeTiling into GM and the
 *        kernel copies it word by word, then sets up the system workspace itself.
 *
 * a [M, K] fp16, b [K, N] fp16, bias [N] fp32, c [M, N] fp32.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t Ceiling(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

__aicore__ inline void CopyTiling(TCubeTiling *tiling, GM_ADDR tilingGM)
{
    uint32_t *ptr = reinterpret_cast<uint32_t *>(tiling);
    auto tiling32 = reinterpret_cast<__gm__ uint32_t *>(tilingGM);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++, ptr++) {
        *ptr = *(tiling32 + i);
    }
}

__aicore__ inline void CalcGMOffset(int32_t blockIdx, const TCubeTiling &tiling, int32_t &offsetA, int32_t &offsetB,
                                    int32_t &offsetC, int32_t &offsetBias, int32_t &tailM, int32_t &tailN)
{
    const uint32_t mBlocks = Ceiling(tiling.M, tiling.singleCoreM);
    const uint32_t mIdx = blockIdx % mBlocks;
    const uint32_t nIdx = blockIdx / mBlocks;

    offsetA = mIdx * tiling.Ka * tiling.singleCoreM;
    offsetB = nIdx * tiling.singleCoreN;
    offsetC = mIdx * tiling.N * tiling.singleCoreM + nIdx * tiling.singleCoreN;
    offsetBias = nIdx * tiling.singleCoreN;

    tailM = tiling.M - mIdx * tiling.singleCoreM;
    tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
    tailN = tiling.N - nIdx * tiling.singleCoreN;
    tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;
}

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tilingGm)
{
    using A_T = half;
    using B_T = half;
    using C_T = float;
    using BiasT = float;

    AscendC::SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    AscendC::TPipe pipe;
    TCubeTiling tiling;
    CopyTiling(&tiling, tilingGm);

    AscendC::GlobalTensor<A_T> aGlobal;
    AscendC::GlobalTensor<B_T> bGlobal;
    AscendC::GlobalTensor<C_T> cGlobal;
    AscendC::GlobalTensor<BiasT> biasGlobal;
    aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ A_T *>(a), tiling.M * tiling.Ka);
    bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ B_T *>(b), tiling.Ka * tiling.N);
    cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ C_T *>(c), tiling.M * tiling.N);
    biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT *>(bias), tiling.N);

    int32_t offsetA = 0;
    int32_t offsetB = 0;
    int32_t offsetC = 0;
    int32_t offsetBias = 0;
    int32_t tailM = 0;
    int32_t tailN = 0;
    CalcGMOffset(AscendC::GetBlockIdx(), tiling, offsetA, offsetB, offsetC, offsetBias, tailM, tailN);
    auto gmA = aGlobal[offsetA];
    auto gmB = bGlobal[offsetB];
    auto gmC = cGlobal[offsetC];
    auto gmBias = biasGlobal[offsetBias];

    typedef MatmulType<AscendC::TPosition::GM, CubeFormat::ND, A_T> aType;
    typedef MatmulType<AscendC::TPosition::GM, CubeFormat::ND, B_T> bType;
    typedef MatmulType<AscendC::TPosition::GM, CubeFormat::ND, C_T> cType;
    Matmul<aType, bType, cType, MatmulType<AscendC::TPosition::GM, CubeFormat::ND, BiasT>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);

    mm.SetTensorA(gmA);
    mm.SetTensorB(gmB);
    mm.SetBias(gmBias);
    mm.SetTail(tailM, tailN);
    mm.IterateAll(gmC);
    mm.End();
}

#ifndef ASCENDC_CPU_DEBUG
void matmul_custom_do(uint32_t blockDim, void *stream, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                      GM_ADDR workspace, GM_ADDR tilingGm)
{
    matmul_custom<<<blockDim, nullptr, stream>>>(a, b, bias, c, workspace, tilingGm);
}
#endif
