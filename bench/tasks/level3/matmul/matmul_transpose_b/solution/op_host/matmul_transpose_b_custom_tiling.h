/**
 * @file matmul_transpose_b_custom_tiling.h
 * @brief Tiling data of MatmulTransposeBCustom: the Matmul API's multi-core cube tiling.
 */
#ifndef MATMUL_TRANSPOSE_B_CUSTOM_TILING_H
#define MATMUL_TRANSPOSE_B_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulTransposeBCustomTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulTransposeBCustom, MatmulTransposeBCustomTilingData)
} // namespace optiling

#endif // MATMUL_TRANSPOSE_B_CUSTOM_TILING_H
