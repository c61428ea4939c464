"""Two stops of ops-nn transpose_batch_mat_mul's PpMatmulEinSum kernel, each in a team-written kernel.

1. A LocalTensor member that is never given memory (`AscendC::LocalTensor<float> l0c_buf;`, default-constructed,
   never assigned) used as Mmad's C and Fixpipe's source: those operands are in L0C whatever the tensor holds, so
   the simulator reads them as L0C from address 0 with an ASC958 warning (rust_sim/src/cube/mod.rs fixed_buffer).
   Before: ASC950, a tensor with no memory, and no result.
2. A field read of a struct that is not the tiling struct, whose field names are the tiling's too (`MatCoord tdim`
   with m, k, n beside PpMatmulTilingData's m, k, n): fold-tiling replaced `tdim.m` by the tiling's m. Before, the
   kernel read 32 for tdim.n and tdim.m (its tiling's n and m; mLoop and nLoop were 1), and its ND2NZ read of aGM
   ran past the input (ASC950)."""

from __future__ import annotations

import numpy as np

from passes.sim import run
from tests.rust_sim.test_load3d_internal_setters import KERNEL


def test_mmad_and_fixpipe_through_a_default_constructed_l0c_tensor() -> None:
    kernel = KERNEL.replace("    TBuf<TPosition::CO1> c1Buf;\n", "").replace(
        "    pipe.InitBuffer(c1Buf, M_PAD * N_PAD * sizeof(float));\n", "").replace(
        "    LocalTensor<float> c1 = c1Buf.Get<float>();\n", "    LocalTensor<float> c1;\n")
    assert "c1Buf" not in kernel
    m, n, k = 30, 70, 40
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    result = run(kernel, [a, b], block_dim=1, defines={"M": str(m), "N": str(n), "K": str(k)},
                 outputs={"c": np.zeros((m, n), np.float32)})
    codes = sorted({d.code for d in result.findings})
    assert codes == ["ASC958"] and all(d.severity.name == "WARNING" for d in result.findings), result.findings
    assert any("never given memory" in d.message for d in result.findings)
    np.testing.assert_allclose(result.outputs["c"], a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


FIELD_NAMES = """#include "kernel_operator.h"
using namespace AscendC;
struct Coord {
    uint64_t m{0};
    uint64_t k{0};
    uint64_t n{0};
};
struct KTiling { uint32_t m; uint32_t k; uint32_t n; uint32_t mLoop; uint32_t kLoop; uint32_t nLoop; };
class K {
public:
    __aicore__ inline void Init(GM_ADDR y, const KTiling* t)
    {
        yGm.SetGlobalBuffer((__gm__ int32_t*)y, 8);
        dim.m = t->mLoop;
        dim.k = t->kLoop;
        dim.n = t->nLoop;
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < 8; i++) {
            yGm.SetValue(i, static_cast<int32_t>(dim.m * 100 + dim.k * 10 + dim.n + i * 1000));
        }
    }
    GlobalTensor<int32_t> yGm;
    Coord dim{0};
};
extern "C" __global__ __aicore__ void coord(GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(KTiling, td, tiling);
    K op;
    op.Init(y, &td);
    op.Process();
}
"""


def test_a_struct_whose_field_names_are_the_tilings_is_not_read_as_the_tiling() -> None:
    tiling = {"m": 32, "k": 64, "n": 32, "mLoop": 2, "kLoop": 5, "nLoop": 3}
    result = run(FIELD_NAMES, {}, tiling=tiling, block_dim=1, outputs={"y": ((8,), "int32")})
    assert result.ok and not result.findings, result.findings
    assert result.outputs["y"].tolist() == [253 + 1000 * i for i in range(8)]  # before: 3872 (32, 64, 32)
