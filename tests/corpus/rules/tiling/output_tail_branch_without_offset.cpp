// Launched on 8 blocks. Each core gets a share of whole tiles; the last core's share may be shorter or
// empty. x is offset by the core's start, y is not. A core with no work returns at once, a tile of length
// zero ends the loop with break, and a short tile is written with DataCopyPad instead of DataCopy. Every
// core with work still writes its first tile to y[0], through one arm or the other. The kernels after it
// stay silent: one writes from core 0 only, one returns early on every core but core 0.
#include "acl/acl.h"
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelTailCopy {
public:
    __aicore__ inline KernelTailCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tileLength, uint32_t tiles)
    {
        this->tileLength = tileLength;
        this->tiles = tiles;
        const uint32_t start = tiles * tileLength * AscendC::GetBlockIdx();
        if (start >= total) {
            coreLength = 0;
        } else {
            coreLength = total - start < tiles * tileLength ? total - start : tiles * tileLength;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y, coreLength);
        pipe.InitBuffer(queue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        for (uint32_t i = 0; i < tiles; i++) {
            const uint32_t offset = i * tileLength;
            const uint32_t len = offset >= coreLength ? 0 : (coreLength - offset < tileLength ? coreLength - offset : tileLength);
            if (len == 0) {
                break;
            }
            AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
            AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(tile, xGm[offset], params, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
            queue.EnQue(tile);
            tile = queue.DeQue<float>();
            if (len == tileLength) {
                // expected-error@+1 {{all 8 cores write the same elements of 'yGm' in the first iteration of the loop around it: the address of this copy does not depend on GetBlockIdx()}} [ASC606]
                AscendC::DataCopy(yGm[offset], tile, tileLength);
            } else {
                // expected-error@+1 {{all 8 cores write the same elements of 'yGm' in the first iteration of the loop around it}} [ASC606]
                AscendC::DataCopyPad(yGm[offset], tile, params);
            }
            queue.FreeTensor(tile);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t tiles = 0;
};

__global__ __aicore__ void tail_copy(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tileLength, uint32_t tiles)
{
    KernelTailCopy op;
    op.Init(x, y, total, tileLength, tiles);
    op.Process();
}

// Each core reduces its slice; core 0 alone writes y (the others only read x here).
__global__ __aicore__ void first_core_writes(GM_ADDR x, GM_ADDR y, uint32_t length)
{
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> queue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + AscendC::GetBlockIdx() * length, length);
    yGm.SetGlobalBuffer((__gm__ float *)y, length);
    pipe.InitBuffer(queue, 1, 4096);
    AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
    AscendC::DataCopy(tile, xGm, 1024);
    queue.EnQue(tile);
    tile = queue.DeQue<float>();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::DataCopy(yGm, tile, 1024);
    }
    queue.FreeTensor(tile);
}

__global__ __aicore__ void others_return(GM_ADDR x, GM_ADDR y, uint32_t length)
{
    if (AscendC::GetBlockIdx() != 0) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> queue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, length);
    yGm.SetGlobalBuffer((__gm__ float *)y, length);
    pipe.InitBuffer(queue, 1, 4096);
    AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
    AscendC::DataCopy(tile, xGm, 1024);
    queue.EnQue(tile);
    tile = queue.DeQue<float>();
    AscendC::DataCopy(yGm, tile, 1024);
    queue.FreeTensor(tile);
}

// No loop: a core without work returns, every other one writes y[0 .. 1024).
__global__ __aicore__ void idle_cores_return(GM_ADDR x, GM_ADDR y, uint32_t total)
{
    const uint32_t per = total / AscendC::GetBlockNum();
    const uint32_t start = per * AscendC::GetBlockIdx();
    uint32_t len = per;
    if (start >= total) {
        len = 0;
    }
    if (len == 0) {
        return;
    }
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> queue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + start, len);
    yGm.SetGlobalBuffer((__gm__ float *)y, len);
    pipe.InitBuffer(queue, 1, 4096);
    AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
    AscendC::DataCopy(tile, xGm, 1024);
    queue.EnQue(tile);
    tile = queue.DeQue<float>();
    AscendC::DataCopy(yGm, tile, 1024);  // expected-error {{the cores with work (of 8) write the same elements of 'yGm': the address of this copy does not depend on GetBlockIdx()}} [ASC606]
    queue.FreeTensor(tile);
}

void Launch(uint8_t *x, uint8_t *y, uint32_t total, aclrtStream stream)
{
    tail_copy<<<8, nullptr, stream>>>(x, y, total, 1024, 4);
    first_core_writes<<<8, nullptr, stream>>>(x, y, 1024);
    others_return<<<8, nullptr, stream>>>(x, y, 1024);
    idle_cores_return<<<8, nullptr, stream>>>(x, y, total);
}
