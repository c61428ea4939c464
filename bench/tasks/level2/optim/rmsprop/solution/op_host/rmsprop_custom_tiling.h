/**
 * @file rmsprop_custom_tiling.h
 * @brief Tiling data of RmspropCustom: the flattened tensors split over the AIV cores in 32-byte blocks, and the
 *        step's scalars.
 */
#ifndef RMSPROP_CUSTOM_TILING_H
#define RMSPROP_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmspropCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of every tensor
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
    TILING_DATA_FIELD_DEF(float, lr);                            // learning rate
    TILING_DATA_FIELD_DEF(float, alpha);                         // smoothing constant
    TILING_DATA_FIELD_DEF(float, oneMinusAlpha);                 // 1 - alpha
    TILING_DATA_FIELD_DEF(float, eps);                           // added to the denominator
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmspropCustom, RmspropCustomTilingData)
} // namespace optiling

#endif // RMSPROP_CUSTOM_TILING_H
