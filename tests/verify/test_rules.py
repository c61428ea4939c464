"""The rule catalog on annotated kernels: every `expected-error ... [ASCnnn]` line is reported, nothing
else is; clean kernels (the frontend corpus and tests/corpus/rules/clean) get no diagnostic at all.

Adding a rule = adding kernels under tests/corpus/rules/<family>/ with inline expectations (see
tests/frontend/test_inline_expectations.py for the syntax). A line `// ascendc-check-args: --shape 4,8:float32`
(or `# ...` in a Python answer) in the first lines of a file gives it concrete shapes, as on the command line.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from frontend.readers import collect_inputs
from passes.verify import FAMILIES, RULES, check_program, load_for_check

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "frontend"))
from test_inline_expectations import check_expectations, parse_expectations  # noqa: E402

RULE_CORPUS = ROOT / "tests" / "corpus" / "rules"
SUFFIXES = (".cpp", ".asc", ".md", ".py")
BUGGY = sorted(p for p in RULE_CORPUS.rglob("*") if p.suffix in SUFFIXES and "clean" not in p.parts)
CLEAN_DIRS = [ROOT / "tests" / "corpus" / "clean", RULE_CORPUS / "clean", ROOT / "examples"]


_ARGS_RE = re.compile(r"^\s*(?://|#)\s*ascendc-check-args:\s*(?P<args>.+)$", re.MULTILINE)


def check_with_args(path: Path, program: object) -> list:
    """check_program with the `--shape`/`--attr` options written in the file's header, if any."""
    from cli.shapes import parse_attr_value, parse_tensor_spec
    from passes.verify.concrete_inputs import ConcreteInputs

    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:5]) if path.is_file() else ""
    found = _ARGS_RE.search(head)
    if found is None:
        return check_program(program)  # type: ignore[arg-type]
    words = shlex.split(found.group("args"))
    shapes = [words[i + 1] for i, w in enumerate(words) if w == "--shape"]
    attrs = [words[i + 1] for i, w in enumerate(words) if w == "--attr"]
    concrete = ConcreteInputs([parse_tensor_spec(t) for t in shapes], [parse_attr_value(t) for t in attrs])
    return check_program(program, shapes=concrete.for_program(program, "910B2"))  # type: ignore[arg-type]


def load_as_cli(path: Path) -> object:
    """The program as `ascendc-check PATH` reads it: preprocessed with the macros of the chip it picks
    (`__NPU_ARCH__`, and in kernel sources the vector pass's `__DAV_C220_VEC__`)."""
    from frontend.pipeline import read_input

    return load_for_check(read_input(str(path)))[0]


def _id(p: Path) -> str:
    return p.relative_to(RULE_CORPUS).as_posix()


@pytest.mark.parametrize("path", BUGGY, ids=[_id(p) for p in BUGGY])
def test_annotated_kernel(path: Path) -> None:
    expectations, _ = parse_expectations(path)
    assert any(e.kind == "error" or e.kind == "warning" for e in expectations), "a buggy kernel must expect a finding"
    diagnostics = check_with_args(path, load_as_cli(path))
    report = check_expectations(path, diagnostics)
    if not report.ok:
        pytest.fail(report.table(path, diagnostics), pytrace=False)


CLEAN = [b for folder in CLEAN_DIRS if folder.exists() and any(p.suffix in SUFFIXES for p in folder.rglob("*"))
         for b in collect_inputs([str(folder)], "auto")]


@pytest.mark.parametrize("bundle", CLEAN, ids=[Path(b.input).name for b in CLEAN])
def test_clean_kernel_has_no_diagnostics(bundle: object) -> None:
    program, _ = load_for_check(bundle)  # type: ignore[arg-type]
    diagnostics = check_with_args(Path(bundle.input), program)  # type: ignore[attr-defined]
    assert [f"{d.span}: {d.message} [{d.code}]" for d in diagnostics] == []


def test_every_rule_has_a_page_and_an_annotated_kernel() -> None:
    expected_codes = {e.code for p in BUGGY for e in parse_expectations(p)[0]}
    for code, rule in RULES.items():
        assert rule.family in FAMILIES and rule.summary and rule.why and rule.example and rule.instead, code
        assert code in expected_codes, f"rule {code} ({rule.name}) has no annotated test kernel"
