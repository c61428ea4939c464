/**
 * @file attention_custom_tiling.h
 * @brief Tiling data of AttentionCustom: the work units, the two Matmul tilings (scores, output) and the
 *        softmax's UB tile.
 */
#ifndef ATTENTION_CUSTOM_TILING_H
#define ATTENTION_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AttentionCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batches);
    TILING_DATA_FIELD_DEF(uint32_t, seq);          // S: query and key positions
    TILING_DATA_FIELD_DEF(uint32_t, headDim);      // D
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerUnit);  // query rows per unit of work
    TILING_DATA_FIELD_DEF(uint32_t, usedCores);    // vector cores with units
    TILING_DATA_FIELD_DEF(uint32_t, pitch);        // S rounded up to 16: a score row in UB
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // score rows per softmax tile
    TILING_DATA_FIELD_DEF(uint32_t, scoreBytes);   // a unit's fp32 scores in the workspace, 32-byte rounded
    TILING_DATA_FIELD_DEF(uint32_t, probBytes);    // a unit's fp16 probabilities, 32-byte rounded
    TILING_DATA_FIELD_DEF(float, scale);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, scoreTiling);   // [rowsPerUnit, D] @ [S, D]^T
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outTiling);     // [rowsPerUnit, S] @ [S, D]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AttentionCustom, AttentionCustomTilingData)
} // namespace optiling

#endif // ATTENTION_CUSTOM_TILING_H
