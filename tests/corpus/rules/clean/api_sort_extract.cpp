// Top-k style ordering of 64 scores on one core: Concat prepares the scores, Sort orders two runs of 32,
// MrgSort merges the runs, Extract splits the result into scores and their original indices. Buffer
// sizes come from GetSortLen (bytes of sort data per element count).
#include "kernel_operator.h"

constexpr uint32_t COUNT = 64;
constexpr uint32_t RUN = 32;

extern "C" __global__ __aicore__ void sort_scores(GM_ADDR scores, GM_ADDR sortedScores, GM_ADDR sortedIndex,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::GlobalTensor<float> inGm;
    AscendC::GlobalTensor<float> valueGm;
    AscendC::GlobalTensor<uint32_t> indexGm;
    inGm.SetGlobalBuffer((__gm__ float *)scores, COUNT);
    valueGm.SetGlobalBuffer((__gm__ float *)sortedScores, COUNT);
    indexGm.SetGlobalBuffer((__gm__ uint32_t *)sortedIndex, COUNT);

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scoreBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> indexBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> concatBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sortedBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> mergedBuf;
    pipe.InitBuffer(scoreBuf, COUNT * sizeof(float));
    pipe.InitBuffer(indexBuf, COUNT * sizeof(uint32_t));
    pipe.InitBuffer(concatBuf, 1024);
    pipe.InitBuffer(tmpBuf, 1024);
    pipe.InitBuffer(sortedBuf, 1024);
    pipe.InitBuffer(mergedBuf, 1024);
    AscendC::LocalTensor<float> score = scoreBuf.Get<float>();
    AscendC::LocalTensor<uint32_t> index = indexBuf.Get<uint32_t>();
    AscendC::LocalTensor<float> concat = concatBuf.Get<float>();
    AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
    AscendC::LocalTensor<float> sorted = sortedBuf.Get<float>(AscendC::GetSortLen<float>(COUNT) / sizeof(float));
    AscendC::LocalTensor<float> merged = mergedBuf.Get<float>();

    AscendC::DataCopy(score, inGm, COUNT);
    AscendC::ArithProgression<int32_t>(index.ReinterpretCast<int32_t>(), 0, 1, COUNT);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);

    AscendC::Concat(concat, score, tmp, COUNT / 16);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Sort<float, false>(sorted, concat, index, tmp, COUNT / RUN);
    AscendC::PipeBarrier<PIPE_V>();

    uint32_t secondRun = AscendC::GetSortOffset<float>(RUN) / sizeof(float);
    AscendC::MrgSortSrcList<float> lists(sorted, sorted[secondRun], sorted, sorted);
    uint16_t lengths[4] = {RUN, RUN, 0, 0};
    uint32_t consumed[4] = {0, 0, 0, 0};
    AscendC::MrgSort<float>(merged, lists, lengths, consumed, 0b11, 1);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Extract(score, index, merged, COUNT / RUN);

    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(valueGm, score, COUNT);
    AscendC::DataCopy(indexGm, index, COUNT);
}
