/**
 * @file mmad_custom_tiling.h
 * @brief MmadCustom tiling: the matrix sizes and how many 64 x 64 tiles of C there are.
 */
#ifndef MMAD_CUSTOM_TILING_H
#define MMAD_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MmadCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, m);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, tilesM);
    TILING_DATA_FIELD_DEF(uint32_t, tilesN);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MmadCustom, MmadCustomTilingData)
} // namespace optiling

#endif // MMAD_CUSTOM_TILING_H
