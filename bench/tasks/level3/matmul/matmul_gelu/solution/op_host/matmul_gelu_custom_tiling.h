/**
 * @file matmul_gelu_custom_tiling.h
 * @brief Tiling data of MatmulGeluCustom: the Matmul API's multi-core tiling over the vector cores and the
 *        epilogue's UB tile.
 */
#ifndef MATMUL_GELU_CUSTOM_TILING_H
#define MATMUL_GELU_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulGeluCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, pitch);        // singleCoreN rounded up to 8 floats: the epilogue's UB row
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // block rows per epilogue tile
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulGeluCustom, MatmulGeluCustomTilingData)
} // namespace optiling

#endif // MATMUL_GELU_CUSTOM_TILING_H
