/**
 * @file linspace_custom_tiling.h
 * @brief Tiling data of LinspaceCustom: the output split over the AIV cores in 32-element units.
 */
#ifndef LINSPACE_CUSTOM_TILING_H
#define LINSPACE_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinspaceCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, size);         // elements of y (the steps attribute)
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
    TILING_DATA_FIELD_DEF(float, invIntervals);    // 1 / (steps - 1), 0 for a single step
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinspaceCustom, LinspaceCustomTilingData)
} // namespace optiling

#endif // LINSPACE_CUSTOM_TILING_H
