"""Whether the static verifier flags a mutant: what `ascendc-check` reports on it that the original lacks.

A mutant is flagged when the check reports an error the original does not have, or a warning of the rule
family its operator expects (InitBuffer twice, ASC212, is a warning). Findings are compared by code and message,
not by line, since an inserted or deleted line moves every line below it. Inputs are one source text (a
kernel file or a benchmark answer) or an op project's files held in memory; with `shapes` the host tiling
runs on them first, as `ascendc-check --shape` does, so capacity, alignment and coverage rules see numbers.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ascendir.host_eval import TilingInputs
    from frontend.diagnostics import Diagnostic
    from frontend.readers import Bundle


@dataclass(frozen=True)
class Verdict:
    flagged: bool
    findings: tuple[Diagnostic, ...]  # the mutant's errors and in-family warnings that the original lacks
    mutant_diagnostics: tuple[Diagnostic, ...]  # everything the check reported on the mutant
    files: Mapping[str, str]  # the mutant's files, to render the findings with their source lines


@contextmanager
def sources_bundle(files: Mapping[str, str], name: str = "<input>.cpp") -> Iterator[tuple[Bundle, str | None]]:
    """The bundle of one text (`files` = {name: text}) or of an op project (files under op_host/ and op_kernel/
    plus the op json, written to a temporary folder that lives as long as the context, and read as
    `ascendc-check DIR` reads it), with that folder's path prefix (None for one text)."""
    from frontend.pipeline import read_text
    from frontend.readers import read_input

    if len(files) == 1 and not any(rel.startswith(("op_host/", "op_kernel/")) for rel in files):
        ((path, text),) = files.items()
        yield read_text(text, name=path), None
        return
    with tempfile.TemporaryDirectory(prefix="ascendir-mutant-") as tmp:
        root = Path(tmp) / (Path(name).stem or "project")
        for rel, text in files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        yield read_input(str(root)), str(root) + "/"


def relative(diags: Sequence[Diagnostic], prefix: str | None) -> list[Diagnostic]:
    """`diags` with the temporary project folder taken off their file names (`op_kernel/x.cpp`)."""
    if prefix is None:
        return list(diags)
    out = []
    for d in diags:
        if d.span is not None:
            d = replace(d, span=replace(d.span, file=str(d.span.file).removeprefix(prefix)))
        out.append(replace(d, notes=tuple(replace(n, span=replace(n.span, file=str(n.span.file).removeprefix(prefix)))
                                          if n.span is not None else n for n in d.notes)))
    return out


def check_sources(files: Mapping[str, str], chip: str = "910B2", shapes: TilingInputs | None = None,
                  name: str = "<input>.cpp") -> list[Diagnostic]:
    """Every error and warning `ascendc-check --chip CHIP` reports on the sources, with project paths made
    relative (`op_kernel/x.cpp`) so that they name the same files as `files`."""
    from passes.verify import check_program, load_for_check

    with sources_bundle(files, name) as (bundle, prefix):
        program, target = load_for_check(bundle, chip)
        diags = check_program(program, chip=target, shapes=shapes)
    return relative([d for d in diags if d.is_error or d.severity.name == "WARNING"], prefix)


def new_findings(before: Sequence[Diagnostic], after: Sequence[Diagnostic], family: Sequence[str] = ()
                 ) -> list[Diagnostic]:
    """The errors of `after` beyond those of `before`, and its warnings of `family` beyond those of `before`,
    matched by (code, message) with multiplicity."""
    seen = Counter((d.code, d.message) for d in before)
    out = []
    for d in after:
        key = (d.code, d.message)
        if seen[key] > 0:
            seen[key] -= 1
            continue
        if d.is_error or d.code.startswith(tuple(family)):
            out.append(d)
    return out


def static(original: Mapping[str, str], mutant: Mapping[str, str], family: Sequence[str] = (),
           chip: str = "910B2", shapes: TilingInputs | None = None, name: str = "<input>.cpp",
           before: Sequence[Diagnostic] | None = None) -> Verdict:
    """The static verifier's verdict on `mutant` (the original's files with one changed), against `original`
    (whose diagnostics may be passed in as `before` when judging many mutants of it)."""
    if before is None:
        before = check_sources(original, chip, shapes, name)
    after = check_sources(mutant, chip, shapes, name)
    found = new_findings(before, after, family)
    return Verdict(bool(found), tuple(found), tuple(after), dict(mutant))


def lowered_lines(files: Mapping[str, str], chip: str = "910B2", name: str = "<input>.cpp") -> set[tuple[str, int]]:
    """(file, line) of every op of the lowered original: the code the checker sees. An edit elsewhere is in code
    preprocessed away, in a template never instantiated, or in a function no kernel calls."""
    from ascendir.lower import LoweringOptions, lower_program
    from passes.verify import load_for_check
    from passes.verify.rules import span_of_op

    with sources_bundle(files, name) as (bundle, prefix):
        program, target = load_for_check(bundle, chip)
        module = lower_program(program, LoweringOptions(chip=target)).module
    lines = set()
    for op in module.walk():
        span = span_of_op(op)
        if span is not None:
            lines.add((str(span.file).removeprefix(prefix or ""), span.line))
    return lines
