"""Every kernel of the clean corpus lowers to IR that verifies and survives print -> parse -> print, with and
without source locations (`ascendir.text`, whose printer puts the location of a custom-form `scf.while` where
its parser reads it)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp

from ascendir.lower import lower_program
from ascendir.text import parse_ir, print_ir
from ascendir.verify import verify_ir
from frontend.pipeline import load_bundle
from frontend.readers import Bundle, collect_inputs

CLEAN = Path(__file__).resolve().parents[1] / "corpus" / "clean"
BUNDLES = {
    Path(b.input).resolve().relative_to(CLEAN).as_posix(): b for b in collect_inputs([str(CLEAN)], "auto")
}

# Inputs whose lowering is known to be wrong; strict, so a fix shows up as a failure to remove the entry.
KNOWN_BAD: dict[str, str] = {}


def cases() -> list[object]:
    return [
        pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_BAD[name], strict=True)) if name in KNOWN_BAD
        else name
        for name in sorted(BUNDLES)
    ]  # fmt: skip


@cache
def lowered(name: str) -> ModuleOp:
    bundle: Bundle = BUNDLES[name]
    result = lower_program(load_bundle(bundle))
    assert not result.diagnostics, [d.message for d in result.diagnostics]
    return result.module


def reprint(text: str, **options: bool) -> str:
    module = parse_ir(text)
    assert verify_ir(module) == []
    return print_ir(module, **options)


@pytest.mark.parametrize("name", cases())
def test_lowered_module_verifies(name: str) -> None:
    assert [str(f) for f in verify_ir(lowered(name))] == []


@pytest.mark.parametrize("name", cases())
def test_custom_form_round_trips(name: str) -> None:
    text = print_ir(lowered(name))
    assert reprint(text) == text


@pytest.mark.parametrize("name", cases())
def test_debuginfo_form_round_trips(name: str) -> None:
    module = lowered(name)
    text = print_ir(module, debuginfo=True)
    assert 'loc("' in text or not module.body.block.ops  # host-only inputs lower to an empty module
    assert reprint(text, debuginfo=True) == text


def test_a_while_loop_prints_its_location_once_after_its_regions() -> None:
    name = next(n for n in sorted(BUNDLES) if any(isinstance(op, scf.WhileOp) for op in lowered(n).walk()))
    text = print_ir(lowered(name), debuginfo=True)
    line = next(line for line in text.splitlines() if "scf.while" in line)
    assert "loc(" not in line  # xDSL's own printer puts it here, before the region
    assert reprint(text, debuginfo=True) == text
