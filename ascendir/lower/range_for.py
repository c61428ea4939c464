"""Range-based for over a C array in device code (and in a host program's main, lowered as device code).

    uint32_t sizes[] = {1024, 512, 256};
    for (const auto &s : sizes) { if (Fits(s)) { k = s; break; } }

is the loop [stmt.ranged]/1 defines, over the array's positions: `for (size_t i = 0; i < N; ++i) { const auto &s =
sizes[i]; ... }` (N the array's first extent), lowered as any for loop (break and continue keep their meaning).
A host program's std::vector whose elements the code lists is such an array here (host_program_vectors.py).

An array of functions listed by name (`HandlerPtr handlers[] = {Small, Padding, Common};`, catlass 102's kernel
selection, each handler tried in turn until one returns true) is a table of functions (function_tables.py): the
loop visits its positions the same way, and at each the variable is the function there, written as
`if (i == 0) { auto h = Small; body } else if (i == 1) { ... }`, so every call through the variable is a direct
call (the body is lowered once per function the table lists).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def lower(lw: FunctionLowerer, st: A.RangeFor) -> bool:
    """Lowers `st` when its range is a C array of known extent or a local table of functions; False otherwise
    (the caller reports the statement)."""
    from ascendir.lower import function_tables

    span = st.span
    listed = function_tables.local_functions(lw, st.range)
    if listed is not None:
        count = len(listed)
        if _writes_a_constant_through_the_table(lw, st, listed):
            return False
    else:
        if not isinstance(st.range, A.Name):
            return False
        binding = lw.lookup(st.range.qname.parts[-1].name) if len(st.range.qname.parts) == 1 else None
        t = getattr(binding, "ctype", None)
        if not isinstance(t, C.ArrayT) or t.size <= 0:  # (an array of unknown bound: no range)
            return False
        if isinstance(t.elem, C.ArrayT):
            # `for (auto &row : m)` of a 2-D array: a reference to a row does not read the array's rows here
            # (they read 0, silently): left to the report
            return False
        count = t.size
        if "&" in st.var.type.pointers and "const" not in st.var.type.qualifiers and \
                st.var.name in lw.written_names(st.body):
            # `for (auto &x : a) x *= 2;`: x would be bound as `auto &x = a[i]`, and a write through a reference
            # to an array element does not reach the array here (it did not land, silently): left to the report
            return False
    index = f"__range_index_{id(st)}"
    lw.frame.assigned = lw.frame.assigned | {index}  # (++ writes it: a cell, not a value)
    name = A.Name(span, A.QualifiedName(span, [A.NamePart(span, index)]))
    if listed is not None:
        body: A.Node = _chain(st, name, listed, 0)
    else:
        element = A.Declarator(st.var.span, st.var.name, st.var.type, A.Index(span, st.range, name), "=")
        body = A.Compound(span, [A.VarDecl(span, [], [element]), st.body])
    loop = A.For(span, A.VarDecl(span, [], [A.Declarator(span, index, A.TypeRef(span, "size_t"),
                                                            A.IntLit(span, "0", 0), "=")]),
                 A.Binary(span, "<", name, A.IntLit(span, str(count), count)), A.IncDec(span, "++", name, True),
                 body)
    lw.lower_stmt(loop)
    return True


def _chain(st: A.RangeFor, index: A.Name, functions: list[A.Node], at: int) -> A.Node:
    """`if (i == at) { auto var = f_at; body } else ...` over the listed functions from `at` on."""
    span = st.span
    element = A.Declarator(st.var.span, st.var.name, st.var.type, functions[at], "=")
    branch = A.Compound(span, [A.VarDecl(span, [], [element]), st.body])
    if at == len(functions) - 1:
        return branch  # (the loop never reaches a position past the last)
    test = A.Binary(span, "==", index, A.IntLit(span, str(at), at))
    return A.If(span, test, branch, _chain(st, index, functions, at + 1))


def _writes_a_constant_through_the_table(lw: FunctionLowerer, st: A.RangeFor, functions: list[A.Node]) -> bool:
    """Whether the body passes a local held as a constant (`int32_t k = 0;`, never written in the function) to a
    non-const reference parameter of a listed function through the loop variable (`h(n, k)`): the function's
    write would not reach it (the function's written names go by callee name, and `h` names none), so the loop
    is left to the report rather than lowered with k unchanged."""
    from ascendir.lower.ast_queries import bare_name_arguments, non_const_reference

    fns = [fn for f in functions if isinstance(f, A.Name) for fn in lw.scope.functions.get(f.qname.parts[-1].name, ())]
    for callee, position, name in bare_name_arguments(st.body):
        if callee != st.var.name or not any(position < len(fn.params) and non_const_reference(fn.params[position])
                                            for fn in fns):
            continue
        bound = lw.lookup(name)
        if isinstance(bound, Val) and isinstance(bound.ctype, C.Scalar | C.StructT):
            return True
    return False
