/**
 * @file kl_div_custom_tiling.h
 * @brief Tiling data of KlDivCustom: the flattened tensors split over the AIV cores in 32-byte blocks.
 */
#ifndef KL_DIV_CUSTOM_TILING_H
#define KL_DIV_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KlDivCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of every tensor
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KlDivCustom, KlDivCustomTilingData)
} // namespace optiling

#endif // KL_DIV_CUSTOM_TILING_H
