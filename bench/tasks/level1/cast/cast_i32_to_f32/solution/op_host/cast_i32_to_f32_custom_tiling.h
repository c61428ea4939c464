/**
 * @file cast_i32_to_f32_custom_tiling.h
 * @brief Tiling data of CastI32ToF32Custom: the flattened tensor split over the AIV cores in 32-element units.
 */
#ifndef CAST_I32_TO_F32_CUSTOM_TILING_H
#define CAST_I32_TO_F32_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CastI32ToF32CustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of x and y
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);   // elements of every later core (the last one is clipped)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CastI32ToF32Custom, CastI32ToF32CustomTilingData)
} // namespace optiling

#endif // CAST_I32_TO_F32_CUSTOM_TILING_H
