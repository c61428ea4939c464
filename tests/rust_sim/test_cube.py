"""The cube path end to end: the team's matmul kernels on shapes with tails in M, N and K against numpy.

- mmad_custom: cube only, basic API (ND2NZ, LoadData, Mmad over K, Fixpipe);
- matmul_custom: cube only, the Matmul object with the host's MultiCoreMatmulTiling (with and without bias);
- matmul_leakyrelu_custom: MIX, the Matmul object driven from the vector cores, a LeakyReLU epilogue;
- mmad_relu_mix_custom: MIX on the basic API, cube and vector cores handing tiles over with cross-core flags.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

PROJECTS = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "projects"


def _inputs(m: int, k: int, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, (n,)).astype(np.float32)
    return a, b, bias


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.float32) @ b.astype(np.float32)


def _check(result: object, want: np.ndarray) -> None:
    assert result.ok, result.findings  # type: ignore[attr-defined]
    got = result.outputs["c"]  # type: ignore[attr-defined]
    # fp16 products are exact in fp32; only the order of the fp32 sums differs from numpy's
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mkn", [(100, 70, 90), (64, 128, 64), (33, 17, 5)])
def test_basic_api_cube_kernel_matches_numpy(mkn: tuple[int, int, int]) -> None:
    a, b, _ = _inputs(*mkn)
    result = run(str(PROJECTS / "mmad_custom"), [a, b])
    _check(result, _matmul(a, b))
    assert result.program.splitlines()[1].endswith(" aic")


# the cores the library's split uses (ascendir.matmul_core_split) with SetDim(24): 64 x 80 x 96 half is within
# L0 and stays on one core; 150 x 70 x 300 is cut 4 x 5 (singleCoreM 40, singleCoreN 16)
@pytest.mark.parametrize("mkn, with_bias, cores", [((64, 96, 80), False, 1), ((150, 300, 70), True, 20)])
def test_matmul_object_on_the_cube_cores_matches_numpy(
    mkn: tuple[int, int, int], with_bias: bool, cores: int
) -> None:
    a, b, bias = _inputs(*mkn, seed=1)
    result = run(str(PROJECTS / "matmul_custom"), [a, b, bias if with_bias else None])
    assert result.tiling_key == (1 if with_bias else 2)
    _check(result, _matmul(a, b) + (bias if with_bias else 0))
    assert result.block_dim == cores  # the host sets blockDim to usedCoreNum


def test_mix_matmul_object_with_a_vector_epilogue_matches_numpy() -> None:
    a, b, bias = _inputs(300, 40, 200, seed=2)
    result = run(str(PROJECTS / "matmul_leakyrelu_custom"), [a, b, bias], [0.2])
    x = _matmul(a, b) + bias
    _check(result, np.where(x > 0, x, np.float32(0.2) * x))
    # per block one AIC (which serves the object and returns at REGIST_MATMUL_OBJ) and two AIVs
    assert len(result.per_core) == 3 * result.block_dim
    assert result.per_core[2] < 20 < result.per_core[0]


@pytest.mark.parametrize("mkn", [(100, 70, 90), (20, 16, 30)])
def test_mix_basic_api_kernel_with_cross_core_flags_matches_numpy(mkn: tuple[int, int, int]) -> None:
    a, b, bias = _inputs(*mkn, seed=3)
    result = run(str(PROJECTS / "mmad_relu_mix_custom"), [a, b, bias])
    _check(result, np.maximum(_matmul(a, b) + bias, 0))


def _patched(name: str, tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """A copy of project `name` with `old` replaced by `new` in its kernel; and the line of `new`."""
    project = tmp_path / name
    for src in (PROJECTS / name).rglob("*"):
        if src.is_file():
            dst = project / src.relative_to(PROJECTS / name)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(src.read_text())
    kernel = project / "op_kernel" / f"{name}.cpp"
    text = kernel.read_text()
    assert old in text
    kernel.write_text(text.replace(old, new))
    line = next((i for i, t in enumerate(text.replace(old, new).splitlines(), 1) if new and new in t), 0)
    return project, line


def test_a_cross_core_wait_nothing_sets_is_a_deadlock_at_its_line(tmp_path: Path) -> None:
    # the vector cores wait for a flag id the cube core never sets
    project, line = _patched("mmad_relu_mix_custom", tmp_path, "AscendC::CrossCoreWaitFlag(slot);",
                             "AscendC::CrossCoreWaitFlag(slot + 7);")
    a, b, bias = _inputs(20, 16, 30)
    result = run(str(project), [a, b, bias])
    deadlocks = [d for d in result.findings if d.code == "ASC956"]
    assert deadlocks and not result.ok
    assert any(d.span is not None and d.span.line == line for d in deadlocks)


def test_a_matmul_kernel_of_no_declared_type_runs_as_mix(tmp_path: Path) -> None:
    project, _ = _patched("matmul_leakyrelu_custom", tmp_path, "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);", "")
    a, b, bias = _inputs(64, 32, 64, seed=4)
    result = run(str(project), [a, b, bias], [0.0])
    assert "kernel matmul_leakyrelu_custom mix_aic_1_2" in result.program
    _check(result, np.maximum(_matmul(a, b) + bias, 0))


def test_an_nz_operand_named_through_an_alias_is_read_as_fractals(tmp_path: Path) -> None:
    # `using AType = MatmulType<GM, CubeFormat::NZ, half>; using MatmulObj = Matmul<AType, ...>`: the object sees
    # A's format through both aliases and reads A from GM as 16 x 16 fractals, z-columns of 16 along K
    nd = "using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;"
    project, _ = _patched("matmul_custom", tmp_path, nd, nd.replace("ND", "NZ"))
    a, b, bias = _inputs(64, 96, 48, seed=5)
    a_nz = np.ascontiguousarray(a.reshape(64, 96 // 16, 16).transpose(1, 0, 2)).reshape(64, 96)
    result = run(str(project), [a_nz, b, bias])
    assert "config=Matmul<MatmulType<AscendC::TPosition::GM,CubeFormat::NZ,half>,MatmulType" in result.program
    _check(result, _matmul(a, b) + bias)


def test_load_data_with_transpose_into_l0b_matches_numpy(tmp_path: Path) -> None:
    # mmad_custom's B split through LoadDataWithTranspose (LoadData2dTransposeParams) instead of LoadData with
    # ifTranspose: for half both transpose each 16 x 16 fractal
    old = """        AscendC::LoadData2DParams params;
        params.repeatTimes = static_cast<uint8_t>(nBlocks);
        params.srcStride = static_cast<uint16_t>(kBlocks);
        params.ifTranspose = true;
        for (int32_t i = 0; i < kBlocks; i++) {
            AscendC::LoadData(b2Local[i * nBlocks * FRACTAL_ELEMS], b1Local[i * FRACTAL_ELEMS], params);"""
    new = """        AscendC::LoadData2dTransposeParams params(0, static_cast<uint8_t>(nBlocks),
                                                  static_cast<uint16_t>(kBlocks), 0, 0);
        for (int32_t i = 0; i < kBlocks; i++) {
            AscendC::LoadDataWithTranspose(b2Local[i * nBlocks * FRACTAL_ELEMS], b1Local[i * FRACTAL_ELEMS],
                                           params);"""
    project, _ = _patched("mmad_custom", tmp_path, old, new)
    a, b, _ = _inputs(100, 70, 90, seed=6)
    result = run(str(project), [a, b])
    assert "call LoadDataWithTranspose.plain<T=f16>" in result.program
    _check(result, _matmul(a, b))


def test_get_sub_block_num_is_the_aivs_of_a_mix_block(tmp_path: Path) -> None:
    # GetSubBlockNum (catlass's epilogues) equals GetTaskRation: 2 on the AIVs of MIX 1:2, 1 on the AIC
    project, _ = _patched("mmad_relu_mix_custom", tmp_path, "AscendC::GetBlockIdx() / AscendC::GetTaskRation()",
                          "AscendC::GetBlockIdx() / AscendC::GetSubBlockNum()")
    a, b, bias = _inputs(100, 70, 90, seed=3)
    result = run(str(project), [a, b, bias])
    assert "GetSubBlockNum" in result.program
    _check(result, np.maximum(_matmul(a, b) + bias, 0))
