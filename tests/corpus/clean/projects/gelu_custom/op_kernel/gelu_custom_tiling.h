#ifndef GELU_CUSTOM_TILING_H
#define GELU_CUSTOM_TILING_H

#include <cstdint>

// Shared by op_host/gelu_custom.cpp and op_kernel/gelu_custom.cpp; must stay trivially copyable.
struct GeluCustomTilingData {
    uint64_t totalLength;
    uint32_t bigCoreNum;     // cores [0, bigCoreNum) process bigCoreLength elements
    uint32_t bigCoreLength;
    uint32_t smallCoreLength;
    uint32_t tileLength;     // elements per UB tile, multiple of 64
};

#endif // GELU_CUSTOM_TILING_H
