#ifndef LAYER_NORM_CUSTOM_TILING_H
#define LAYER_NORM_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRows);
    TILING_DATA_FIELD_DEF(uint32_t, numCols);
    TILING_DATA_FIELD_DEF(uint32_t, colsAligned);   // numCols rounded up to 8 floats (UB row pitch)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, invCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LayerNormCustom, LayerNormCustomTilingData)
} // namespace optiling

#endif // LAYER_NORM_CUSTOM_TILING_H
