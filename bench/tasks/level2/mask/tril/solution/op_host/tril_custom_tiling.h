/**
 * @file tril_custom_tiling.h
 * @brief Tiling data of TrilCustom: rows (all but the last axis) split over the AIV cores, rowsPerTile rows
 *        per UB tile, every row at a pitch of whole 32-byte blocks in UB.
 */
#ifndef TRIL_CUSTOM_TILING_H
#define TRIL_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TrilCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRows);      // product of all but the last axis
    TILING_DATA_FIELD_DEF(uint32_t, numCols);      // last axis
    TILING_DATA_FIELD_DEF(uint32_t, pitch);        // numCols rounded up to whole 32-byte blocks of the dtype
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerRows rows
    TILING_DATA_FIELD_DEF(uint32_t, formerRows);
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
    TILING_DATA_FIELD_DEF(uint32_t, bufferNum);    // 2 (double-buffered) unless a row only fits once
    TILING_DATA_FIELD_DEF(float, invCols);         // 1 / numCols
    TILING_DATA_FIELD_DEF(int32_t, diagonal);                      // attribute diagonal
    TILING_DATA_FIELD_DEF(uint32_t, matRows);                       // rows of one matrix (x's second-last axis)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TrilCustom, TrilCustomTilingData)
} // namespace optiling

#endif // TRIL_CUSTOM_TILING_H
