// DataCopy lengths read from kernel arguments: the checker cannot fold them, but some cannot all be
// multiples of 32 bytes. copy_off_by_one copies a tile in as tileLength halves and out as tileLength + 1:
// the two differ by 2 bytes. copy_odd_rows moves 2 * rows + 1 halves, an odd number of halves for any
// rows. The kernels after them must stay silent: lengths that differ by a whole block, lengths in the two
// arms of an if (one run takes one of them), a length rounded up to the block, and a local stored twice.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_off_by_one(GM_ADDR x, GM_ADDR y, uint32_t tileLength, uint32_t tiles)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> queue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * tileLength * tiles, tileLength * tiles);
    yGm.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * tileLength * tiles, tileLength * tiles);
    pipe.InitBuffer(queue, 2, tileLength * sizeof(half) + 32);
    for (uint32_t i = 0; i < tiles; i++) {
        LocalTensor<half> tile = queue.AllocTensor<half>();
        DataCopy(tile, xGm[i * tileLength], tileLength);
        // expected-note@-1 {{this DataCopy moves tileLength x half}}
        queue.EnQue(tile);
        tile = queue.DeQue<half>();
        // expected-error@+1 {{DataCopy moves (tileLength + 1) x half while another DataCopy moves tileLength x half: no value of tileLength makes both multiples of 32 bytes, so one of them is silently cut short}} [ASC408]
        DataCopy(yGm[i * tileLength], tile, tileLength + 1);
        queue.FreeTensor(tile);
    }
}

extern "C" __global__ __aicore__ void copy_odd_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> queue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    const uint32_t length = 2 * rows + 1;
    xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * length, length);
    yGm.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * length, length);
    pipe.InitBuffer(queue, 1, 4096);
    LocalTensor<half> tile = queue.AllocTensor<half>();
    // expected-error@+1 {{DataCopy moves (2*rows + 1) x half, which is not a multiple of 32 bytes for any value of rows; the bytes past the last whole block are not copied}} [ASC408]
    DataCopy(tile, xGm, length);
    queue.EnQue(tile);
    tile = queue.DeQue<half>();
    DataCopy(yGm, tile, 2 * rows + 16);
    queue.FreeTensor(tile);
}

extern "C" __global__ __aicore__ void copy_consistent(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t rest)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> queue;
    TBuf<TPosition::VECCALC> wide;
    GlobalTensor<half> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * 4096, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * 4096, 4096);
    pipe.InitBuffer(queue, 1, 8192);
    pipe.InitBuffer(wide, 16384);
    LocalTensor<half> tile = queue.AllocTensor<half>();
    DataCopy(tile, xGm, n);
    DataCopy(tile[n], xGm[n], n + 16);           // a whole block more: both can be multiples of 32 bytes
    if (rest > 0) {
        DataCopy(tile, xGm, n + 1);               // never runs with the copies in the else arm
    } else {
        DataCopy(tile, xGm, n + 3);
    }
    const uint32_t rounded = (rest + 15) / 16 * 16;
    DataCopy(tile, xGm, rounded);                 // a multiple of 16 halves whatever rest is
    DataCopy(tile, xGm, rest + 1);                // rest itself is unknown: no other copy moves rest
    uint32_t len = n;
    if (rest > n) {
        len = rest;
    }
    DataCopy(tile, xGm, len + 1);                 // len has two stores: not the n of the copies above
    queue.EnQue(tile);
    tile = queue.DeQue<half>();
    LocalTensor<float> out = wide.Get<float>();
    Cast(out, tile, RoundMode::CAST_NONE, n);
    DataCopy(yGm, out, n + 8);                    // n floats and n + 8 floats: both multiples of 32 bytes
    queue.FreeTensor(tile);
}

