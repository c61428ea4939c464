/**
 * @file attention_custom.cpp
 * @brief AttentionCustom kernel (mixed cube + vector): out = softmax(scale * q @ k^T) @ v per batch, q / k / v
 *        [B, S, D] fp16, out [B, S, D] fp32.
 *
 * The work is cut into units of rowsPerUnit query rows of one batch; each vector core (AIV) takes units in turn:
 *   1. the cube computes the unit's scores q_rows @ k^T into the core's fp32 workspace block   (Matmul API, mm1)
 *   2. the vector core turns every score row into fp16 probabilities (max-subtracted, in fp32)
 *   3. the cube computes probabilities @ v straight into the unit's rows of out               (Matmul API, mm2)
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t STAT_FLOATS = 8;

using QType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using KtType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true>;   // k read transposed
using ScoreType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using ProbType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using VType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using OutType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
} // namespace

class KernelAttention {
public:
    __aicore__ inline KernelAttention() {}

    __aicore__ inline void Run(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR userWorkspace,
                               const TCubeTiling &scoreTiling, const TCubeTiling &outTiling,
                               const AttentionCustomTilingData &td)
    {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &scoreTiling, mm2, &outTiling);
        if ASCEND_IS_AIV {
            const uint32_t blockIdx = AscendC::GetBlockIdx();
            if (blockIdx >= td.usedCores) {
                return;
            }
            const uint32_t batches = td.batches;
            const uint32_t headDim = td.headDim;
            const uint32_t rowsPerUnit = td.rowsPerUnit;
            seq = td.seq;
            rowsPerTile = td.rowsPerTile;
            scale = td.scale;
            pitch = td.pitch;

            // this core's workspace: a unit's fp32 scores, then its fp16 probabilities
            GM_ADDR own = userWorkspace + static_cast<uint64_t>(blockIdx) * (td.scoreBytes + td.probBytes);
            const uint64_t unitElems = static_cast<uint64_t>(rowsPerUnit) * seq;
            scoresGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(own), unitElems);
            probsGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(own + td.scoreBytes), unitElems);
            pipe.InitBuffer(scoreQueue, BUFFER_NUM, rowsPerTile * pitch * sizeof(float));
            pipe.InitBuffer(probQueue, BUFFER_NUM, rowsPerTile * pitch * sizeof(half));
            pipe.InitBuffer(workBuf, pitch * sizeof(float));
            pipe.InitBuffer(statBuf, STAT_FLOATS * sizeof(float));

            const uint32_t blocksPerBatch = (seq + rowsPerUnit - 1) / rowsPerUnit;
            for (uint32_t unit = blockIdx; unit < batches * blocksPerBatch; unit += td.usedCores) {
                const uint32_t batch = unit / blocksPerBatch;
                const uint32_t row0 = (unit % blocksPerBatch) * rowsPerUnit;
                const uint32_t rows = (seq - row0) < rowsPerUnit ? (seq - row0) : rowsPerUnit;
                const uint64_t matrix = static_cast<uint64_t>(batch) * seq * headDim;
                AscendC::GlobalTensor<half> qGm;
                AscendC::GlobalTensor<half> kGm;
                AscendC::GlobalTensor<half> vGm;
                AscendC::GlobalTensor<float> outGm;
                qGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(q) + matrix +
                                    static_cast<uint64_t>(row0) * headDim);
                kGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(k) + matrix);
                vGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(v) + matrix);
                outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out) + matrix +
                                      static_cast<uint64_t>(row0) * headDim);

                mm1.SetTail(static_cast<int32_t>(rows), static_cast<int32_t>(seq), static_cast<int32_t>(headDim));
                mm1.SetTensorA(qGm);
                mm1.SetTensorB(kGm, true);
                mm1.IterateAll(scoresGm);
                Softmax(rows);
                mm2.SetTail(static_cast<int32_t>(rows), static_cast<int32_t>(headDim), static_cast<int32_t>(seq));
                mm2.SetTensorA(probsGm);
                mm2.SetTensorB(vGm);
                mm2.IterateAll(outGm);
            }
            mm1.End();
            mm2.End();
        }
    }

private:
    // probabilities of `rows` score rows: scoresGm (fp32) -> probsGm (fp16), rowsPerTile rows at a time
    __aicore__ inline void Softmax(uint32_t rows)
    {
        for (uint32_t row = 0; row < rows; row += rowsPerTile) {
            const uint32_t n = (rows - row) < rowsPerTile ? (rows - row) : rowsPerTile;
            AscendC::LocalTensor<float> s = scoreQueue.AllocTensor<float>();
            // fp32 rows land at whole 32-byte blocks of fp32; pitch (whole blocks of fp16) may be one block more
            const uint32_t gap = (pitch - (seq + 7) / 8 * 8) * sizeof(float) / 32;
            AscendC::DataCopyExtParams in{static_cast<uint16_t>(n), static_cast<uint32_t>(seq * sizeof(float)), 0, gap,
                                          0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(s, scoresGm[static_cast<uint64_t>(row) * seq], in, pad);
            scoreQueue.EnQue(s);
            s = scoreQueue.DeQue<float>();
            AscendC::LocalTensor<half> p = probQueue.AllocTensor<half>();
            for (uint32_t r = 0; r < n; ++r) {
                AscendC::LocalTensor<float> x = s[r * pitch];
                const float rowMax = ScalarOf(ReduceTo(x, true));
                AscendC::Adds(x, x, -rowMax, seq);
                AscendC::Muls(x, x, scale, seq);   // scale > 0: the maximum of scale * x is scale * max
                AscendC::Exp(x, x, seq);
                const float rowSum = ScalarOf(ReduceTo(x, false));
                AscendC::Muls(x, x, 1.0f / rowSum, seq);
                AscendC::Cast(p[r * pitch], x, AscendC::RoundMode::CAST_RINT, seq);
            }
            probQueue.EnQue(p);
            scoreQueue.FreeTensor(s);
            p = probQueue.DeQue<half>();
            AscendC::DataCopyExtParams outParams{static_cast<uint16_t>(n), static_cast<uint32_t>(seq * sizeof(half)), 0,
                                                 0, 0};
            AscendC::DataCopyPad(probsGm[static_cast<uint64_t>(row) * seq], p, outParams);
            probQueue.FreeTensor(p);
        }
        // the cube reads the probabilities next: the stores must have landed
        event_t mte3ToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE3_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(mte3ToS);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(mte3ToS);
    }

    // the row's maximum (or sum) into the statistics slot
    __aicore__ inline AscendC::LocalTensor<float> ReduceTo(const AscendC::LocalTensor<float> &x, bool maximum)
    {
        AscendC::LocalTensor<float> stat = statBuf.Get<float>();
        if (maximum) {
            AscendC::ReduceMax<float>(stat, x, workBuf.Get<float>(), seq);
        } else {
            AscendC::ReduceSum<float>(stat, x, workBuf.Get<float>(), seq);
        }
        return stat;
    }

    __aicore__ inline float ScalarOf(const AscendC::LocalTensor<float> &t)
    {
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
        return t.GetValue(0);
    }

    AscendC::TPipe pipe;
    Matmul<QType, KtType, ScoreType, BiasType, CFG_MDL> mm1;
    Matmul<ProbType, VType, OutType, BiasType, CFG_MDL> mm2;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> scoreQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> probQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> statBuf;
    AscendC::GlobalTensor<float> scoresGm;
    AscendC::GlobalTensor<half> probsGm;
    uint32_t seq = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void attention_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWorkspace = GetUserWorkspace(workspace);
    KernelAttention op;
    op.Run(q, k, v, out, userWorkspace, tilingData.scoreTiling, tilingData.outTiling, tilingData);
}
