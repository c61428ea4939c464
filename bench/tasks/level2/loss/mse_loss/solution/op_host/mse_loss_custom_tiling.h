/**
 * @file mse_loss_custom_tiling.h
 * @brief Tiling data of MseLossCustom: the flattened inputs split over the AIV cores in 32-byte blocks.
 */
#ifndef MSE_LOSS_CUSTOM_TILING_H
#define MSE_LOSS_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MseLossCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of predict and target
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
    TILING_DATA_FIELD_DEF(uint32_t, usedCores);    // blockDim: the number of partial sums
    TILING_DATA_FIELD_DEF(float, invTotal);        // 1 / totalLength
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MseLossCustom, MseLossCustomTilingData)
} // namespace optiling

#endif // MSE_LOSS_CUSTOM_TILING_H
