/**
 * @file dequant_cast_flags.cpp
 * @brief y = float(x) * scale for int16 x, TPipe-free with fine-grained double-buffer flags.
 *
 * Two input slots and two output slots. Instead of one coarse MTE3 -> MTE2 hand-back, each
 * resource is released by the unit that last used it:
 *   input slot  : free again once the vector unit has consumed it   (V_MTE2)
 *   output slot : free again once MTE3 has written it to GM          (MTE3_V)
 * Both back-pressure events are pre-set for the two slots before the loop and drained after it.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t TILE_ELEMS = 4096;
constexpr uint32_t SLOTS = 2;

struct DequantTiling {
    uint32_t blockLength; // elements per core, multiple of TILE_ELEMS
    float scale;
};
} // namespace

extern "C" __global__ __aicore__ void dequant_cast_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    InitSocState();
    const auto *td = reinterpret_cast<__gm__ DequantTiling *>(tiling);
    const uint32_t blockLength = td->blockLength;
    const float scale = td->scale;

    GlobalTensor<int16_t> xGm;
    GlobalTensor<float> yGm;
    const uint64_t base = static_cast<uint64_t>(blockLength) * GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ int16_t *)x + base, blockLength);
    yGm.SetGlobalBuffer((__gm__ float *)y + base, blockLength);

    LocalMemAllocator<Hardware::UB> ubAllocator;
    LocalTensor<int16_t> xSlot[SLOTS];
    LocalTensor<float> ySlot[SLOTS];
    for (uint32_t s = 0; s < SLOTS; ++s) {
        xSlot[s] = ubAllocator.Alloc<int16_t, TILE_ELEMS>();
        ySlot[s] = ubAllocator.Alloc<float, TILE_ELEMS>();
    }

    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID1);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID1);

    const uint32_t tiles = blockLength / TILE_ELEMS;
    for (uint32_t t = 0; t < tiles; ++t) {
        const uint32_t s = t & 1U;
        const event_t ev = (s == 0) ? EVENT_ID0 : EVENT_ID1;
        const uint64_t offset = static_cast<uint64_t>(t) * TILE_ELEMS;

        WaitFlag<HardEvent::V_MTE2>(ev);            // vector is done reading xSlot[s]
        DataCopy(xSlot[s], xGm[offset], TILE_ELEMS);
        SetFlag<HardEvent::MTE2_V>(ev);

        WaitFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE3_V>(ev);            // MTE3 is done reading ySlot[s]
        Cast(ySlot[s], xSlot[s], RoundMode::CAST_NONE, TILE_ELEMS);
        Muls(ySlot[s], ySlot[s], scale, TILE_ELEMS);
        SetFlag<HardEvent::V_MTE2>(ev);
        SetFlag<HardEvent::V_MTE3>(ev);

        WaitFlag<HardEvent::V_MTE3>(ev);
        DataCopy(yGm[offset], ySlot[s], TILE_ELEMS);
        SetFlag<HardEvent::MTE3_V>(ev);
    }

    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID1);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
}

#ifndef ASCENDC_CPU_DEBUG
void dequant_cast_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    dequant_cast_custom<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
#endif
