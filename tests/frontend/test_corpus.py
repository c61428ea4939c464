"""Every clean corpus input (kernels of all four device styles, host code, op projects, benchmark
answers) and every bundled example reads and parses with zero diagnostics."""

from pathlib import Path

import pytest

from frontend.pipeline import Program, load_bundle
from frontend.readers import collect_inputs

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ROOT / "tests" / "corpus" / "clean"
INPUTS = [b for folder in (CLEAN, ROOT / "examples") for b in collect_inputs([str(folder)])]


def _name(bundle: object) -> str:
    return str(Path(bundle.input).relative_to(ROOT))  # type: ignore[attr-defined]


@pytest.mark.parametrize("bundle", INPUTS, ids=_name)
def test_clean_input_has_no_diagnostics(bundle: object) -> None:
    program: Program = load_bundle(bundle)  # type: ignore[arg-type]
    assert program.units, "the reader found no sources"
    assert [f"{d.span}: {d.message} [{d.code}]" for d in program.diagnostics] == []


def test_corpus_is_big_enough_and_covers_every_style() -> None:
    by_folder = {p.name: len(list(p.iterdir())) for p in (CLEAN / "kernels").iterdir()}
    assert set(by_folder) >= {"tpipe", "memalloc", "legacy", "gm_tiling"}
    assert len(INPUTS) >= 40
    formats = {b.format for b in INPUTS}
    assert formats >= {"cpp", "project", "npukernelbench", "multikernelbench"}


def test_every_kernel_file_declares_a_kernel() -> None:
    kernels = 0
    for bundle in INPUTS:
        program = load_bundle(bundle)
        for unit in program.units:
            if unit.unit.role == "kernel":
                kernels += sum(1 for _ in unit.ast.kernels())
    assert kernels >= 40