// A member set in either arm of an if in Init and read in Process: every load of it reads the value Init
// left, so the copy in and the copy out compare.
class KernelUnevenTiles {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t bigTile, uint32_t smallTile, uint32_t bigCores)
    {
        if (GetBlockIdx() < bigCores) {
            tileLength = bigTile;
        } else {
            tileLength = smallTile;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * bigTile, tileLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * bigTile, tileLength);
        pipe.InitBuffer(queue, 1, bigTile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> tile = queue.AllocTensor<float>();
        // expected-error@+1 {{DataCopy moves (tileLength - 2) x float while another DataCopy moves tileLength x float}} [ASC408]
        DataCopy(tile, xGm, tileLength - 2);
        queue.EnQue(tile);
        tile = queue.DeQue<float>();
        Abs(tile, tile, tileLength);
        DataCopy(yGm, tile, tileLength);  // expected-note {{this DataCopy moves tileLength x float}}
        queue.FreeTensor(tile);
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> queue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void copy_uneven_tiles(GM_ADDR x, GM_ADDR y, uint32_t bigTile, uint32_t smallTile,
                                                        uint32_t bigCores)
{
    KernelUnevenTiles op;
    op.Init(x, y, bigTile, smallTile, bigCores);
    op.Process();
}

// Two ifs on one stored bool take the same arm in a run: the copy in and the copy out of a full tile
// compare. Ifs on two different conditions may take different arms, so their copies do not.
extern "C" __global__ __aicore__ void copy_full_tiles(GM_ADDR x, GM_ADDR y, uint32_t tileLength, uint32_t count,
                                                      uint32_t other)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> queue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * tileLength, tileLength);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * tileLength, tileLength);
    pipe.InitBuffer(queue, 1, tileLength * sizeof(float) + 32);
    const bool fullTile = (count == tileLength);
    LocalTensor<float> tile = queue.AllocTensor<float>();
    if (fullTile) {
        DataCopy(tile, xGm, count);  // expected-note {{this DataCopy moves count x float}}
    }
    if (count > other) {
        DataCopy(tile, xGm, count + 1);  // another condition: this copy may run without the one above
    }
    queue.EnQue(tile);
    tile = queue.DeQue<float>();
    if (fullTile) {
        // expected-error@+1 {{DataCopy moves (count + 4) x float while another DataCopy moves count x float}} [ASC408]
        DataCopy(yGm, tile, count + 4);
    }
    queue.FreeTensor(tile);
}

// Reads of one tiling field are one value, and a product is a multiple of what its factors are multiples
// of: with cols floats a whole number of blocks, rows * cols + 1 floats is not.
struct RowsTilingData {
    uint32_t rows;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void copy_rows_and_gamma(GM_ADDR x, GM_ADDR gamma, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECIN, 1> gammaQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> gammaGm;
    const uint32_t total = tilingData.rows * tilingData.cols;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * total, total);
    gammaGm.SetGlobalBuffer((__gm__ float *)gamma, tilingData.cols);
    pipe.InitBuffer(inQueue, 1, total * sizeof(float) + 32);
    pipe.InitBuffer(gammaQueue, 1, tilingData.cols * sizeof(float));
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    LocalTensor<float> gammaLocal = gammaQueue.AllocTensor<float>();
    // expected-error@+1 {{DataCopy moves (cols*rows + 1) x float while another DataCopy moves cols x float: no values of cols and rows make both multiples of 32 bytes, so one of them is silently cut short}} [ASC408]
    DataCopy(xLocal, xGm, total + 1);
    DataCopy(gammaLocal, gammaGm, tilingData.cols);  // expected-note {{this DataCopy moves cols x float}}
    DataCopy(xLocal, xGm, tilingData.rows * 8 + 8);  // rows * 8 floats: whole blocks for any rows
    inQueue.EnQue(xLocal);
    gammaQueue.EnQue(gammaLocal);
    xLocal = inQueue.DeQue<float>();
    gammaLocal = gammaQueue.DeQue<float>();
    inQueue.FreeTensor(xLocal);
    gammaQueue.FreeTensor(gammaLocal);
}

// Two inputs in one buffer: y = both[tileLength] is a Sub operand, so tileLength floats must be whole
// blocks, and the copy out of tileLength + 1 floats cannot be.
extern "C" __global__ __aicore__ void copy_after_split_buffer(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t tileLength)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * tileLength, tileLength + 8);
    pipe.InitBuffer(inQueue, 1, 2 * tileLength * sizeof(float));
    pipe.InitBuffer(outQueue, 1, tileLength * sizeof(float) + 32);
    LocalTensor<float> both = inQueue.AllocTensor<float>();
    Duplicate(both, 1.0f, 2 * tileLength);
    inQueue.EnQue(both);
    both = inQueue.DeQue<float>();
    LocalTensor<float> second = both[tileLength];
    LocalTensor<float> diff = outQueue.AllocTensor<float>();
    Sub(diff, both, second, tileLength);  // expected-note {{this Sub's src1 starts tileLength x float into its tensor}}
    outQueue.EnQue(diff);
    diff = outQueue.DeQue<float>();
    // expected-error@+1 {{DataCopy moves (tileLength + 1) x float while Sub's src1 starts tileLength x float into its tensor: no value of tileLength makes both multiples of 32 bytes, so one of them is silently cut short}} [ASC408]
    DataCopy(zGm, diff, tileLength + 1);
    outQueue.FreeTensor(diff);
    inQueue.FreeTensor(both);
}
