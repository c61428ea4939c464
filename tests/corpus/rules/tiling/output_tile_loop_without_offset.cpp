// Launched on 8 blocks. The elements are split unevenly (the last core gets the remainder) and each core
// walks its share in tiles with a while loop whose trip count differs between cores. x is offset by the
// core's start, y is not: on the first iteration every core stores its first tile at y[0], and the later
// tiles land wherever `offset` has got to on that core. The grid-strided kernel below also leaves its
// GlobalTensor without a core offset, but its loop starts at the block index, so its writes are apart.
#include "acl/acl.h"
#include "kernel_operator.h"

constexpr uint32_t TILE_LENGTH = 1024;
constexpr int32_t BUFFER_NUM = 2;

class KernelUnevenCopy {
public:
    __aicore__ inline KernelUnevenCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total)
    {
        const uint32_t per = total / AscendC::GetBlockNum();
        const uint32_t start = per * AscendC::GetBlockIdx();
        coreLength = AscendC::GetBlockIdx() == AscendC::GetBlockNum() - 1 ? total - start : per;
        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y, coreLength);
        pipe.InitBuffer(queue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t offset = 0;
        while (offset < coreLength) {
            const uint32_t len = coreLength - offset < TILE_LENGTH ? coreLength - offset : TILE_LENGTH;
            AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
            AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(tile, xGm[offset], params, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
            queue.EnQue(tile);
            tile = queue.DeQue<float>();
            // expected-error@+1 {{all 8 cores write the same elements of 'yGm' in the first iteration of the loop around it: the address of this copy does not depend on GetBlockIdx()}} [ASC606]
            AscendC::DataCopyPad(yGm[offset], tile, params);
            queue.FreeTensor(tile);
            offset += len;
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t coreLength = 0;
};

__global__ __aicore__ void uneven_copy(GM_ADDR x, GM_ADDR y, uint32_t total)
{
    KernelUnevenCopy op;
    op.Init(x, y, total);
    op.Process();
}

__global__ __aicore__ void strided_copy(GM_ADDR x, GM_ADDR y, uint32_t tiles)
{
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, tiles * TILE_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y, tiles * TILE_LENGTH);
    pipe.InitBuffer(queue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    for (uint32_t t = AscendC::GetBlockIdx(); t < tiles; t += AscendC::GetBlockNum()) {
        AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
        AscendC::DataCopy(tile, xGm[t * TILE_LENGTH], TILE_LENGTH);
        queue.EnQue(tile);
        tile = queue.DeQue<float>();
        AscendC::DataCopy(yGm[t * TILE_LENGTH], tile, TILE_LENGTH);
        queue.FreeTensor(tile);
    }
}

void Launch(uint8_t *x, uint8_t *y, uint32_t total, aclrtStream stream)
{
    uneven_copy<<<8, nullptr, stream>>>(x, y, total);
    strided_copy<<<8, nullptr, stream>>>(x, y, total / TILE_LENGTH);
}
