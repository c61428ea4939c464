// Tile loops whose length is the smaller of what is left and a tile: std::min, min, or a ternary. The length is
// unknown (it depends on the loop's position) but never more than the tile, and a whole tile on every full pass,
// so a queue buffer smaller than a tile overflows (here `TILE + sizeof(half)` bytes where `TILE * sizeof(half)`
// was meant). The buffers of one tile hold every length.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 1024;
constexpr uint32_t LENGTH = 5000;

class KernelTiles {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y, LENGTH);
        pipe.InitBuffer(inQueue, 2, TILE + sizeof(half));
        pipe.InitBuffer(outQueue, 2, TILE * sizeof(half));
        pipe.InitBuffer(calcBuf, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t pos = 0; pos < LENGTH; pos += TILE) {
            uint32_t n = std::min(LENGTH - pos, TILE);
            LocalTensor<half> x = inQueue.AllocTensor<half>();
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
            DataCopyPadExtParams<half> pad{false, 0, 0, 0};
            DataCopyPad(x, xGm[pos], params, pad);  // expected-error {{DataCopyPad goes through up to 2048 bytes (blockCount 1 x blockLen 2048 bytes) of dst, but inQueue's buffer has 1056 bytes from that tensor's start}} [ASC304]
            inQueue.EnQue(x);
            x = inQueue.DeQue<half>();
            uint32_t m = (LENGTH - pos) < TILE ? (LENGTH - pos) : TILE;
            Muls(x, x, (half)2.0, m);  // expected-error {{Muls goes through up to 1024 x half = 2048 bytes of dst, but inQueue's buffer has 1056 bytes}} [ASC304]
            LocalTensor<float> wide = calcBuf.Get<float>();
            uint32_t k = (LENGTH - pos) > TILE ? TILE : (LENGTH - pos);
            Cast(wide, x, RoundMode::CAST_NONE, k);  // expected-error {{Cast goes through up to 1024 x half = 2048 bytes of src, but inQueue's buffer has 1056 bytes}} [ASC304]
            LocalTensor<half> y = outQueue.AllocTensor<half>();
            Cast(y, wide, RoundMode::CAST_RINT, min(LENGTH - pos, TILE));
            inQueue.FreeTensor(x);
            outQueue.EnQue(y);
            y = outQueue.DeQue<half>();
            DataCopyExtParams out{1, static_cast<uint32_t>(k * sizeof(half)), 0, 0, 0};
            DataCopyPad(yGm[pos], y, out);
            outQueue.FreeTensor(y);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<half> xGm, yGm;
};

extern "C" __global__ __aicore__ void scale_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelTiles op;
    op.Init(x, y);
    op.Process();
}
