/**
 * @file softmax_custom_tiling.h
 * @brief SoftmaxCustom tiling: row partition, the original shape, and the SoftMax API tiling block.
 */
#ifndef SOFTMAX_CUSTOM_TILING_H
#define SOFTMAX_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t MAX_DIM_NUM = 8;

BEGIN_TILING_DATA_DEF(SoftmaxCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of every dim but the last
    TILING_DATA_FIELD_DEF(uint32_t, cols);          // last dim, softmax axis
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);   // rows handled by one SoftMax call
    TILING_DATA_FIELD_DEF(uint32_t, tmpBufferSize); // bytes of shared temp space for SoftMax
    TILING_DATA_FIELD_DEF(uint32_t, dimNum);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, shape);  // original shape, for debugging dumps
    TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftmaxCustom, SoftmaxCustomTilingData)
} // namespace optiling

#endif // SOFTMAX_CUSTOM_TILING_H
