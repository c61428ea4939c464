"""catlass's own example 00_basic_matmul, run from its sources: `ascendir run basic_matmul.cpp -I include -I
examples/common --args "m n k"` interprets its main (ascendir/lower/host_program.py): GemmOptions::Parse reads the
shape from argv, aclrtMalloc/aclrtMemcpy give the device buffers, DeviceGemm::Initialize builds the kernel's Params
with BasicMatmul::ToUnderlyingArguments, and `KernelAdapter<MatmulKernel><<<aicCoreNum, nullptr, stream>>>(params)`
runs on the simulator. Before (issue 29): the example was a host file with no kernel of its own, and nothing ran.
The shape has tails in m, n and k (the L1 tile is 128 x 256 x 256)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli.run import main

CATLASS = Path(os.environ.get("ASCENDIR_REAL_KERNELS", "/work/ext/real")) / "catlass"
EXAMPLE = CATLASS / "examples" / "00_basic_matmul" / "basic_matmul.cpp"


@pytest.mark.skipif(not EXAMPLE.exists(), reason=f"needs a checkout of catlass at {CATLASS}")
def test_basic_matmul_example_matches_numpy(tmp_path) -> None:
    m, n, k = 200, 300, 100
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(EXAMPLE), "-I", str(CATLASS / "include"), "-I",
                                       str(CATLASS / "examples" / "common"), "--args", f"{m} {n} {k}",
                                       "--input", f"deviceA={tmp_path / 'a.npy'}", "--input",
                                       f"deviceB={tmp_path / 'b.npy'}", "--output-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert "on 24 cores" in result.output  # <<<aicCoreNum, ...>>>: the 910B2's 24 cube cores
    c = np.load(out / "deviceC.npy")
    assert c.dtype == np.float16 and c.shape == (m * n,)  # std::vector<fp16_t> hostC(lenC)
    want = a.astype(np.float32) @ b.astype(np.float32)
    assert np.allclose(c.reshape(m, n).astype(np.float32), want, rtol=1e-2, atol=1e-2)


MATMUL_ADD = CATLASS / "examples" / "03_matmul_add" / "matmul_add.cpp"


@pytest.mark.skipif(not MATMUL_ADD.exists(), reason=f"needs a checkout of catlass at {CATLASS}")
def test_matmul_add_example_matches_numpy(tmp_path) -> None:
    """03_matmul_add: D = A * B + X, a MIX kernel (the AIC's BlockMmad writes A * B to the workspace, the AIVs'
    block epilogue adds X), X copied into deviceD and D copied back from it (an in-place buffer). Before (issue
    29): the AIC hung at BlockMmad's destructor (ASC956; Gemm's and Gemv's L1AlignHelper specialisations shared a
    key, see tests/rust_sim/test_homonym_specialisations.py) and deviceD was an input the kernel wrote (ASC963),
    with no output. m > n takes the other swizzle of the two main launches."""
    m, n, k = 300, 200, 100
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    x = rng.uniform(-1, 1, (m, n)).astype(np.float16)
    for name, arr in (("a", a), ("b", b), ("x", x)):
        np.save(tmp_path / f"{name}.npy", arr)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(MATMUL_ADD), "-I", str(CATLASS / "include"), "-I",
                                       str(CATLASS / "examples" / "common"), "--args", f"{m} {n} {k}",
                                       "--input", f"deviceA={tmp_path / 'a.npy'}", "--input",
                                       f"deviceB={tmp_path / 'b.npy'}", "--input", f"deviceD={tmp_path / 'x.npy'}",
                                       "--output-dir", str(out)])
    assert result.exit_code == 0, result.output
    d = np.load(out / "deviceD.npy")
    assert d.dtype == np.float16 and d.shape == (m * n,)
    assert np.array_equal(np.load(out / "deviceD.in.npy"), x.reshape(-1))
    want = a.astype(np.float32) @ b.astype(np.float32) + x.astype(np.float32)
    assert np.allclose(d.reshape(m, n).astype(np.float32), want, rtol=1e-2, atol=1e-2)
