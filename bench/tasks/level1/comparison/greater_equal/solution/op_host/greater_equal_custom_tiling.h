/**
 * @file greater_equal_custom_tiling.h
 * @brief Tiling data of GreaterEqualCustom: the flattened tensors split over the AIV cores in 32-element units.
 */
#ifndef GREATER_EQUAL_CUSTOM_TILING_H
#define GREATER_EQUAL_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GreaterEqualCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of x1, x2 and y
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 256
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GreaterEqualCustom, GreaterEqualCustomTilingData)
} // namespace optiling

#endif // GREATER_EQUAL_CUSTOM_TILING_H
