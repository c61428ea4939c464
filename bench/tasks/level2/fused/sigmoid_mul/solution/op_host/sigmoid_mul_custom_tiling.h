/**
 * @file sigmoid_mul_custom_tiling.h
 * @brief Tiling data of SigmoidMulCustom: the flattened tensors split over the AIV cores in 32-byte blocks.
 */
#ifndef SIGMOID_MUL_CUSTOM_TILING_H
#define SIGMOID_MUL_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SigmoidMulCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of every tensor
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SigmoidMulCustom, SigmoidMulCustomTilingData)
} // namespace optiling

#endif // SIGMOID_MUL_CUSTOM_TILING_H
