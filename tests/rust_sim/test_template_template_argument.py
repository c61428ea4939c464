"""A class template passed as a template template argument (`Outer<float, Scale>(...)` for `template <typename T,
template <typename, bool> class K>`), passed on to another function template (`Inner<T, K>`), and instantiated
there (`K<T, false> op(...)`): the argument is the template itself (lower_templates._class_template_named), so
the instance is Scale<float, false>, whose T sizes its buffer (`InitBuffer(buf, 64 * sizeof(T))`) and types its
tensors. ops-nn scatter_nd_update runs its scatter kernels this way (RunLinearIndexAndScatter -> RunScatterAfterSync
-> `ScatterKernelT<VarT, false> op2(...)`). Before, the bare name read as the class with no arguments: T was
unknown in the instance (tensors of element type none, ASC958) and, passed on, the parameter's name was an unknown
type ('method Process called on a value of type K', ASC103, the kernel not lowered there).
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

namespace Ops {
template <typename T, bool Triple>
class Scale {
public:
    __aicore__ inline Scale(GM_ADDR x, GM_ADDR y, TPipe &pipe) : pipe_(pipe)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, 64);
        yGm.SetGlobalBuffer((__gm__ T *)y, 64);
        pipe_.InitBuffer(buf, 64 * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> t = buf.Get<T>();
        DataCopy(t, xGm, 64);
        PipeBarrier<PIPE_ALL>();
        Muls(t, t, (T)(Triple ? 3 : 2), 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, 64);
    }
private:
    TPipe &pipe_;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> xGm, yGm;
};
}  // namespace Ops

template <typename T, template <typename, bool> class K>
__aicore__ inline void Inner(GM_ADDR x, GM_ADDR y, bool triple)
{
    TPipe pipe;
    if (triple) {
        K<T, true> op(x, y, pipe);
        op.Process();
    } else {
        K<T, false> op(x, y, pipe);
        op.Process();
    }
}

template <typename T, template <typename, bool> class K>
__aicore__ inline void Outer(GM_ADDR x, GM_ADDR y, bool triple)
{
    Inner<T, K>(x, y, triple);
}

extern "C" __global__ __aicore__ void ttp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Outer<float, Ops::Scale>(x, y, TRIPLE);
}
"""


@pytest.mark.parametrize("triple", [False, True])
def test_template_template_argument_instantiates_with_its_arguments(triple: bool) -> None:
    x = np.arange(64, dtype=np.float32) - 10.5
    source = KERNEL.replace("TRIPLE", "true" if triple else "false")
    result = run(source, {"x": x}, block_dim=1, outputs={"y": ((64,), "float32")})
    errors = [f for f in result.findings if f.is_error or f.code == "ASC103"]
    assert errors == [], errors
    np.testing.assert_array_equal(result.outputs["y"], x * (3 if triple else 2))
