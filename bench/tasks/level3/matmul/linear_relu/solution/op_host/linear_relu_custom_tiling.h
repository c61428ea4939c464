/**
 * @file linear_relu_custom_tiling.h
 * @brief Tiling data of LinearReluCustom: the problem size and its 64 x 64 output tiles.
 */
#ifndef LINEAR_RELU_CUSTOM_TILING_H
#define LINEAR_RELU_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearReluCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, m);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, tilesM);   // output tiles along M (64 rows each, the last one shorter)
    TILING_DATA_FIELD_DEF(uint32_t, tilesN);   // along N (64 columns each)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearReluCustom, LinearReluCustomTilingData)
} // namespace optiling

#endif // LINEAR_RELU_CUSTOM_TILING_H
