/**
 * @file adamw_custom_tiling.h
 * @brief Tiling data of AdamwCustom: the flattened tensors split over the AIV cores in 32-byte blocks, and the
 *        step's scalars.
 */
#ifndef ADAMW_CUSTOM_TILING_H
#define ADAMW_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AdamwCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of every tensor
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
    TILING_DATA_FIELD_DEF(float, decay);                         // 1 - lr * weight_decay
    TILING_DATA_FIELD_DEF(float, beta1);                         // first-moment decay
    TILING_DATA_FIELD_DEF(float, oneMinusBeta1);                 // 1 - beta1
    TILING_DATA_FIELD_DEF(float, beta2);                         // second-moment decay
    TILING_DATA_FIELD_DEF(float, oneMinusBeta2);                 // 1 - beta2
    TILING_DATA_FIELD_DEF(float, eps);                           // added to the denominator
    TILING_DATA_FIELD_DEF(float, stepSize);                      // lr / (1 - beta1^step)
    TILING_DATA_FIELD_DEF(float, invBiasCorrection2);            // 1 / (1 - beta2^step)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AdamwCustom, AdamwCustomTilingData)
} // namespace optiling

#endif // ADAMW_CUSTOM_TILING_H
