// A branch whose condition a type test decides is dead for the other types, even when a runtime flag is
// and-ed with it (ops-nn's single_layer_lstm_grad: `if (useInitCH && std::is_same<T, half>::value)` around a
// Cast float -> T with CAST_NONE, which float -> float does not take). Instantiated for float, only the
// branch its type test keeps is judged.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelCastBack {
public:
    __aicore__ inline void Init(uint32_t useInit)
    {
        pipe.InitBuffer(buf, 1024 * sizeof(float));
        useInit_ = useInit;
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = buf.Get<float>();
        if (useInit_ && std::is_same<T, half>::value) {
            Cast(t.template ReinterpretCast<T>(), t, RoundMode::CAST_NONE, 256);
        }
        if (std::is_same<T, half>::value || useInit_ == 0) {
            Cast(t.template ReinterpretCast<T>(), t, RoundMode::CAST_NONE, 256);  // expected-error {{Cast from float to float does not take RoundMode::CAST_NONE}} [ASC504]
        }
        if (!std::is_same<T, half>::value || useInit_ == 0) {
            Cast(t.template ReinterpretCast<T>(), t, RoundMode::CAST_RINT, 256);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    uint32_t useInit_;
};

extern "C" __global__ __aicore__ void cast_back(GM_ADDR x, GM_ADDR tiling)
{
    KernelCastBack<float> op;
    op.Init(*(__gm__ uint32_t *)tiling);
    op.Process();
}
