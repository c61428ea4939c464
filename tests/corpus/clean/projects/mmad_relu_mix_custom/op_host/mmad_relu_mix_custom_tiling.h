/**
 * @file mmad_relu_mix_custom_tiling.h
 * @brief MmadReluMixCustom tiling: the matrix sizes and the 64 x 64 tiles of C.
 */
#ifndef MMAD_RELU_MIX_CUSTOM_TILING_H
#define MMAD_RELU_MIX_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MmadReluMixCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, m);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, tilesM);
    TILING_DATA_FIELD_DEF(uint32_t, tilesN);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MmadReluMixCustom, MmadReluMixCustomTilingData)
} // namespace optiling

#endif // MMAD_RELU_MIX_CUSTOM_TILING_H
