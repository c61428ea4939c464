/**
 * @file norm_tiling_data.h
 * @brief POD tiling block for a row-normalisation operator (LayerNorm / RMSNorm family).
 *
 * Included by both the host tiling code (filled through TilingContext::GetTilingData) and the kernel
 * (read through GET_TILING_DATA_WITH_STRUCT), so it must stay a standard-layout aggregate:
 * fixed-width members, no constructors, no virtual functions, no pointers.
 */
#ifndef NORM_TILING_DATA_H
#define NORM_TILING_DATA_H

#include <cstdint>

namespace norm {

constexpr uint32_t MAX_REDUCE_AXES = 4;

enum class NormKind : uint32_t {
    LAYER_NORM = 0,
    RMS_NORM = 1,
};

struct NormTilingData {
    uint64_t numRows;                    // product of the non-normalised dims
    uint32_t numCols;                    // product of the normalised dims
    uint32_t colsAligned;                // numCols rounded up to one 32-byte block
    uint32_t formerCoreNum;              // cores [0, formerCoreNum) take formerRows rows
    uint32_t formerRows;
    uint32_t tailRows;                   // rows of every remaining core
    uint32_t rowsPerLoop;                // rows resident in UB at once
    uint32_t kind;                       // NormKind
    uint32_t hasBeta;                    // LayerNorm only
    float epsilon;
    float avgFactor;                     // 1 / numCols
    uint32_t reduceAxes[MAX_REDUCE_AXES]; // original axis ids, for logging
};

static_assert(sizeof(NormTilingData) % sizeof(uint32_t) == 0, "tiling must be a whole number of words");

} // namespace norm

#endif // NORM_TILING_DATA_H
