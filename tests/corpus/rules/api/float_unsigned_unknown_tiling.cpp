// A tiling struct whose definition is in a header the check cannot see: its field types are unknown
// (the lowering reads them as uint32_t by guess), so a float cast of one is not flagged, whether the
// struct is read through GET_TILING_DATA or through a member copy, nor one of arithmetic on such fields
// (group_norm_swish's `float(tiling->numPerGroup - tiling->numTailLoop)`, int64_t fields). A member
// declared uint32_t still is.
#include "kernel_operator.h"
#include "lin_space_tiling.h"  // expected-warning {{cannot find include file}} [ASC002]
using namespace AscendC;

template <typename T>
class KernelLinSpace {
public:
    __aicore__ inline void Init(GM_ADDR y, const LinSpaceTilingData *tiling)
    {
        tilingData_ = *tiling;
        count_ = 256;
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(buf, 256 * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> t = buf.Get<T>();
        Muls(t, t, T(tilingData_.scalar), 256);
        Muls(t, t, T(tilingData_.total - tilingData_.scalar * 2), 256);
        Adds(t, t, T(count_), 256);  // expected-error {{cast from uint32_t to float}} [ASC507]
        Adds(t, t, T(count_ * 2), 256);  // expected-error {{cast from uint32_t to float}} [ASC507]
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> yGm;
    LinSpaceTilingData tilingData_;
    uint32_t count_;
};

extern "C" __global__ __aicore__ void lin_space(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLinSpace<float> op;
    op.Init(y, &tilingData);
    op.Process();
}
