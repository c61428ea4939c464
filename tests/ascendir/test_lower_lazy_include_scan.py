"""The lowering reads the kernel sources' #include lines (ascendir.lower.program_scopes.named_by_kernel_includes) only when
the program has a kernel header to decide about: a single-file kernel is lowered without that scan (issue 33's
speed goal), and a project whose header is included only for another chip still leaves that header out."""

from __future__ import annotations

from pathlib import Path

import pytest

import ascendir.lower as lower
from ascendir.lower import program_scopes
from frontend.pipeline import load
from passes.verify import check_program

ROOT = Path(__file__).resolve().parents[2]
SINGLE = ROOT / "tests" / "corpus" / "clean" / "kernels" / "tpipe"
PROJECT = ROOT / "tests" / "corpus" / "rules" / "clean" / "project_chip_conditional_header"


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = program_scopes.named_by_kernel_includes

    def counted(program: object) -> set[str]:
        calls.append(1)
        return real(program)  # type: ignore[arg-type]

    monkeypatch.setattr(program_scopes, "named_by_kernel_includes", counted)
    return calls


def test_a_single_file_kernel_is_lowered_without_the_include_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    source = sorted(SINGLE.glob("*.cpp"))[0]
    result = lower.lower_program(load(str(source)), lower.LoweringOptions(chip="910B2"))
    assert not [d for d in result.diagnostics if d.severity == "error"]
    assert calls == []


def test_a_header_included_only_for_another_chip_is_still_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    # lowered as a unit of its own, the 310P header's bfloat16 Adds is an ASC502 error on a 910B
    assert check_program(load(str(PROJECT)), chip="910B2") == []
    assert calls  # the scan ran: the program has kernel headers to decide about
