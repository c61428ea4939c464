/**
 * @file rms_norm_custom_tiling.h
 * @brief Tiling data of RmsNormCustom; the include guard's #ifndef is never closed.
 */
#ifndef RMS_NORM_CUSTOM_TILING_H // expected-error {{unterminated #ifndef}} [ASC005]
#define RMS_NORM_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRow);
    TILING_DATA_FIELD_DEF(uint32_t, numCol);
    TILING_DATA_FIELD_DEF(uint32_t, blockFactor);   // rows per core
    TILING_DATA_FIELD_DEF(uint32_t, rowFactor);     // rows per UB pass
    TILING_DATA_FIELD_DEF(uint32_t, ubFactor);      // elements per UB pass
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, avgFactor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormCustomTilingData)

#if defined(RMS_NORM_WITH_GAMMA_BF16)
BEGIN_TILING_DATA_DEF(RmsNormCustomBf16TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRow);
    TILING_DATA_FIELD_DEF(uint32_t, numCol);
    TILING_DATA_FIELD_DEF(uint32_t, blockFactor);
    TILING_DATA_FIELD_DEF(uint32_t, rowFactor);
    TILING_DATA_FIELD_DEF(uint32_t, ubFactor);
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, avgFactor);
    TILING_DATA_FIELD_DEF(uint32_t, castBufBytes);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom_1, RmsNormCustomBf16TilingData)
#endif
} // namespace optiling
