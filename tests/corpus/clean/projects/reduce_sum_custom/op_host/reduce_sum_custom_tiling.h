#ifndef REDUCE_SUM_CUSTOM_TILING_H
#define REDUCE_SUM_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
// Tiling keys, mirrored by the TILING_KEY_IS branches in op_kernel/reduce_sum_custom.cpp
enum class ReduceSumKey : uint64_t {
    FP32_SHORT_ROW = 1, // cols <= 64: many rows per copy, one WholeReduceSum repeat per row
    FP32_LONG_ROW = 2,  // any cols: row streamed in chunks, ReduceSum per chunk
    FP16_SHORT_ROW = 3,
    FP16_LONG_ROW = 4,
};

BEGIN_TILING_DATA_DEF(ReduceSumCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // short-row path
    TILING_DATA_FIELD_DEF(uint32_t, chunkLength);  // long-row path, elements per chunk
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceSumCustom, ReduceSumCustomTilingData)
} // namespace optiling

#endif // REDUCE_SUM_CUSTOM_TILING_H
