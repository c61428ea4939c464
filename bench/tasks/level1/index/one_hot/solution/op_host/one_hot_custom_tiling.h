/**
 * @file one_hot_custom_tiling.h
 * @brief Tiling data of OneHotCustom: rows split over the AIV cores, rowsPerTile rows per UB tile.
 */
#ifndef ONE_HOT_CUSTOM_TILING_H
#define ONE_HOT_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(OneHotCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, depth);         // classes: elements per output row
    TILING_DATA_FIELD_DEF(uint32_t, depthAligned);  // depth rounded up to 8 (the UB row pitch)
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores [0, formerNum) take formerRows rows
    TILING_DATA_FIELD_DEF(uint32_t, formerRows);
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(OneHotCustom, OneHotCustomTilingData)
} // namespace optiling

#endif // ONE_HOT_CUSTOM_TILING_H
