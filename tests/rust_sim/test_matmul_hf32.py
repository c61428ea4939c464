"""Matmul::SetHF32(true) is said, not silently dropped: the docs give HF32's two rounding modes but not its
format, so the simulated cube keeps multiplying float in FP32 and the run carries an ASC958 warning at the call
(rust_sim/src/cube/matmul.rs). Before, the call was a no-op with no finding: a float kernel relying on HF32's
precision loss (or tolerating it) ran as FP32 without a word. A half Matmul (HF32 does not apply) stays quiet.
The team's matmul_custom project (tests/corpus/clean/projects), the float variant made by replacing its element
types.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

PROJECT = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "projects" / "matmul_custom"


def _project(tmp_path: Path, float_ab: bool) -> Path:
    out = tmp_path / "matmul_custom"
    for src in PROJECT.rglob("*"):
        if not src.is_file():
            continue
        text = src.read_text()
        if src.name == "matmul_custom.cpp" and src.parent.name == "op_kernel":
            assert "    mm.IterateAll(cGm);" in text
            text = text.replace("    mm.IterateAll(cGm);", "    mm.SetHF32(true);\n    mm.IterateAll(cGm);")
        if float_ab:
            text = text.replace("half", "float").replace("DT_FLOAT16", "DT_FLOAT").replace('"fp16"', '"float"')
        dst = out / src.relative_to(PROJECT)
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(text)
    return out


def _hf32_warnings(result: object) -> list[object]:
    return [d for d in result.findings if d.code == "ASC958" and "SetHF32" in d.message]  # type: ignore[attr-defined]


def test_set_hf32_on_a_float_matmul_is_a_warning_and_the_product_stays_fp32(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (40, 48)).astype(np.float32)
    b = rng.uniform(-1, 1, (48, 24)).astype(np.float32)
    result = run(str(_project(tmp_path, True)), [a, b, None])
    assert result.ok, result.findings
    assert len(_hf32_warnings(result)) == 1, result.findings
    np.testing.assert_allclose(result.outputs["c"], a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def test_set_hf32_on_a_half_matmul_stays_quiet(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    a = rng.uniform(-1, 1, (40, 48)).astype(np.float16)
    b = rng.uniform(-1, 1, (48, 24)).astype(np.float16)
    result = run(str(_project(tmp_path, False)), [a, b, None])
    assert result.ok, result.findings
    assert not _hf32_warnings(result), result.findings


def test_the_basic_api_mode_setters_run_and_hf32_mode_is_said_at_the_float_mmad() -> None:
    # SetHF32Mode / SetHF32TransMode / SetMMLayoutTransform (the forms ops-nn's arch22 conv3d_backprop funcs call;
    # before, not catalogued: call gaps) around a basic-API float Mmad: the product as FP32, one warning at the Mmad
    # while HF32 mode is on, none after HF32Mode::DISABLE; the layout order changes nothing
    import test_load3d_internal_setters as base

    mmad = "    Mmad(c1, a2, b2, mp);"
    assert mmad in base.KERNEL
    rng = np.random.default_rng(9)
    a = rng.uniform(-1, 1, (30, 40)).astype(np.float32)
    b = rng.uniform(-1, 1, (40, 70)).astype(np.float32)
    for setters, warned in [("SetHF32Mode(true);\n    SetHF32TransMode(false);\n    SetMMLayoutTransform(true);", 1),
                            ("SetHF32Mode(HF32Mode::ENABLE);\n    SetHF32Mode(HF32Mode::DISABLE);\n"
                             "    SetMMRowMajor();", 0)]:
        kernel = base.KERNEL.replace(mmad, f"    {setters}\n{mmad}")
        result = run(kernel, [a, b], block_dim=1, defines={"M": "30", "N": "70", "K": "40"},
                     outputs={"c": np.zeros((30, 70), np.float32)})
        assert result.ok, result.findings
        hf32 = [d for d in result.findings if d.code == "ASC958" and "SetHF32Mode" in d.message]
        assert len(hf32) == warned, result.findings
        np.testing.assert_allclose(result.outputs["c"], a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)
