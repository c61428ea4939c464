// The scalar of Muls/Adds read from a tiling struct whose definition the check cannot see (ops-nn's
// group_norm_swish: `Muls(x, x, -tiling->swishScale, n)`, a float field in a header under op_host/): the
// lowering reads the field as uint32_t by guess, so the scalar's type is not known and ASC503 stays quiet.
// A member declared uint32_t is known, and passing it to Muls on float tensors does not compile.
#include "kernel_operator.h"
#include "swish_tiling.h"  // expected-warning {{cannot find include file}} [ASC002]
using namespace AscendC;

class KernelSwish {
public:
    __aicore__ inline void Init(GM_ADDR x, const SwishTilingData *tiling)
    {
        tiling_ = tiling;
        count_ = 256;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        pipe.InitBuffer(buf, 256 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = buf.Get<float>();
        Muls(t, t, -tiling_->swishScale, 256);
        Muls(t, t, tiling_->swishScale * 2, 256);
        Muls(t, t, count_, 256);  // expected-error {{needs a scalarValue of type float, but the argument is uint32_t}} [ASC503]
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm;
    const SwishTilingData *tiling_;
    uint32_t count_;
};

extern "C" __global__ __aicore__ void swish(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSwish op;
    op.Init(x, &tilingData);
    op.Process();
}
