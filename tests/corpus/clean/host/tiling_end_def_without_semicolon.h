/**
 * @file layer_norm_custom_tiling.h
 * @brief Tiling data of LayerNormCustom. The first END_TILING_DATA_DEF has no ';' of its own: the vendor's
 *        register/tilingdata_base.h defines the macro as `};`, and vendor op projects (ops-nn) rely on it.
 */
#ifndef LAYER_NORM_CUSTOM_TILING_H
#define LAYER_NORM_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rowNum);        // rows of x ([rowNum, colNum])
    TILING_DATA_FIELD_DEF(uint32_t, colNum);        // normalised axis length
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows handled by one AIV core
    TILING_DATA_FIELD_DEF(uint32_t, tailRows);      // rows of the last core
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);   // rows moved to UB at a time
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, avgFactor);        // 1 / colNum
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, layerNormTiling);
END_TILING_DATA_DEF

REGISTER_TILING_DATA_CLASS(LayerNormCustom, LayerNormCustomTilingData)

// Tiling key 2: colNum too large for one UB pass, the row is split in column chunks.
BEGIN_TILING_DATA_DEF(LayerNormCustomSplitTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rowNum);
    TILING_DATA_FIELD_DEF(uint32_t, colNum);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, colChunk);      // columns per UB pass
    TILING_DATA_FIELD_DEF(uint32_t, chunkNum);
    TILING_DATA_FIELD_DEF(uint32_t, lastChunk);
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, avgFactor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LayerNormCustom_2, LayerNormCustomSplitTilingData)
} // namespace optiling

#endif // LAYER_NORM_CUSTOM_TILING_H
