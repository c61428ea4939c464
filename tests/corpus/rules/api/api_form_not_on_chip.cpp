// Sort with a SortConfig template argument is the Ascend 950's form (arch 3510; asc-devkit Sort.md: "仅在Ascend
// 950PR/Ascend 950DT上支持"): the 910B's headers declare only Sort<T, isFullSort>, so the call does not compile there.
#include "kernel_operator.h"
using namespace AscendC;

static constexpr SortConfig descending = {SortType::RADIX_SORT, true};

extern "C" __global__ __aicore__ void sort_config_on_910b(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf;
    TBuf<TPosition::VECCALC> dstBuf;
    TBuf<TPosition::VECCALC> indexBuf;
    pipe.InitBuffer(srcBuf, 64 * sizeof(float));
    pipe.InitBuffer(dstBuf, 64 * sizeof(float));
    pipe.InitBuffer(indexBuf, 64 * sizeof(uint32_t));
    LocalTensor<float> src = srcBuf.Get<float>();
    LocalTensor<float> dst = dstBuf.Get<float>();
    LocalTensor<uint32_t> index = indexBuf.Get<uint32_t>();
    Duplicate(src, 1.0f, 64);
    Sort<float, false, descending>(dst, index, src, 64);  // expected-error {{does not exist on 910B2 (arch 2201); the catalog gives it to arch 3510 only}} [ASC516]
}
