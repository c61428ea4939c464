/**
 * @file gather_rows_custom_tiling.h
 * @brief Tiling data of GatherRowsCustom: output rows split over the AIV cores, rows moved in column chunks.
 */
#ifndef GATHER_ROWS_CUSTOM_TILING_H
#define GATHER_ROWS_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatherRowsCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRows);     // rows of x
    TILING_DATA_FIELD_DEF(uint32_t, numCols);     // elements per row (product of x's trailing dims)
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // cores [0, formerNum) gather formerRows rows
    TILING_DATA_FIELD_DEF(uint32_t, formerRows);
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);    // rows of every later core
    TILING_DATA_FIELD_DEF(uint32_t, colTile);     // elements per chunk, whole 32-byte blocks
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatherRowsCustom, GatherRowsCustomTilingData)
} // namespace optiling

#endif // GATHER_ROWS_CUSTOM_TILING_H
