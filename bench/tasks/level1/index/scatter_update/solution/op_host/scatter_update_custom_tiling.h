/**
 * @file scatter_update_custom_tiling.h
 * @brief Tiling data of ScatterUpdateCustom: update rows split over the AIV cores, rows moved in column chunks.
 */
#ifndef SCATTER_UPDATE_CUSTOM_TILING_H
#define SCATTER_UPDATE_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScatterUpdateCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, varRows);     // rows of var
    TILING_DATA_FIELD_DEF(uint32_t, numCols);     // elements per row (product of var's trailing dims)
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // cores [0, formerNum) write formerRows rows
    TILING_DATA_FIELD_DEF(uint32_t, formerRows);
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);    // rows of every later core
    TILING_DATA_FIELD_DEF(uint32_t, colTile);     // elements per chunk, whole 32-byte blocks
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScatterUpdateCustom, ScatterUpdateCustomTilingData)
} // namespace optiling

#endif // SCATTER_UPDATE_CUSTOM_TILING_H
