"""GetTensorC into a vector core's UB (matmul_client.h) writes between a CrossCoreSetFlag and a CrossCoreWaitFlag on
PIPE_V: the race check orders it as a PIPE_V instruction, after the vector pipe's earlier work and before its later
work. It was the scalar unit's (PIPE_S), so the clean corpus's matmul_leakyrelu_mix.cpp, whose VECOUT queue orders
each block's LeakyRelu, copy out and the next GetTensorC, drew an ASC965 warning (V then S) on every core. A VECIN
queue there orders none of those hand-offs: the LeakyRelu -> DataCopy read and the DataCopy -> next GetTensorC write
are races."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = Path(__file__).resolve().parents[1] / "corpus/clean/kernels/tpipe/matmul_leakyrelu_mix.cpp"
TILING = {"cubeTilingData.usedCoreNum": 4, "cubeTilingData.M": 256, "cubeTilingData.N": 128, "cubeTilingData.Ka": 64,
          "cubeTilingData.Kb": 64, "cubeTilingData.singleCoreM": 128, "cubeTilingData.singleCoreN": 64,
          "cubeTilingData.singleCoreK": 64, "cubeTilingData.baseM": 64, "cubeTilingData.baseN": 64,
          "cubeTilingData.baseK": 32, "cubeTilingData.isBias": 1, "cubeTilingData.iterateOrder": 0,
          "negativeSlope": 2}


def _run(path: Path) -> object:
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (256, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (64, 128)).astype(np.float16)
    bias = rng.uniform(-1, 1, 128).astype(np.float32)
    return run(str(path), {"a": a, "b": b, "bias": bias}, block_dim=2, tiling=TILING,
               outputs={"c": ((256, 128), "float32")})


def test_get_tensor_c_into_ub_is_ordered_as_the_vector_pipe() -> None:
    result = _run(KERNEL)
    assert result.completed and not result.findings, "\n".join(str(d) for d in result.findings)


def test_a_vecin_queue_does_not_order_the_copy_out(tmp_path: Path) -> None:
    text = KERNEL.read_text(encoding="utf-8")
    vecout = "AscendC::TQue<AscendC::TPosition::VECOUT, 1> reluOutQueue;"
    assert vecout in text
    patched = tmp_path / KERNEL.name
    patched.write_text(text.replace(vecout, vecout.replace("VECOUT", "VECIN")), encoding="utf-8")
    races = [str(d) for d in _run(patched).findings if d.code == "ASC965"]
    assert any("DataCopy on PIPE_MTE3 reads" in r and "which PIPE_V wrote" in r for r in races), races
    assert any("GetTensorC on PIPE_V writes" in r and "which PIPE_MTE3 read" in r for r in races), races
