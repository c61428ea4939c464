"""The 950's loop mode and DataCopyPad's Compact mode (issue 28). SetLoopModePara(LoopModeParams, DataCopyMVType)
makes each later GM <-> UB copy on that path repeat loop2Size x loop1Size times at byte strides until
ResetLoopModePara (SetLoopModePara.md); DataCopyPad<T, PaddingMode::Compact> packs the UB rows and pads once after
the last up to 32 bytes (GMToUB非对齐数据搬运(DataCopyPad).md). In the session-13 sweep SetLoopModePara /
ResetLoopModePara were unresolved calls in 6 files (72 + 72 instructions: transpose, space_to_depth,
log_softmax_grad, ...) and the `<T, PaddingMode::X>` forms 'DataCopyPad (overload ''), not in the catalog'."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void lm(GM_ADDR x, GM_ADDR u, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, uGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    uGm.SetGlobalBuffer((__gm__ float *)u, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 36);
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(float));
    // in: 2 x 3 blocks of 2 rows x 3 floats; a block's rows packed (Compact), 9.0 up to its 32 bytes
    LoopModeParams in;
    in.loop2Size = 2;
    in.loop1Size = 3;
    in.loop1SrcStride = 16 * sizeof(float);
    in.loop1DstStride = 8 * sizeof(float);
    in.loop2SrcStride = 64 * sizeof(float);
    in.loop2DstStride = 24 * sizeof(float);
    DataCopyExtParams rows{2, 3 * sizeof(float), 5 * sizeof(float), 0, 0};
    DataCopyPadExtParams<float> pad{true, 0, 0, 9.0f};
    LocalTensor<float> a = q.AllocTensor<float>();
    Duplicate(a, -1.0f, 64);
    PipeBarrier<PIPE_ALL>();
    SetLoopModePara(in, DataCopyMVType::OUT_TO_UB);
    DataCopyPad<float, PaddingMode::Compact>(a, xGm, rows, pad);
    ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    q.EnQue(a);
    a = q.DeQue<float>();
    DataCopy(uGm, a, 64);
    // out: the 6 blocks' 6 floats each, packed in z (UB + 32 bytes, GM + 24 bytes per block)
    LoopModeParams out{6, 1, 8 * sizeof(float), 6 * sizeof(float), 0, 0};
    SetLoopModePara(out, DataCopyMVType::UB_TO_OUT);
    DataCopyPad<float, PaddingMode::Normal>(zGm, a, DataCopyExtParams{1, 6 * sizeof(float), 0, 0, 0});
    ResetLoopModePara(DataCopyMVType::UB_TO_OUT);
    q.FreeTensor(a);
}
"""


def test_loop_mode_repeats_a_compact_copy_in_and_a_copy_out(tmp_path: Path) -> None:
    path = tmp_path / "lm.cpp"
    path.write_text(KERNEL, encoding="utf-8")
    x = np.arange(256, dtype=np.float32)
    result = run(str(path), {"x": x}, chip="950PR", block_dim=1,
                 outputs={"u": ((64,), "float32"), "z": ((36,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    # block (o, i) reads GM rows at 64 o + 16 i and 8 further, 3 floats each; UB block at 24 o + 8 i floats
    blocks = [np.concatenate([x[s:s + 3], x[s + 8:s + 11]]) for o in range(2) for i in range(3)
              for s in [64 * o + 16 * i]]
    want_u = np.full((8, 8), -1.0, np.float32)
    for k, b in enumerate(blocks):
        want_u[k, :6], want_u[k, 6:] = b, 9.0  # Compact: 24 bytes of data, 9.0 up to 32
    np.testing.assert_array_equal(result.outputs["u"].reshape(8, 8), want_u)
    np.testing.assert_array_equal(result.outputs["z"].reshape(6, 6), np.stack(blocks))
