// The region-proposal sorts of the Atlas inference and training parts (arch 2002 and 1001) on 910B (2201):
// the declarations compile, the 2201 implementations abort with "not supported on current device".
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void proposals_on_910b(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> scoreBuf;
    TBuf<TPosition::VECCALC> proposalBuf;
    TBuf<TPosition::VECCALC> mergedBuf;
    pipe.InitBuffer(scoreBuf, 64 * sizeof(half));
    pipe.InitBuffer(proposalBuf, 64 * 8 * sizeof(half));
    pipe.InitBuffer(mergedBuf, 64 * 8 * sizeof(half));
    LocalTensor<half> scores = scoreBuf.Get<half>();
    LocalTensor<half> proposals = proposalBuf.Get<half>();
    LocalTensor<half> merged = mergedBuf.Get<half>();
    Duplicate(scores, (half)0, 64);
    ProposalConcat(proposals, scores, 4, 4);  // expected-error {{ProposalConcat does not exist on 910B2 (arch 2201); the catalog gives it to arch 1001, 2002 only}} [ASC516]
    RpSort16(proposals, proposals, 4);  // expected-error {{RpSort16 does not exist on 910B2}} [ASC516]
    uint16_t lengths[4] = {16, 16, 16, 16};
    MrgSort4Info info(lengths, false, 15, 1);
    MrgSortSrcList<half> lists(proposals, proposals[16 * 8], proposals[32 * 8], proposals[48 * 8]);
    MrgSort4(merged, lists, info);  // expected-error {{MrgSort4 does not exist on 910B2}} [ASC516]
    ProposalExtract(scores, merged, 4, 4);  // expected-error {{ProposalExtract does not exist on 910B2}} [ASC516]
}
