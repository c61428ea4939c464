/**
 * @file matmul_host_tiling.cpp
 * @brief Standalone host-side tiling generation for a kernel-launch matmul (no op project, no
 *        TilingContext): the platform comes from PlatformAscendCManager and the resulting TCubeTiling
 *        is serialised into a byte buffer that main() copies to the device.
 */
#include <cassert>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <vector>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace host {

struct MatmulShape {
    int32_t m;
    int32_t n;
    int32_t k;
    bool hasBias;
};

enum class Precision : int { FP16_FP32_ACC = 0, BF16_FP32_ACC = 1 };

static DataType InputType(Precision p)
{
    return p == Precision::BF16_FP32_ACC ? DataType::DT_BF16 : DataType::DT_FLOAT16;
}

/**
 * Fills `buffer` with a TCubeTiling for `shape`. Returns false if the library cannot tile it.
 * `blockDim` receives the number of AIC cores the kernel must be launched on.
 */
bool GenerateMatmulTiling(const MatmulShape &shape, Precision precision, std::vector<uint8_t> &buffer,
                          uint32_t &blockDim, size_t &workspaceSize)
{
    auto *platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    if (platform == nullptr) {
        std::cerr << "no Ascend platform information available" << std::endl;
        return false;
    }
    const uint32_t aicNum = platform->GetCoreNumAic();
    uint64_t l1Size = 0;
    uint64_t l0cSize = 0;
    uint64_t ubSize = 0;
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1Size);
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0cSize);
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    MultiCoreMatmulTiling tilingApi(*platform);
    tilingApi.SetDim(static_cast<int32_t>(aicNum));
    tilingApi.SetAType(TPosition::GM, CubeFormat::ND, InputType(precision));
    tilingApi.SetBType(TPosition::GM, CubeFormat::ND, InputType(precision));
    tilingApi.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tilingApi.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tilingApi.SetShape(shape.m, shape.n, shape.k);
    tilingApi.SetOrgShape(shape.m, shape.n, shape.k);
    tilingApi.SetBias(shape.hasBias);
    tilingApi.SetBufferSpace(static_cast<int32_t>(l1Size), static_cast<int32_t>(l0cSize), static_cast<int32_t>(ubSize));

    optiling::TCubeTiling tilingData;
    if (tilingApi.GetTiling(tilingData) == -1) {
        std::cerr << "GetTiling failed for M=" << shape.m << " N=" << shape.n << " K=" << shape.k << std::endl;
        return false;
    }

    buffer.assign(tilingData.GetDataSize(), 0);
    tilingData.SaveToBuffer(buffer.data(), buffer.size());
    blockDim = static_cast<uint32_t>(tilingData.get_usedCoreNum());
    workspaceSize = static_cast<size_t>(platform->GetLibApiWorkSpaceSize());
    return true;
}

} // namespace host

#ifdef MATMUL_TILING_SELFTEST
int main()
{
    const host::MatmulShape shapes[] = {
        {512, 1024, 256, true},
        {1000, 777, 512, false}, // ragged edges exercise SetTail in the kernel
    };
    for (const auto &s : shapes) {
        std::vector<uint8_t> buf;
        uint32_t blockDim = 0;
        size_t ws = 0;
        const bool ok = host::GenerateMatmulTiling(s, host::Precision::FP16_FP32_ACC, buf, blockDim, ws);
        std::cout << s.m << "x" << s.n << "x" << s.k << (ok ? " ok" : " failed") << ", blockDim=" << blockDim
                  << ", tiling bytes=" << buf.size() << ", workspace=" << ws << std::endl;
        assert(!ok || buf.size() % sizeof(uint32_t) == 0);
    }
    return 0;
}
#endif
