"""The mutation engine: small edits that put one real kind of bug into a correct AscendC kernel.

    from passes.mutate import OPERATORS, mutants_of, judge
    for mutant in mutants_of(text, OPERATORS, per_file=2):
        verdict = judge.static(name, text, mutant.text, operator=mutant.operator)

Each operator (`Operator`) imitates a root cause seen in real failures (`bug_kind`, the labels of the KernelHive
failure records): the queue protocol broken (queue.py), local memory overrun or misaligned, a core's global
memory slice wrong (memory.py), an API misused the way models misuse it (api.py), flags and barriers dropped
(sync.py), the tiling split off by one or missing its tail (tiling.py); `PROJECT_OPERATORS` break the
agreement between an op project's host and kernel (project.py). A mutant is only a candidate: it becomes a
bug when a checker flags it (`judge.py` for the static verifier; the benchmark's simulator stage for what only
a run shows). The benchmark's integrity tests, the dataset's repair examples and the recall measurements
(bench/perf/mutants.py) share these operators.
"""

from __future__ import annotations

from passes.mutate.api import API_OPERATORS
from passes.mutate.memory import MEMORY_OPERATORS
from passes.mutate.model import BUG_KINDS, Mutant, Operator, ProjectOperator, ProjectSite
from passes.mutate.project import PROJECT_OPERATORS
from passes.mutate.queue import QUEUE_OPERATORS
from passes.mutate.sync import SYNC_OPERATORS
from passes.mutate.tiling import TILING_OPERATORS

OPERATORS: list[Operator] = [*QUEUE_OPERATORS, *MEMORY_OPERATORS, *API_OPERATORS, *SYNC_OPERATORS,
                             *TILING_OPERATORS]

__all__ = ["BUG_KINDS", "Mutant", "Operator", "ProjectOperator", "ProjectSite", "OPERATORS", "PROJECT_OPERATORS",
           "operator", "mutants_of", "project_mutants_of"]

if len({op.name for op in OPERATORS} | {op.name for op in PROJECT_OPERATORS}) != len(OPERATORS) + len(
        PROJECT_OPERATORS):
    raise ValueError("two mutation operators share a name")


def operator(name: str) -> Operator | ProjectOperator:
    """The operator called `name`; KeyError naming the known ones otherwise."""
    for op in [*OPERATORS, *PROJECT_OPERATORS]:
        if op.name == name:
            return op
    raise KeyError(f"unknown mutation operator '{name}' (known: "
                   f"{', '.join(op.name for op in [*OPERATORS, *PROJECT_OPERATORS])})")


def _spread(sites: list, per_file: int) -> list:  # type: ignore[type-arg]
    """At most `per_file` of `sites`, spread evenly over them (deterministic)."""
    if per_file <= 0 or len(sites) <= per_file:
        return sites
    step = len(sites) / per_file
    return [sites[int(k * step)] for k in range(per_file)]


def mutants_of(text: str, operators: list[Operator], per_file: int) -> list[Mutant]:
    """At most `per_file` mutants per operator (0: all), at sites spread evenly over the file."""
    lines = text.split("\n")
    found = []
    for op in operators:
        found += [Mutant(op.name, i + 1, "\n".join(new)) for i, new in _spread(list(op.sites(lines)), per_file)]
    return found


def project_mutants_of(files: dict[str, str], operators: list[ProjectOperator], per_file: int
                       ) -> list[tuple[str, str, int, str]]:
    """(operator, file, 1-based line, the file's new text) for the project's files (relative paths under
    op_host/ and op_kernel/), at most `per_file` per operator."""
    split = {rel: text.split("\n") for rel, text in files.items()}
    found = []
    for op in operators:
        found += [(op.name, rel, i + 1, "\n".join(new)) for rel, i, new in _spread(list(op.sites(split)), per_file)]
    return found
