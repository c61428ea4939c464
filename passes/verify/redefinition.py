"""Names declared twice in one scope (ASC515): C++ the compiler rejects with "redefinition of 'x'".

The lowering binds a local that reuses a name to the new declaration and goes on, so without this rule a kernel
such as `void Init(GM_ADDR start) { uint64_t start = 0; ... }` would be accepted. C++ gives a function's
parameters the scope of its outermost block ([basic.scope.block]): a local of that block may not reuse a
parameter's name, and likewise a name declared in a for / if / while / switch header may not be declared again in
the outermost block of its body. Two variables of one name in one block are the same error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from frontend import ast as A
from frontend.diagnostics import Note, Span
from passes.verify.project import nodes, span
from passes.verify.rules import CheckContext, rule


@rule(
    "ASC515", "redefinition", "api",
    summary="A local variable redeclares a name of its scope: a function parameter in the function's outermost "
            "block, a variable of a for / if / while header in the body's outermost block, or another variable "
            "of the same block.",
    why="The parameters of a function belong to the scope of its outermost block, and the variables a for, if, "
        "while or switch header declares to the scope of its body's outermost block. Declaring the name again "
        "there is ill-formed: the build stops with `error: redefinition of 'x'` (a note points at the first "
        "declaration). It usually means the author wanted to assign the existing variable, or to use a new name.",
    example="__aicore__ inline void Init(GM_ADDR x, uint32_t start) {\n    uint64_t start = 0;   // redefinition",
    instead="__aicore__ inline void Init(GM_ADDR x, uint32_t start) {\n    uint64_t offset = start;",
)
def redefinition(ctx: CheckContext) -> None:
    relevant = _RELEVANT
    for node in nodes(ctx):
        cls = type(node)
        wanted = relevant.get(cls)
        if wanted is None:
            wanted = relevant[cls] = _declares_scope(cls)
        if not wanted:  # (most nodes: one dictionary look-up instead of seven isinstance tests)
            continue
        if isinstance(node, A.FunctionDecl) and node.body is not None:
            _check_outermost(ctx, _param_names(node.params), node.body, "parameter")
        elif isinstance(node, A.Lambda):
            _check_outermost(ctx, _param_names(node.params), node.body, "parameter")
        elif isinstance(node, A.For) and node.init is not None:
            _check_outermost(ctx, _declared(node.init), node.body, "variable of the for statement")
        elif isinstance(node, A.RangeFor):
            _check_outermost(ctx, {node.var.name: node.var}, node.body, "variable of the range-based for")
        elif isinstance(node, _CONDITIONED):
            found = _declared(node.cond)
            if found:
                bodies = [node.then, node.otherwise] if isinstance(node, A.If) else [node.body]
                kind = type(node).__name__.lower()
                for body in bodies:
                    _check_outermost(ctx, found, body, f"variable of the {kind} condition")
        if isinstance(node, A.Compound):
            _check_block(ctx, node)


# The node classes the rule looks at: the scopes that declare names (functions, lambdas, statements with a
# declaring header) and blocks. Every other node is skipped by its class, decided once per class: the rule runs
# over every AST node of a program, and the isinstance tests it needs for the few that matter cost more than
# the rest of the rule (5 million instructions per kernel check of the clean corpus, issue 33's speed goal).
_CONDITIONED = (A.If, A.While, A.Switch)
_SCOPES = (A.FunctionDecl, A.Lambda, A.For, A.RangeFor, *_CONDITIONED, A.Compound)
_RELEVANT: dict[type, bool] = {}


def _declares_scope(cls: type) -> bool:
    """Whether nodes of class `cls` are any of `_SCOPES` (subclasses included, as isinstance would say)."""
    return issubclass(cls, _SCOPES)


def _param_names(params: list[A.Param]) -> dict[str, A.Node]:
    return {p.name: p for p in params if p.name}


def _declared(node: A.Node | None) -> dict[str, A.Node]:
    """The variables a declaration statement (or a for-init / condition that is one) introduces."""
    if isinstance(node, A.VarDecl) and "extern" not in node.specifiers:
        return {d.name: d for d in node.declarators if d.name}
    return {}


def _locals(block: A.Compound) -> Iterator[A.Declarator]:
    for stmt in block.body:
        yield from _declared(stmt).values()  # type: ignore[misc]


def _check_outermost(ctx: CheckContext, outer: dict[str, A.Node], body: A.Node | None, kind: str) -> None:
    if not outer or not isinstance(body, A.Compound):
        return
    for local in _locals(body):
        first = outer.get(local.name)
        if first is not None:
            _report(ctx, local, first, f"'{local.name}' is already declared as a {kind} here")


def _check_block(ctx: CheckContext, block: A.Compound) -> None:
    seen: dict[str, A.Node] = {}
    for local in _locals(block):
        first = seen.get(local.name)
        if first is not None:
            _report(ctx, local, first, f"'{local.name}' is first declared here")
        else:
            seen[local.name] = local


def _report(ctx: CheckContext, local: A.Declarator, first: A.Node, note: str) -> None:
    ctx.report(_point(ctx, local, local.name), f"redefinition of '{local.name}'",
               Note(note, _point(ctx, first, local.name)),
               Note("assign the existing variable, or give the new one another name", kind="help"))


def _point(ctx: CheckContext, node: A.Node, name: str) -> Span:
    """Where `name` is written in `node`'s source (a parameter's span starts at its type)."""
    at = span(node)
    line = ctx.program.line(at.file, at.line) if ctx.program is not None else ""
    found = re.compile(rf"\b{re.escape(name)}\b").search(line or "", max(at.col - 1, 0))
    return Span.point(at.file, at.line, found.start() + 1 if found else at.col)
