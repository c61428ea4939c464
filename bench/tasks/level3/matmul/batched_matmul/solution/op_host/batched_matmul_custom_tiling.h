/**
 * @file batched_matmul_custom_tiling.h
 * @brief Tiling data of BatchedMatmulCustom: the Matmul API's multi-core cube tiling and the batch count.
 */
#ifndef BATCHED_MATMUL_CUSTOM_TILING_H
#define BATCHED_MATMUL_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchedMatmulCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batches);       // matrices in the batch, one tiling for all
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchedMatmulCustom, BatchedMatmulCustomTilingData)
} // namespace optiling

#endif // BATCHED_MATMUL_CUSTOM_TILING_H
