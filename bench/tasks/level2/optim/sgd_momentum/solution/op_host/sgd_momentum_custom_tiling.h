/**
 * @file sgd_momentum_custom_tiling.h
 * @brief Tiling data of SgdMomentumCustom: the flattened tensors split over the AIV cores in 32-byte blocks, and the
 *        step's scalars.
 */
#ifndef SGD_MOMENTUM_CUSTOM_TILING_H
#define SGD_MOMENTUM_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SgdMomentumCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of every tensor
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores [0, formerNum) take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile, a multiple of 64
    TILING_DATA_FIELD_DEF(float, lr);                            // learning rate
    TILING_DATA_FIELD_DEF(float, momentum);                      // momentum factor
    TILING_DATA_FIELD_DEF(float, weightDecay);                   // L2 penalty
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SgdMomentumCustom, SgdMomentumCustomTilingData)
} // namespace optiling

#endif // SGD_MOMENTUM_CUSTOM_TILING_H
