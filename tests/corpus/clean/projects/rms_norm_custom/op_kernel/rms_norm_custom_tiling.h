/**
 * @file rms_norm_custom_tiling.h
 * @brief Plain tiling struct shared verbatim by the host (GetTilingData) and the kernel
 *        (GET_TILING_DATA_WITH_STRUCT). Keep it POD: no constructors, no virtuals, 4-byte fields.
 */
#ifndef RMS_NORM_CUSTOM_TILING_H
#define RMS_NORM_CUSTOM_TILING_H

#include <cstdint>

struct RmsNormCustomTilingData {
    uint32_t numRows;     // product of all dims but the last
    uint32_t numCols;     // normalized (last) dim
    uint32_t rowsPerCore; // the last core may get fewer
    uint32_t colsAligned; // numCols rounded up to 32 bytes of the input dtype
    float epsilon;
    float avgFactor;      // 1 / numCols
};

#endif // RMS_NORM_CUSTOM_TILING_H
