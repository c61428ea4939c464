"""Project facts the rules share (ASC8xx here, and host_code.py, coverage.py, tiling.py, binding.py and
others): the program's units, syntax-tree nodes, functions and calls per role (kernel, host, binding), the
op's name and description (op_info, from its json or OpDef), tiling structs and legacy tiling definitions,
includes, constant integers, values computed once per run (cached), and findings reported once per place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from frontend import ast as A
from frontend.diagnostics import LazySpan, Note, Severity, Span
from passes.verify.ast_index import Walked, ast_index
from passes.verify.rules import CheckContext


T = TypeVar("T")


def report_once(ctx: CheckContext, where: object, message: str, *notes: Note,
                severity: Severity | None = None) -> None:
    """ctx.report, dropping a repeat: a header included by several sources is walked once per source."""
    before = len(ctx.diagnostics)
    ctx.report(where, message, *notes, severity=severity)  # type: ignore[arg-type]
    new = ctx.diagnostics[-1]
    if any(d.code == new.code and d.span == new.span and d.message == new.message for d in ctx.diagnostics[:before]):
        ctx.diagnostics.pop()


def span(node: A.Node) -> Span:
    s = node.span
    return s.resolve() if isinstance(s, LazySpan) else s


def cached(ctx: CheckContext, key: object, make: Callable[[], T]) -> T:
    """A value computed once per check run (the rules of these families share AST walks)."""
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    if key not in store:
        store[key] = make()
    return store[key]  # type: ignore[return-value]


def units(ctx: CheckContext, *roles: str) -> list[A.TranslationUnit]:
    if ctx.program is None:
        return []
    return [u.ast for u in ctx.program.units if not roles or u.unit.role in roles]


def nodes_per_unit(ctx: CheckContext) -> list[tuple[str, list[A.Node]]]:
    """(role, every AST node) of each source, walked once per run (the walk every rule shares)."""
    return ast_index(ctx).units


def nodes(ctx: CheckContext, *roles: str) -> list[A.Node]:
    """Every AST node of the sources of the given roles (all roles when none); the same list for the same
    roles throughout a run: do not modify it."""
    def make() -> Walked:
        index = ast_index(ctx)
        chosen = tuple(i for i, (role, _) in enumerate(index.units) if not roles or role in roles)
        # role lists that select the same sources share one list (and its calls, found once): a single-file
        # kernel's () and ("kernel",) and ("host", "kernel", "other") are all its one walk
        return cached(ctx, ("nodes of units", chosen), lambda: index.units[chosen[0]][1] if len(chosen) == 1 else Walked(
            [n for i in chosen for n in index.units[i][1]], index.unit_calls))
    return cached(ctx, ("nodes", roles), make)


def functions(ctx: CheckContext, *roles: str) -> list[A.FunctionDecl]:
    """Function definitions (with a body) in the sources of the given roles."""
    return cached(ctx, ("functions", roles), lambda: [
        n for n in nodes(ctx, *roles) if isinstance(n, A.FunctionDecl) and n.body is not None])[:]


def parsed_units(ctx: CheckContext, *roles: str) -> list[object]:
    if ctx.program is None:
        return []
    return [u for u in ctx.program.units if not roles or u.unit.role in roles]


def snake_variants(op: str) -> set[str]:
    """The kernel entry names the build accepts for OpType `op`: msopgen puts `_` before each capital
    (`AddCustom` -> `add_custom`); acronyms (`GELUCustom`) are also accepted in their one-word form."""
    simple = re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower()
    two_pass = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", op)
    two_pass = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", two_pass).lower()
    # a run of capitals kept whole up to the last word (`NormalizeBBox` -> `normalize_bbox`)
    runs = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", op).lower()
    return {simple, two_pass, runs}


def snake(op: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower()


@dataclass
class OpInfo:
    name: str
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)
    complete: bool = True  # False when the OpDef computes some names: counts are then lower bounds


def op_info(ctx: CheckContext) -> OpInfo | None:
    """The operator of the op json (the first one), when the input has one."""
    return cached(ctx, "op_info", lambda: _op_info(ctx))


def _op_info(ctx: CheckContext) -> OpInfo | None:
    if ctx.program is None:
        return None
    if not ctx.program.bundle.op_json:
        return _opdef_op_info(ctx)
    op = ctx.program.bundle.op_json[0]
    name = op.get("op")
    if not isinstance(name, str) or not name:
        return None

    def names(key: str) -> list[str]:
        out: list[str] = []
        items = op.get(key) or []
        if not isinstance(items, list):
            return out
        for item in items:
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                out.append(item["name"])
        return out

    info = OpInfo(name, names("input_desc"), names("output_desc"), names("attr"))
    # the OpDef in the host source declares them too; a json computed at answer time may be partial
    for kind, found in _opdef_declarations(ctx).items():
        listed = getattr(info, kind)
        if found is None:
            info.complete = False
            continue
        listed.extend(n for n in found if n not in listed)
    return info


def _opdef_op_info(ctx: CheckContext) -> OpInfo | None:
    """The operator of a project without an op json (ops-nn, ops-math, cann-ops): the one OpDef class of
    the host sources that `OP_ADD(Name)` registers, with the names its constructor declares."""
    opdefs = {n.name for n in nodes(ctx, "host") if isinstance(n, A.ClassDecl) and n.name
              and any(isinstance(b.base, A.QualifiedName) and b.base.parts[-1].name == "OpDef" for b in n.bases)}
    added = [name for n in nodes(ctx, "host") if isinstance(n, A.MacroDecl) and n.name == "OP_ADD"
             and len(n.args) == 1 and (name := _written_name(n.args[0])) is not None]
    registered = [name for name in dict.fromkeys(added) if name in opdefs]
    if len(registered) != 1 or len(set(added)) != 1:
        return None  # none, or several operators in one project: no single op to compare with
    info = OpInfo(registered[0])
    for kind, found in _opdef_declarations(ctx).items():
        if found is None:
            info.complete = False
        else:
            getattr(info, kind).extend(found)
    return info


def _written_name(node: A.Node) -> str | None:
    """The last name of `Scale` / `ops::Scale`, written as a name or (a known class) as a type."""
    if isinstance(node, A.TypeArgExpr):
        node = node.type
    if isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName) and not node.pointers:
        return node.base.parts[-1].name
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    return None


def _opdef_declarations(ctx: CheckContext) -> dict[str, list[str] | None]:
    """Names the OpDef declares with `this->Input("x")` / `Output` / `Attr` (None: some name is computed)."""
    out: dict[str, list[str] | None] = {"inputs": [], "outputs": [], "attrs": []}
    kinds = {"Input": "inputs", "Output": "outputs", "Attr": "attrs"}
    for call in calls(nodes(ctx, "host"), *kinds):
        if not isinstance(call.callee, A.Member) or len(call.args) != 1:
            continue
        kind = kinds[call.callee.member]
        arg = call.args[0]
        listed = out[kind]
        if listed is None:
            continue
        if isinstance(arg, A.StringLit):
            name = arg.value.strip('"')
            if name not in listed:
                listed.append(name)
        else:
            out[kind] = None
    return out


_UNIT_CALLS: dict[int, tuple[A.TranslationUnit, list[A.Call]]] = {}


def _unit_calls(unit: A.TranslationUnit) -> list[A.Call]:
    """Every call in a translation unit, collected once: several rules ask, each walk costs ~5 ms (the
    lists `nodes` returns use the run's index instead; this keeps a few units, not every tree seen)."""
    hit = _UNIT_CALLS.get(id(unit))
    if hit is not None and hit[0] is unit:
        return hit[1]
    found = [n for n in unit.walk() if isinstance(n, A.Call)]
    if len(_UNIT_CALLS) > 8:
        _UNIT_CALLS.clear()
    _UNIT_CALLS[id(unit)] = (unit, found)
    return found


def calls(where: list[A.TranslationUnit] | list[A.Node], *names: str) -> Iterator[A.Call]:
    """Calls (of the given names) among `nodes(...)`, or inside the given translation units."""
    if isinstance(where, Walked):  # the same sequence, from the run's index
        if len(names) == 1:
            yield from where.calls_named(names[0])
        elif names:
            wanted_names = set(names)
            yield from (c for c in where.call_sequence() if c.callee_name in wanted_names)
        else:
            yield from where.call_sequence()
        return
    wanted = set(names)
    for item in where:
        for node in (_unit_calls(item) if isinstance(item, A.TranslationUnit) else (item,)):
            if isinstance(node, A.Call) and (not wanted or node.callee_name in wanted):
                yield node


def const_int(node: A.Node | None) -> int | None:
    """An integer literal, possibly negated, cast or suffixed: `2`, `2U`, `static_cast<uint64_t>(2)`."""
    if isinstance(node, A.IntLit):
        return node.value
    if isinstance(node, A.Unary) and node.op == "-" and isinstance(node.operand, A.IntLit):
        return -node.operand.value
    if isinstance(node, A.Cast) and isinstance(node.expr, A.Node) and not node.args:
        return const_int(node.expr)
    return None


def tiling_structs(ctx: CheckContext) -> dict[str, list[tuple[str, str]]]:
    """Tiling layouts of the program: name -> [(field, kind)], from legacy definitions and plain structs."""
    from ascendir.lower.scope import collect

    def make() -> dict[str, list[tuple[str, str]]]:
        scope = collect(units(ctx))
        return {name: [(f[0], f[3]) for f in ts.fields] for name, ts in scope.tiling_structs.items()}

    return cached(ctx, "tiling_structs", make)


def legacy_tiling_defs(ctx: CheckContext) -> dict[str, A.TilingDataDef]:
    return cached(ctx, "legacy_tiling_defs", lambda: _legacy_tiling_defs(ctx))


def _legacy_tiling_defs(ctx: CheckContext) -> dict[str, A.TilingDataDef]:
    out: dict[str, A.TilingDataDef] = {}
    for node in nodes(ctx):
        if isinstance(node, A.TilingDataDef):
            out.setdefault(node.name, node)
    return out


def includes(ctx: CheckContext, *roles: str) -> list[tuple[str, Span]]:
    """`#include` targets of the sources of the given roles, with where each is written."""
    out: list[tuple[str, Span]] = []
    for pu in parsed_units(ctx, *roles):
        unit = pu.unit  # type: ignore[attr-defined]
        for i, line in enumerate(unit.text.splitlines()):
            m = _INCLUDE_RE.match(line)
            if m:
                col = m.start(1) + 1 + (unit.col_offset if i == 0 else 0)
                out.append((m.group(1), Span(unit.file, unit.line_offset + i + 1, col, unit.line_offset + i + 1,
                                             col + len(m.group(1)))))
    return out


_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def name_of(node: A.Node | None) -> str | None:
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    if isinstance(node, A.TypeArgExpr):
        return name_of(node.type)
    if isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName):
        return node.base.parts[-1].name
    return None
