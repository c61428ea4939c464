/**
 * @file cpu_debug_main.cpp
 * @brief Kernel-launch driver for add_custom that builds twice:
 *   - CPU twin (ASCENDC_CPU_DEBUG defined): GmAlloc'd buffers, the kernel runs under ICPU_RUN_KF,
 *     one forked process per block, with the tikicpulib checkers active;
 *   - NPU: ACL buffers and the generated ACLRT_LAUNCH_KERNEL launcher.
 * The tiling struct is produced on the host and handed to the kernel as an extra GM argument.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "data_utils.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling);
#else
#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"
#endif

namespace {
struct AddCustomTilingData {
    uint32_t totalLength;
    uint32_t tileNum;
};

constexpr uint32_t BLOCK_DIM = 8;
constexpr uint32_t TOTAL_LENGTH = 8 * 2048;
constexpr uint32_t TILE_NUM = 8;
constexpr size_t DATA_BYTES = TOTAL_LENGTH * sizeof(uint16_t); // fp16 payload
constexpr size_t WORKSPACE_BYTES = 16 * 1024 * 1024;

void GenerateTiling(AddCustomTilingData &tiling)
{
    tiling.totalLength = TOTAL_LENGTH;
    tiling.tileNum = TILE_NUM;
}

#ifndef ASCENDC_CPU_DEBUG
#define CHECK_ACL(expr)                                                               \
    do {                                                                              \
        const aclError ret_ = (expr);                                                 \
        if (ret_ != ACL_SUCCESS) {                                                    \
            std::fprintf(stderr, "%s:%d %s failed: %d\n", __FILE__, __LINE__, #expr, ret_); \
            return 1;                                                                 \
        }                                                                             \
    } while (0)
#endif
} // namespace

int32_t main(int32_t argc, char *argv[])
{
    AddCustomTilingData tilingHost{};
    GenerateTiling(tilingHost);
    const size_t tilingBytes = sizeof(AddCustomTilingData);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = static_cast<uint8_t *>(AscendC::GmAlloc(DATA_BYTES));
    uint8_t *y = static_cast<uint8_t *>(AscendC::GmAlloc(DATA_BYTES));
    uint8_t *z = static_cast<uint8_t *>(AscendC::GmAlloc(DATA_BYTES));
    uint8_t *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(WORKSPACE_BYTES));
    uint8_t *tiling = static_cast<uint8_t *>(AscendC::GmAlloc(tilingBytes));

    ReadFile("./input/input_x.bin", DATA_BYTES, x, DATA_BYTES);
    ReadFile("./input/input_y.bin", DATA_BYTES, y, DATA_BYTES);
    std::memcpy(tiling, &tilingHost, tilingBytes);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_custom, BLOCK_DIM, x, y, z, workspace, tiling);

    WriteFile("./output/output_z.bin", z, DATA_BYTES);
    for (uint8_t *p : {x, y, z, workspace, tiling}) {
        AscendC::GmFree(static_cast<void *>(p));
    }
#else
    CHECK_ACL(aclInit(nullptr));
    const int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<uint8_t> hostBuf(DATA_BYTES);
    uint8_t *xDevice = nullptr;
    uint8_t *yDevice = nullptr;
    uint8_t *zDevice = nullptr;
    uint8_t *workspaceDevice = nullptr;
    uint8_t *tilingDevice = nullptr;
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&xDevice), DATA_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&yDevice), DATA_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&zDevice), DATA_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&workspaceDevice), WORKSPACE_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&tilingDevice), tilingBytes, ACL_MEM_MALLOC_HUGE_FIRST));

    ReadFile("./input/input_x.bin", DATA_BYTES, hostBuf.data(), DATA_BYTES);
    CHECK_ACL(aclrtMemcpy(xDevice, DATA_BYTES, hostBuf.data(), DATA_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_y.bin", DATA_BYTES, hostBuf.data(), DATA_BYTES);
    CHECK_ACL(aclrtMemcpy(yDevice, DATA_BYTES, hostBuf.data(), DATA_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingBytes, &tilingHost, tilingBytes, ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(add_custom)(BLOCK_DIM, stream, xDevice, yDevice, zDevice, workspaceDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hostBuf.data(), DATA_BYTES, zDevice, DATA_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_z.bin", hostBuf.data(), DATA_BYTES);

    for (uint8_t *p : {xDevice, yDevice, zDevice, workspaceDevice, tilingDevice}) {
        CHECK_ACL(aclrtFree(p));
    }
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
