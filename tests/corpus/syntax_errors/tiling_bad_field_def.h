/**
 * @file matmul_leakyrelu_custom_tiling.h
 * @brief Tiling data of MatmulLeakyreluCustom with a malformed field definition. A field macro without its
 *        `;` is accepted: CANN's newer tilingdata_base.h ends each field macro with its own `;`.
 */
#ifndef MATMUL_LEAKYRELU_CUSTOM_TILING_H
#define MATMUL_LEAKYRELU_CUSTOM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// Per-core split of C = A * B; the cube part reads cubeTilingData, the vector part the rest.
BEGIN_TILING_DATA_DEF(MatmulLeakyreluCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, m);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t k); // expected-error {{expected ','}} [ASC001]
    TILING_DATA_FIELD_DEF(float, alpha);
    TILING_DATA_FIELD_DEF(uint32_t, vecRowsPerLoop)
    TILING_DATA_FIELD_DEF(uint32_t, vecLoops);
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, reserved);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulLeakyreluCustom, MatmulLeakyreluCustomTilingData)

// Host-side helper: fills the vector part once the cube tiling is known.
inline void FillVectorTiling(MatmulLeakyreluCustomTilingData &tiling, uint32_t baseM, uint32_t baseN)
{
    const uint32_t ubElems = 96 * 1024 / sizeof(float);
    uint32_t rows = ubElems / baseN;
    rows = rows > baseM ? baseM : rows;
    tiling.set_vecRowsPerLoop(rows);
    tiling.set_vecLoops((baseM + rows - 1) / rows);
}
} // namespace optiling

#endif // MATMUL_LEAKYRELU_CUSTOM_TILING_H
