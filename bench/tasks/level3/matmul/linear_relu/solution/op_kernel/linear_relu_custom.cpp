/**
 * @file linear_relu_custom.cpp
 * @brief LinearReluCustom kernel (cube only, basic cube API): y[M, N] fp32 = relu(x[M, K] fp16 @ w[N, K]^T fp16).
 *
 * y is cut into BASE_M x BASE_N tiles, dealt round-robin to the AI Cube cores. Per tile and BASE_K slice of K:
 * x and w slices go GM -> L1 as NZ fractals (DataCopy ND2NZ, which zero-fills K past its end), L1 -> L0A / L0B
 * (LoadData), and Mmad accumulates into L0C; the Fixpipe writes the tile to GM as ND rows with ReLU on the way.
 * Both operands keep K contiguous, so each 16 x 16 fractal of w already is the n-major block L0B wants: w's
 * slice moves to L0B with one LoadData, no transpose. The queues give the MTE2 -> MTE1 -> M -> FIX order.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"

namespace {
constexpr uint32_t BASE_M = 64;
constexpr uint32_t BASE_N = 64;
constexpr uint32_t BASE_K = 128;
constexpr uint32_t FRACTAL = 16;                         // a fractal is 16 x 16 halves, 512 bytes
constexpr uint32_t FRACTAL_ELEMS = FRACTAL * FRACTAL;

__aicore__ inline uint32_t AlignFractal(uint32_t v)
{
    return (v + FRACTAL - 1) / FRACTAL * FRACTAL;
}
} // namespace

class KernelLinearRelu {
public:
    __aicore__ inline KernelLinearRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const LinearReluCustomTilingData &td)
    {
        m = td.m;
        n = td.n;
        k = td.k;
        tilesN = td.tilesN;
        tiles = td.tilesM * td.tilesN;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), static_cast<uint64_t>(m) * k);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(w), static_cast<uint64_t>(n) * k);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), static_cast<uint64_t>(m) * n);
        pipe.InitBuffer(xL1Queue, 1, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(wL1Queue, 1, BASE_N * BASE_K * sizeof(half));
        pipe.InitBuffer(xL0Queue, 1, BASE_M * BASE_K * sizeof(half));
        pipe.InitBuffer(wL0Queue, 1, BASE_N * BASE_K * sizeof(half));
        pipe.InitBuffer(accQueue, 1, BASE_M * BASE_N * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t tile = AscendC::GetBlockIdx(); tile < tiles; tile += AscendC::GetBlockNum()) {
            const uint32_t m0 = tile / tilesN * BASE_M;
            const uint32_t n0 = tile % tilesN * BASE_N;
            const uint32_t tm = (m - m0) < BASE_M ? (m - m0) : BASE_M;
            const uint32_t tn = (n - n0) < BASE_N ? (n - n0) : BASE_N;
            AscendC::LocalTensor<float> acc = accQueue.AllocTensor<float>();
            for (uint32_t k0 = 0; k0 < k; k0 += BASE_K) {
                const uint32_t tk = (k - k0) < BASE_K ? (k - k0) : BASE_K;
                LoadL1(m0, n0, k0, tm, tn, tk);
                LoadL0(tm, tn, tk);
                Multiply(acc, tm, tn, tk, k0 == 0);
            }
            accQueue.EnQue(acc);
            Store(m0, n0, tm, tn);
        }
    }

private:
    // GM -> L1: the x and w slices as NZ fractals (tm / tn rows, tk columns, K zero-filled to a fractal)
    __aicore__ inline void LoadL1(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t tm, uint32_t tn, uint32_t tk)
    {
        AscendC::LocalTensor<half> xL1 = xL1Queue.AllocTensor<half>();
        AscendC::LocalTensor<half> wL1 = wL1Queue.AllocTensor<half>();
        AscendC::Nd2NzParams xParams{1, static_cast<uint16_t>(tm), static_cast<uint16_t>(tk), 0,
                                     static_cast<uint16_t>(k), static_cast<uint16_t>(AlignFractal(tm)), 1, 0};
        AscendC::Nd2NzParams wParams{1, static_cast<uint16_t>(tn), static_cast<uint16_t>(tk), 0,
                                     static_cast<uint16_t>(k), static_cast<uint16_t>(AlignFractal(tn)), 1, 0};
        AscendC::DataCopy(xL1, xGm[static_cast<uint64_t>(m0) * k + k0], xParams);
        AscendC::DataCopy(wL1, wGm[static_cast<uint64_t>(n0) * k + k0], wParams);
        xL1Queue.EnQue(xL1);
        wL1Queue.EnQue(wL1);
    }

    // L1 -> L0: x row-block by row-block into L0A's zZ order; w's fractals are already in L0B's order
    __aicore__ inline void LoadL0(uint32_t tm, uint32_t tn, uint32_t tk)
    {
        const uint32_t mBlocks = AlignFractal(tm) / FRACTAL;
        const uint32_t kBlocks = AlignFractal(tk) / FRACTAL;
        const uint32_t nBlocks = AlignFractal(tn) / FRACTAL;
        AscendC::LocalTensor<half> xL1 = xL1Queue.DeQue<half>();
        AscendC::LocalTensor<half> xL0 = xL0Queue.AllocTensor<half>();
        for (uint32_t i = 0; i < mBlocks; ++i) {
            AscendC::LoadData2DParams params{0, static_cast<uint8_t>(kBlocks), static_cast<uint16_t>(mBlocks), 0, 0,
                                             false, 0};
            AscendC::LoadData(xL0[i * kBlocks * FRACTAL_ELEMS], xL1[i * FRACTAL_ELEMS], params);
        }
        xL0Queue.EnQue(xL0);
        xL1Queue.FreeTensor(xL1);

        AscendC::LocalTensor<half> wL1 = wL1Queue.DeQue<half>();
        AscendC::LocalTensor<half> wL0 = wL0Queue.AllocTensor<half>();
        AscendC::LoadData2DParams params{0, static_cast<uint8_t>(kBlocks * nBlocks), 1, 0, 0, false, 0};
        AscendC::LoadData(wL0, wL1, params);
        wL0Queue.EnQue(wL0);
        wL1Queue.FreeTensor(wL1);
    }

    __aicore__ inline void Multiply(const AscendC::LocalTensor<float> &acc, uint32_t tm, uint32_t tn, uint32_t tk,
                                    bool first)
    {
        AscendC::LocalTensor<half> xL0 = xL0Queue.DeQue<half>();
        AscendC::LocalTensor<half> wL0 = wL0Queue.DeQue<half>();
        // whole 16-row fractals of x: m = 1 would switch the cube to GEMV, which reads A as one plain row (the
        // padding rows only feed output rows the fixpipe leaves out). The first K slice starts the sum at zero,
        // the others add to what L0C holds.
        AscendC::MmadParams params{static_cast<uint16_t>(AlignFractal(tm)), static_cast<uint16_t>(tn),
                                   static_cast<uint16_t>(tk), 0, false, first};
        AscendC::Mmad(acc, xL0, wL0, params);
        xL0Queue.FreeTensor(xL0);
        wL0Queue.FreeTensor(wL0);
    }

    // L0C -> GM: NZ to ND rows of y, ReLU applied by the fixpipe
    __aicore__ inline void Store(uint32_t m0, uint32_t n0, uint32_t tm, uint32_t tn)
    {
        AscendC::LocalTensor<float> acc = accQueue.DeQue<float>();
        AscendC::FixpipeParamsV220 params;
        params.nSize = static_cast<uint16_t>(tn);
        params.mSize = static_cast<uint16_t>(tm);
        params.srcStride = static_cast<uint16_t>(AlignFractal(tm));
        params.dstStride = n;
        params.reluEn = true;
        params.quantPre = QuantMode_t::NoQuant;
        AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(yGm[static_cast<uint64_t>(m0) * n + n0], acc, params);
        accQueue.FreeTensor(acc);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> xL1Queue;
    AscendC::TQue<AscendC::TPosition::B1, 1> wL1Queue;
    AscendC::TQue<AscendC::TPosition::A2, 1> xL0Queue;
    AscendC::TQue<AscendC::TPosition::B2, 1> wL0Queue;
    AscendC::TQue<AscendC::TPosition::CO1, 1> accQueue;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> wGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t m = 0;
    uint32_t n = 0;
    uint32_t k = 0;
    uint32_t tilesN = 0;
    uint32_t tiles = 0;
};

extern "C" __global__ __aicore__ void linear_relu_custom(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    KernelLinearRelu op;
    op.Init(x, w, y, tilingData);
    op.Process();
}
