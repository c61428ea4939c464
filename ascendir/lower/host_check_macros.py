"""The checking macros of the ops repositories' host headers, for host code whose headers are out of reach.

Vendor op hosts (ops-nn, ops-math, ops-transformer) check each step with macros of their common log headers
(`log/log.h`, `error_util.h`, CANN's own), which an op folder read alone does not reach. Unexpanded, a
check reads as a call of an undeclared function and the step it guards is lost. Their definitions all
have one shape, a guarded statement:

- `OP_TILING_CHECK(cond, log, stmt)`, `OP_CHECK_IF`, `OPS_ERR_IF`, `OP_CHECK`: `if (cond) { log; stmt; }`
  (the ops repositories' `do { if (cond) { log_func; expr; } } while (0)`);
- `OP_CHECK_NULL_WITH_CONTEXT(context, ptr)`, `OPS_CHECK_NULL_WITH_CONTEXT`: `if (ptr == nullptr) return
  ge::GRAPH_FAILED;`, and the `_RET(context, ptr, ret)` forms returning `ret`;
- `OP_LOGE_IF(cond, ret, op, fmt, ...)`, `OP_LOGI_IF_RETURN`: `if (cond) return ret;`.

`desugared` gives the host units with those statements written out as the `if` they expand to, so that the
lowering sees the early return where it is (a macro the program defines itself was expanded by the
preprocessor and is no call here). The units are copied along the paths that change; the rest is shared.
"""

from __future__ import annotations

from ascendir.lower.astwalk import rebuilt
from frontend import ast as A

# (cond, log, stmt): `if (cond) { log; stmt; }`
_GUARDS = {"OP_TILING_CHECK", "OP_CHECK_IF", "OPS_ERR_IF", "OP_CHECK"}
# (context, ptr[, ret]): `if (ptr == nullptr) return ret;` (ge::GRAPH_FAILED without ret)
_NULL_CHECKS = {"OP_CHECK_NULL_WITH_CONTEXT", "OPS_CHECK_NULL_WITH_CONTEXT", "OP_CHECK_NULL_WITH_CONTEXT_RET",
                "OPS_CHECK_NULL_WITH_CONTEXT_RET"}
NAMES = frozenset(_GUARDS | _NULL_CHECKS | {"OP_LOGE_IF", "OP_LOGI_IF_RETURN"})


def desugared(units: list[A.TranslationUnit]) -> list[A.TranslationUnit]:
    return [_rewrite(u) for u in units]  # type: ignore[misc]


def _rewrite(node: A.Node) -> A.Node:
    def visit(n: A.Node) -> A.Node | None:
        if isinstance(n, A.ExprStmt):
            return _expanded(n) or n
        if isinstance(n, A.Expr):
            return n  # statements inside expressions (lambdas) are left as they are
        return None

    return rebuilt(node, visit)


def _expanded(st: A.ExprStmt) -> A.If | None:
    call = st.expr
    if not (isinstance(call, A.Call) and isinstance(call.callee, A.Name) and len(call.callee.qname.parts) == 1):
        return None
    name = call.callee.qname.parts[0].name
    if name not in NAMES:
        return None
    args, span = call.args, st.span
    if name in _GUARDS and len(args) in (2, 3) and isinstance(args[0], A.Expr):  # (an empty `;` stmt: 2 args)
        body: list[A.Node] = []
        for a in args[1:]:
            if isinstance(a, A.ReturnArg):
                body.append(A.Return(a.span, a.value))
            elif isinstance(a, A.Expr):
                body.append(A.ExprStmt(a.span, a))  # a log call, an assignment; an empty argument is nothing
        return A.If(span, args[0], A.Compound(span, body), None)
    if name in _NULL_CHECKS and len(args) in (2, 3) and isinstance(args[1], A.Expr):
        ret = args[2] if len(args) == 3 else _graph_failed(span)
        if isinstance(ret, A.ReturnArg):
            ret = ret.value
        cond = A.Binary(span, "==", args[1], A.NullLit(span))
        return A.If(span, cond, A.Compound(span, [A.Return(span, ret)]), None)
    if name in ("OP_LOGE_IF", "OP_LOGI_IF_RETURN") and len(args) >= 2 and isinstance(args[0], A.Expr):
        return A.If(span, args[0], A.Compound(span, [A.Return(span, args[1])]), None)
    return None


def _graph_failed(span: object) -> A.Name:
    parts = [A.NamePart(span, "ge"), A.NamePart(span, "GRAPH_FAILED")]  # type: ignore[arg-type]
    return A.Name(span, A.QualifiedName(span, parts))  # type: ignore[arg-type]
