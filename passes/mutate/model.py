"""What a mutation operator is and what it produces."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from passes.mutate.lines import SiteFinder

# The root-cause labels of ../shared/data/kernelhive-failures (README there): each operator imitates one.
BUG_KINDS = frozenset({
    "kernel_scalar_dtype_rule", "kernel_libm_call", "kernel_api_misuse", "host_api_misuse",
    "project_interface_consistency", "host_tiling_invalid", "ub_budget_tile_size", "alignment",
    "multicore_coverage_or_offset", "sync_missing", "buffer_aliasing", "hl_api_contract", "queue_protocol",
})  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    operator: str
    line: int  # 1-based line of the edit in the original file
    text: str  # the whole mutated file


@dataclass(frozen=True)
class Operator:
    """One kind of bug, put into a single source file by a small textual edit.

    `family` names the rule-code prefixes expected to find it; `bug_kind` the real-failure label it imitates
    (plus `queue_protocol`, which the records file under kernel_api_misuse or hang); `fix` says in one
    sentence what the correct code does instead, for the reasoning of a repair example. `scope` is where its
    sites are looked for: `kernel` (device code), `host` (op_host sources) or `any`.
    """

    name: str
    family: tuple[str, ...]
    what: str
    sites: SiteFinder
    bug_kind: str = "kernel_api_misuse"
    fix: str = ""
    scope: str = "kernel"
    needs_live: bool = True  # the edited line must be one the lowering of the original reaches
    # whether the mutated program is still correct (the edit changed nothing that matters), judged on it
    still_correct: Callable[[object], bool] | None = None

    def __post_init__(self) -> None:
        if self.bug_kind not in BUG_KINDS:
            raise ValueError(f"operator {self.name}: unknown bug kind '{self.bug_kind}'")
        if self.scope not in ("kernel", "host", "any"):
            raise ValueError(f"operator {self.name}: unknown scope '{self.scope}'")


# (file relative to the project, 0-based line, the file's new lines)
ProjectSite = tuple[str, int, list[str]]


@dataclass(frozen=True)
class ProjectOperator:
    """A bug in the agreement between an op project's host and kernel files: sites over all its files."""

    name: str
    family: tuple[str, ...]
    what: str
    sites: Callable[[dict[str, list[str]]], Iterator[ProjectSite]]
    bug_kind: str = "project_interface_consistency"
    fix: str = ""

    def __post_init__(self) -> None:
        if self.bug_kind not in BUG_KINDS:
            raise ValueError(f"operator {self.name}: unknown bug kind '{self.bug_kind}'")
