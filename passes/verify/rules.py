"""The rule catalog: every check `ascendc-check` runs, with a stable code and a page.

A rule is a function over one lowered program, registered with `@rule(...)` next to the text of its
page (what it does, why it matters on hardware, an example, what to write instead). Rules report with
`ctx.report(op_or_span, message, notes...)`; the runner collects every finding and never stops at the
first. Families and code ranges:

    ASC2xx queue protocol   ASC3xx capacity        ASC4xx alignment        ASC5xx API misuse
    ASC6xx tiling/coverage  ASC7xx synchronisation ASC8xx project          ASC9xx host code
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation

from ascendir.catalog.loader import ARCHS
from frontend.diagnostics import Diagnostic, Note, Severity, Span, error, format_page, warning
from passes.verify.key_guard import key_note

if TYPE_CHECKING:
    from ascendir.catalog import Catalog
    from ascendir.chips import Chip
    from ascendir.host_eval import TilingResult
    from frontend.pipeline import Program

FAMILIES = {
    "queue": "queue protocol", "capacity": "capacity", "alignment": "alignment", "api": "API misuse",
    "tiling": "tiling and coverage", "sync": "synchronisation", "project": "project consistency",
    "host": "host code",
}  # fmt: skip


@dataclass(frozen=True)
class Rule:
    code: str
    name: str  # kebab-case, stable
    family: str
    severity: Severity
    summary: str  # one line: what it flags
    why: str  # why it matters on hardware (what the real failure looks like)
    example: str  # code that triggers it
    instead: str  # what to write instead
    check: Callable[[CheckContext], None] = field(compare=False, repr=False)
    # The rule judges calls by API facts of the catalogued architectures (overload positions, compiler
    # limits): on a chip whose architecture the catalog does not describe (950, 3510) it does not run.
    catalogued_archs_only: bool = False

    def page(self) -> str:
        """The rule's page, as `ascendc-check rule CODE` prints it."""
        scope = (f"; runs on the architectures the API catalog describes ({', '.join(ARCHS)})"
                 if self.catalogued_archs_only else "")
        return format_page(self.code, self.name, f"Family: {FAMILIES.get(self.family, self.family)}; default "
                           f"severity: {self.severity.value}{scope}", self.summary, self.why, self.example,
                           self.instead)


RULES: dict[str, Rule] = {}


def rule(code: str, name: str, family: str, summary: str, why: str, example: str, instead: str,
         severity: Severity = Severity.ERROR, catalogued_archs_only: bool = False,
         ) -> Callable[[Callable[[CheckContext], None]], Callable[[CheckContext], None]]:
    """Registers a check under its code; the arguments are the rule's page."""

    def register(check: Callable[[CheckContext], None]) -> Callable[[CheckContext], None]:
        if code in RULES:
            raise ValueError(f"rule code {code} is used twice ({RULES[code].name}, {name})")
        if family not in FAMILIES:
            raise ValueError(f"rule {code}: unknown family '{family}'")
        RULES[code] = Rule(code, name, family, severity, summary, why, example, instead, check, catalogued_archs_only)
        return check

    return register


def span_of_op(op: Operation) -> Span | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return Span.point(loc.filename.data, loc.line.data, loc.column.data)
    return None


@dataclass
class CheckContext:
    """What a rule sees: the lowered module, the program it came from, the chip, and the catalog."""

    module: ModuleOp
    program: Program | None
    chip: Chip
    catalog: Catalog
    rule: Rule | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # the host tiling function's run on concrete shapes (`--shape`, a test case file); None without shapes
    tiling: TilingResult | None = None
    # whether the DTYPE_<NAME> macros no op json binds have the lowering's default type (float), a guess
    # whose tensors the element-type rules leave alone; False in the runs that bind them to half or int32_t
    # on purpose, whose findings only count where the float run has them too
    dtypes_defaulted: bool = True

    def ops(self) -> Iterator[Operation]:
        return self.module.walk()

    def report(self, where: Operation | Span | None, message: str, *notes: Note,
               severity: Severity | None = None) -> None:
        assert self.rule is not None
        if self.rule.catalogued_archs_only and isinstance(where, Operation) and not self.catalogued_at(where):
            return
        span = span_of_op(where) if isinstance(where, Operation) else where
        if isinstance(where, Operation) and (keyed := key_note(where)) is not None:
            notes = (*notes, keyed)  # code one tiling key runs: say which (passes/verify/key_guard.py)
        make = error if (severity or self.rule.severity) == Severity.ERROR else warning
        self.diagnostics.append(make(self.rule.code, message, span, *notes))

    def catalogued_at(self, op: Operation) -> bool:
        """Whether the kernel holding `op` was written for a chip the API catalog describes (a project's
        Ascend 950 kernel carries its own chip; see ascendir.lower.kernel_entry.TARGET_CHIP_ATTR)."""
        from ascendir.catalog import arch_catalogued
        from ascendir.chips import load_chip
        from ascendir.lower.kernel_entry import TARGET_CHIP_ATTR

        kernel: Operation | None = op
        while kernel is not None and TARGET_CHIP_ATTR not in kernel.attributes:
            kernel = kernel.parent_op()
        if kernel is None:
            return arch_catalogued(self.chip.npu_arch)  # the program's chip
        target = kernel.attributes[TARGET_CHIP_ATTR]
        return arch_catalogued(load_chip(target.data).npu_arch)  # type: ignore[attr-defined]

    def note_at(self, op: Operation, message: str) -> Note:
        return Note(message, span_of_op(op))
