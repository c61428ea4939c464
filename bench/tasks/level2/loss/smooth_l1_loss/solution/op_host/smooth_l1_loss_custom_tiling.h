/**
 * @file smooth_l1_loss_custom_tiling.h
 * @brief Tiling data of SmoothL1LossCustom: the flattened tensors split over the AIV cores in 32-byte blocks.
 */
#ifndef SMOOTH_L1_LOSS_CUSTOM_TILING_H
#define SMOOTH_L1_LOSS_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SmoothL1LossCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of every tensor
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
    TILING_DATA_FIELD_DEF(float, beta);                          // attribute beta
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SmoothL1LossCustom, SmoothL1LossCustomTilingData)
} // namespace optiling

#endif // SMOOTH_L1_LOSS_CUSTOM_TILING_H
