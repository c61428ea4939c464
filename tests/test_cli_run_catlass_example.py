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


CONV2D = CATLASS / "examples" / "33_basic_conv2d" / "basic_conv2d.cpp"


@pytest.mark.skipif(not CONV2D.exists(), reason=f"needs a checkout of catlass at {CATLASS}")
def test_basic_conv2d_example_matches_numpy(tmp_path) -> None:
    """33_basic_conv2d (issue 29): its host code's Conv2dParams constructor takes the output channels as `cout`
    (no longer left out as a print: tests/test_cli_run_host_names_like_streams.py), and its CopyL1ToL0A passes a
    braced LoadData3DParamsV2 (the overload by the list's length: tests/ascendir/test_catalog_braced_lists.py).
    catlass's MakeConv2dParams reads strides[2] and strides[3] of a 2-element array (conv_coord.hpp), which C++
    leaves undefined and the run reports (ASC958); on the device the compiled code reads the next member there,
    the dilations, so the run here takes conv_coord.hpp with those two reads spelt dilations[0] and [1], made in
    tmp_path from the checkout's own file. Stride 2, dilation 2, 20 input channels (two C1 slices, the second
    part padding). The reference follows catlass's golden (examples/common/golden/conv2d.hpp)."""
    header = (CATLASS / "include" / "catlass" / "conv_coord.hpp").read_text()
    read_past = "strides[0], strides[1], strides[2], strides[3]);"
    assert header.count(read_past) == 1, "catlass's MakeConv2dParams changed: look again at this test's patch"
    (tmp_path / "inc" / "catlass").mkdir(parents=True)
    (tmp_path / "inc" / "catlass" / "conv_coord.hpp").write_text(
        header.replace(read_past, "strides[0], strides[1], dilations[0], dilations[1]);"))
    batch, hi, wi, cin, cout, kh, kw, pad, stride, dil = 1, 9, 11, 20, 32, 3, 3, 1, 2, 2
    out = tmp_path / "out"
    args = f"{batch} {hi} {wi} {cin} {cout} {kh} {kw} {pad} {pad} {pad} {pad} {stride} {stride} {dil} {dil}"
    result = CliRunner().invoke(main, [str(CONV2D), "-I", str(tmp_path / "inc"), "-I", str(CATLASS / "include"), "-I",
                                       str(CATLASS / "examples" / "common"), "--args", args, "--output-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output
    c0, cin1, cout1 = 16, (cin + 15) // 16, cout // 16
    ho = (hi + 2 * pad - dil * (kh - 1) - 1) // stride + 1
    wo = (wi + 2 * pad - dil * (kw - 1) - 1) // stride + 1
    fmap = np.load(out / "deviceFmap.npy").astype(np.float32).reshape(batch, cin1, hi, wi, c0)
    filt = np.load(out / "deviceFilter.npy").astype(np.float32).reshape(cin1, kh, kw, cout, c0)
    padded = np.pad(fmap, ((0, 0), (0, 0), (pad, pad), (pad, pad), (0, 0)))
    want = np.zeros((batch, ho, wo, cout), np.float32)
    for y in range(kh):
        for x in range(kw):
            rows = slice(y * dil, y * dil + (ho - 1) * stride + 1, stride)
            cols = slice(x * dil, x * dil + (wo - 1) * stride + 1, stride)
            window = padded[:, :, rows, cols]
            want += np.einsum("bkhwc,koc->bhwo", window, filt[:, y, x])
    # the output is 5HD (batch, cout1, ho, wo, c0)
    got = np.load(out / "deviceOutput.npy").astype(np.float32).reshape(batch, cout1, ho, wo, c0)
    got = got.transpose(0, 2, 3, 1, 4).reshape(batch, ho, wo, cout)
    assert np.allclose(got, want, rtol=1e-2, atol=2e-2 * np.abs(want).max())


OPTIMIZED_MATMUL_TLA = CATLASS / "examples" / "14_optimized_matmul_tla" / "optimized_matmul_tla.cpp"


@pytest.mark.skipif(not OPTIMIZED_MATMUL_TLA.exists(), reason=f"needs a checkout of catlass at {CATLASS}")
def test_optimized_matmul_tla_example_matches_numpy(tmp_path) -> None:
    """14_optimized_matmul_tla (issue 29): a MIX kernel whose AIVs first copy A (row-major, 128 columns) and B
    (column-major, 128 rows) into 128 x 256 / 256 x 256 padded blocks of the workspaces deviceWA / deviceWB (rows
    of 256 elements: a stride of 128 is not 256-aligned), then the AICs multiply the padded copies. Host main builds
    the padded layouts with GetPaddingLayout, whose `uint32_t blockRows` is given tla's Int<128>{}: before, the
    parameter kept the Int<128> (tests/rust_sim/test_object_converted_to_number.py), the layout's type was not
    PaddingMatrixBlockND's LayoutInnerDstGm and the padding transposed the blocks (ASC953, C wrong everywhere).
    Other fixes it needed: test_qualified_member_alias.py, test_copy_constructor_beats_base_conversion.py,
    test_assignment_copies_base_parts.py. B is column-major: deviceB holds B transposed (n x k)."""
    m, n, k = 256, 512, 128
    rng = np.random.default_rng(14)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    bt = rng.uniform(-1, 1, (n, k)).astype(np.float16)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "bt.npy", bt)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [str(OPTIMIZED_MATMUL_TLA), "-I", str(CATLASS / "include"), "-I",
                                       str(CATLASS / "examples" / "common"), "--args", f"{m} {n} {k}",
                                       "--input", f"deviceA={tmp_path / 'a.npy'}", "--input",
                                       f"deviceB={tmp_path / 'bt.npy'}", "--output-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output
    c = np.load(out / "deviceC.npy")
    assert c.dtype == np.float16 and c.shape == (m * n,)
    want = a.astype(np.float32) @ bt.astype(np.float32).T
    assert np.allclose(c.reshape(m, n).astype(np.float32), want, rtol=1e-2, atol=1e-2)
