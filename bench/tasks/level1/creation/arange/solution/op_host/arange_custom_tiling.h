/**
 * @file arange_custom_tiling.h
 * @brief Tiling data of ArangeCustom: the output split over the AIV cores in 32-element units.
 */
#ifndef ARANGE_CUSTOM_TILING_H
#define ARANGE_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ArangeCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, size);         // elements of y
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ArangeCustom, ArangeCustomTilingData)
} // namespace optiling

#endif // ARANGE_CUSTOM_TILING_H
