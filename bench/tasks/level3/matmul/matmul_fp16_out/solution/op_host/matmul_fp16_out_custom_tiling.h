/**
 * @file matmul_fp16_out_custom_tiling.h
 * @brief Tiling data of MatmulFp16OutCustom: the Matmul API's multi-core cube tiling.
 */
#ifndef MATMUL_FP16_OUT_CUSTOM_TILING_H
#define MATMUL_FP16_OUT_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulFp16OutCustomTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulFp16OutCustom, MatmulFp16OutCustomTilingData)
} // namespace optiling

#endif // MATMUL_FP16_OUT_CUSTOM_TILING_H
