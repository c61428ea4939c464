/**
 * @file add_custom_tiling.h
 * @brief Tiling data shared by the AddCustom host tiling function and its kernel.
 */
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength); // elements in x / y / z
    TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // cores that take formerLength elements
    TILING_DATA_FIELD_DEF(uint32_t, formerLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailLength);  // elements of every other core
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);  // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
} // namespace optiling

#endif // ADD_CUSTOM_TILING_H
