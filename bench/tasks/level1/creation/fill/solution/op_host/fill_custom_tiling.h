/**
 * @file fill_custom_tiling.h
 * @brief Tiling data of FillCustom: the output split over the AIV cores in 32-element units.
 */
#ifndef FILL_CUSTOM_TILING_H
#define FILL_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FillCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of y
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements of the UB tile, a multiple of 64
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FillCustom, FillCustomTilingData)
} // namespace optiling

#endif // FILL_CUSTOM_TILING_H
