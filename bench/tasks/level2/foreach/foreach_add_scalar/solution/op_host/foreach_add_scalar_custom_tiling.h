/**
 * @file foreach_add_scalar_custom_tiling.h
 * @brief Tiling data of ForeachAddScalarCustom: each of the 3 tensors split over the AIV cores in 32-byte blocks.
 */
#ifndef FOREACH_ADD_SCALAR_CUSTOM_TILING_H
#define FOREACH_ADD_SCALAR_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ForeachAddScalarCustomTilingData)
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, totalLength);   // elements of tensor i
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, formerNum);     // cores [0, formerNum[i]) take formerLength[i]
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, formerLength);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, tailLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);           // elements per UB tile, a multiple of 64
    TILING_DATA_FIELD_DEF(float, scalar);                        // attribute scalar
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ForeachAddScalarCustom, ForeachAddScalarCustomTilingData)
} // namespace optiling

#endif // FOREACH_ADD_SCALAR_CUSTOM_TILING_H
