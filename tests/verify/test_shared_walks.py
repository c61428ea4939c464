"""project.nodes(ctx, *roles): role lists that select the same sources share one list (a single-file kernel's
every role list is its one walk), and every role list still holds exactly the nodes of its sources, in walk
order, with the calls among them in the order project.calls always gave (issue 33's speed goal: the rules
found the calls of identical lists once per list)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from ascendir.catalog import load_catalog
from ascendir.chips import load_chip
from ascendir.lower import LoweringOptions, lower_program
from frontend import ast as A
from frontend.pipeline import load
from passes.verify.project import calls, nodes
from passes.verify.rules import CheckContext

ROOT = Path(__file__).resolve().parents[2]
SINGLE = ROOT / "tests" / "corpus" / "clean" / "kernels" / "tpipe"
PROJECT = ROOT / "tests" / "corpus" / "clean" / "projects" / "add_custom"
ROLES = ("kernel", "host", "header", "tiling_header", "other")


def _context(path: Path) -> CheckContext:
    program = load(str(path))
    module = lower_program(program, LoweringOptions(chip="910B2")).module
    return CheckContext(module, program, load_chip("910B2"), load_catalog())


def _expected(ctx: CheckContext, roles: tuple[str, ...]) -> list[A.Node]:
    return [n for u in ctx.program.units if not roles or u.unit.role in roles for n in u.ast.walk()]


def _expected_calls(found: list[A.Node]) -> list[A.Call]:
    out: list[A.Call] = []
    for item in found:  # project.calls' slow path: a unit's calls, then each node that is a call
        for node in (list(n for n in item.walk() if isinstance(n, A.Call)) if isinstance(item, A.TranslationUnit)
                     else [item]):
            if isinstance(node, A.Call):
                out.append(node)
    return out


def _all_role_lists() -> list[tuple[str, ...]]:
    return [()] + [c for k in (1, 2, 3) for c in combinations(ROLES, k)]


def test_a_single_file_kernel_has_one_walk_for_every_role_list() -> None:
    ctx = _context(sorted(SINGLE.glob("*.cpp"))[0])
    everything = nodes(ctx)
    assert nodes(ctx, "kernel") is everything
    assert nodes(ctx, "host", "kernel", "other") is everything
    assert nodes(ctx, "host") == [] and nodes(ctx, "host") is nodes(ctx, "python_bind")
    assert list(everything) == _expected(ctx, ())


def test_every_role_list_holds_its_sources_nodes_and_calls_in_order() -> None:
    for path in (sorted(SINGLE.glob("*.cpp"))[0], PROJECT):
        ctx = _context(path)
        assert len({u.unit.role for u in ctx.program.units}) >= (2 if path == PROJECT else 1)
        for roles in _all_role_lists():
            found = nodes(ctx, *roles)
            assert [id(n) for n in found] == [id(n) for n in _expected(ctx, roles)], roles
            assert [id(c) for c in calls(found)] == [id(c) for c in _expected_calls(found)], roles
            names = {c.callee_name for c in calls(found)}
            for name in sorted(n for n in names if n)[:5]:
                assert [id(c) for c in calls(found, name)] == [
                    id(c) for c in _expected_calls(found) if c.callee_name == name], (roles, name)
        if path == PROJECT:
            assert nodes(ctx, "host") is not nodes(ctx, "kernel")
