"""What is provable about blockDim, the number of cores a launch runs on: the tiling function run on concrete
shapes, a literal SetBlockDim / launch config (or a name bound to one constant), or a kernel-only benchmark
answer, which that benchmark launches on every vector core. Unknown is None, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from frontend import ast as A
from passes.verify.project import cached, calls, const_int, functions, nodes, span, units
from passes.verify.rules import CheckContext


@dataclass(frozen=True)
class BlockDim:
    """What is provable about blockDim: the possible values (None: unknown) and where they come from."""

    values: frozenset[int] | None
    source: str

    @property
    def exactly_one(self) -> bool:
        return self.values == frozenset({1})

    @property
    def more_than_one(self) -> int | None:
        """The smallest blockDim when every possible value is above 1, else None."""
        if not self.values or min(self.values) <= 1:
            return None
        return min(self.values)


def block_dim(ctx: CheckContext) -> BlockDim:
    return cached(ctx, "coverage.block_dim", lambda: _block_dim(ctx))


def _block_dim(ctx: CheckContext) -> BlockDim:
    if ctx.tiling is not None and ctx.tiling.succeeded and ctx.tiling.block_dim is not None:
        return BlockDim(frozenset({ctx.tiling.block_dim}), "the tiling function sets blockDim "
                        f"{ctx.tiling.block_dim} for the given shapes")
    values: set[int] = set()
    seen_any = False
    walked = nodes(ctx, "host", "kernel", "other")  # the run's shared walk
    counts = [(c.args[0], "SetBlockDim with a value known only at run time")
              for c in calls(walked, "SetBlockDim") if isinstance(c.callee, A.Member) and c.args]
    counts += [(n.config[0], "a launch with a blockDim known only at run time")
               for n in walked if isinstance(n, A.KernelLaunch) and n.config]
    bodies: dict[int, list[A.Node]] = {}
    for expr, unknown in counts:
        seen_any = True
        value = _int_value(expr, lambda e=expr: _enclosing_nodes(ctx, e, bodies), ctx)
        if value is None:
            return BlockDim(None, unknown)
        values.add(value)
    if seen_any:
        return BlockDim(frozenset(values), f"blockDim {'/'.join(map(str, sorted(values)))} (a constant)")
    if ctx.program is not None and ctx.program.bundle.format == "npukernelbench" and not units(ctx, "host"):
        cores = ctx.chip.max_block_dim("aiv")
        return BlockDim(frozenset({int(cores)}), f"a kernel-only answer runs on all {cores} vector cores of "
                        f"{ctx.chip.name}")
    return BlockDim(None, "no launch or SetBlockDim in the sources")


def _enclosing_nodes(ctx: CheckContext, expr: A.Node, bodies: dict[int, list[A.Node]]) -> list[A.Node]:
    """Every node of the function definition `expr` is in (walked once per function), or []."""
    where = span(expr)
    for fn in functions(ctx):
        s = span(fn)
        if s.file == where.file and (s.line, s.col) <= (where.line, where.col) \
                and (where.end_line, where.end_col) <= (s.end_line, s.end_col):
            if id(fn) not in bodies:
                bodies[id(fn)] = list(fn.walk())
            return bodies[id(fn)]
    return []


def _int_value(node: A.Node, fn_nodes: Callable[[], list[A.Node]], ctx: CheckContext) -> int | None:
    """An integer the expression certainly has: a literal, a ternary of equal literals, or a name bound to
    one (a file-level constant, or a local of the enclosing function, `fn_nodes()`, initialised once and
    never assigned again)."""
    value = const_int(node)
    if value is not None:
        return value
    if isinstance(node, A.Cast) and node.expr is not None:
        return _int_value(node.expr, fn_nodes, ctx)
    if isinstance(node, A.Name) and len(node.qname.parts) == 1:
        name = node.qname.parts[-1].name
        local = _local_constant(name, fn_nodes())
        if local is not None:
            return local
        return _file_constants(ctx).get(name)
    return None


def _local_constant(name: str, fn_nodes: list[A.Node]) -> int | None:
    inits = [d.init for n in fn_nodes if isinstance(n, A.VarDecl) for d in n.declarators if d.name == name]
    if len(inits) != 1 or inits[0] is None:
        return None
    for n in fn_nodes:  # any later assignment, increment or address taken: not a constant
        if isinstance(n, A.Assign) and _names(n.target, name):
            return None
        if isinstance(n, A.Unary) and n.op == "&" and _names(n.operand, name):
            return None
        if isinstance(n, A.IncDec) and _names(n.operand, name):
            return None
    return const_int(inits[0])


def _names(node: A.Node, name: str) -> bool:
    return isinstance(node, A.Name) and node.qname.parts[-1].name == name


def _file_constants(ctx: CheckContext) -> dict[str, int]:
    def collect() -> dict[str, int]:
        found: dict[str, int | None] = {}
        for unit in units(ctx):
            for node in unit.walk():
                if isinstance(node, A.VarDecl) and ("constexpr" in node.specifiers or "const" in node.specifiers
                                                    or any("const" in d.type.qualifiers for d in node.declarators)):
                    for d in node.declarators:
                        value = const_int(d.init) if d.init is not None else None
                        found[d.name] = value if found.get(d.name, value) == value else None
        return {k: v for k, v in found.items() if v is not None}
    return cached(ctx, "coverage.file_constants", collect)
