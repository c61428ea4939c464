/**
 * @file swiglu_custom_tiling.h
 * @brief Tiling data of SwigluCustom: rows split over the AIV cores, rowsPerTile rows per UB tile.
 */
#ifndef SWIGLU_CUSTOM_TILING_H
#define SWIGLU_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SwigluCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, halfCols);     // H: x's last axis is 2H, y's is H
    TILING_DATA_FIELD_DEF(uint32_t, pitch);        // H rounded up to whole 32-byte blocks of the dtype
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerRows rows
    TILING_DATA_FIELD_DEF(uint32_t, formerRows);
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
    TILING_DATA_FIELD_DEF(uint32_t, bufferNum);    // 2 (double-buffered) unless a row only fits once
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwigluCustom, SwigluCustomTilingData)
} // namespace optiling

#endif // SWIGLU_CUSTOM_TILING_H
