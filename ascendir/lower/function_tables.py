"""Tables of functions at namespace scope, called through an entry chosen by a key: `table[key](args)`.

Host programs that ship several instances of a kernel pick the one to launch with a table built from a list, the
way catlass's 102_dynamic_optimized_matmul does in its generated launch_map.h:

    void LaunchTwo(uint8_t *, uint8_t *);                       // defined in another source of the program
    std::unordered_map<uint64_t, void (*)(uint8_t *, uint8_t *)> launchMap = {
        { 0x0000000000000002, LaunchTwo }, { 0x0000000000000003, LaunchThree } };
    ...
    launchMap[tilingKey](dX, dY);                               // a key main computes at run time

and a tiling step chosen the same way from a nested std::array of functions (`tilings[tagA][tagB](params)`).

Such a table is modelled where it is called, never as storage: a std::map / std::unordered_map whose list gives
{compile-time number, function name} entries, or a std::array or C array (of arrays) whose list gives function
names, and that no function of the program writes (assigns, or calls insert / erase / ... on; a table filled at
run time is left to the lowering's other paths, which report it). The entry a call reaches:
- a key that folds to a number here: that entry's function, inlined as a direct call;
- in a host program (host_program.py), a key known from an earlier lowering: main's code was evaluated for the
  value the key had there (passes/sim/host_values.py) and main lowered again with it (the `count.` marks of
  host_program_vectors.py, shared), so only the function the run reaches is lowered; a key not known yet is
  marked for that evaluation and the call left out of this lowering (it is reported as a gap of the run should
  the key stay unknown), since lowering every entry's kernel launch, as C++ allows, would be as many launches;
- elsewhere (device code), a key known only at run time: every entry's function, under a test of which
  (code_pointer.py's dispatch, the pointer's number chosen by comparing the key with each entry's).
A key no entry has is a gap where it is known: `operator[]` would insert a null pointer, and calling it is
undefined; `at` would throw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import arith, scf
from xdsl.ir import Block, Region, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.code_pointer import FunctionTarget
    from ascendir.lower.function import FunctionLowerer

_MAPS = frozenset({"map", "unordered_map"})
_ARRAYS = frozenset({"array"})
# the prefix of the marks of keys a host program's run evaluates (read back as host_program.counts)
KEY_MARK = "key."


@dataclass(frozen=True)
class _Table:
    """A table's entries: (key, function) pairs; keys are positions for an array (rows: nested tables)."""

    name: str
    entries: tuple[tuple[int, FunctionTarget | _Table], ...]


def call(lw: FunctionLowerer, e: A.Call) -> Val | None:
    """`table[k](args)` (also `table.at(k)(args)`, `table[i][j](args)`) through a table of functions; None for any
    other call."""
    chosen = _subscripts(e.callee)
    if chosen is None:
        return None
    root, keys = chosen
    table = _table(lw, root)
    if table is None:
        return None
    from ascendir.lower.calls import lower_args

    return _reach(lw, table, [lw.expr(k) for k in keys], e, lambda: lower_args(lw, e.args))


def _subscripts(callee: A.Node) -> tuple[A.Name, list[A.Node]] | None:
    """The table's name and the keys, outermost first, of `t[a][b]` / `t.at(a)`; None for another callee."""
    keys: list[A.Node] = []
    node = callee
    while True:
        if isinstance(node, A.Index):
            keys.insert(0, node.index)
            node = node.base
        elif isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.callee.member == "at" and \
                len(node.args) == 1 and not node.callee.arrow:
            keys.insert(0, node.args[0])
            node = node.callee.obj
        else:
            break
    return (node, keys) if isinstance(node, A.Name) and keys else None


def declare_local(lw: FunctionLowerer, st: A.VarDecl) -> bool:
    """`HandlerPtr handlers[] = {Small, Padding, Common};`: a local array whose list names functions only (and that
    the function does not write), bound as its table, which calls (`handlers[1](p)`) and range-for loops
    (range_for.py) read; its elements are never storage. False for any other declaration (declared as before)."""
    if len(st.declarators) != 1 or not lw.frames:
        return False
    d = st.declarators[0]
    if not d.type.array_dims or not isinstance(d.init, A.InitList) or not d.init.items or \
            d.name in lw.frame.assigned or d.name in _written_names(lw):
        return False
    if not all(isinstance(i, A.Name) and lw.lookup(i.qname.parts[-1].name) is None for i in d.init.items):
        return False
    table = _array_entries(lw, d.name, list(d.init.items))
    if table is None:
        return False
    lw.bind(d.name, Val(C.ArrayT(C.Pointer(C.VoidT()), len(table.entries)), obj=_Local(table, tuple(d.init.items))))
    return True


@dataclass(frozen=True)
class _Local:
    """A local array of functions (declare_local): its table, and the names its list gives, in order."""

    table: _Table
    names: tuple[A.Node, ...]


def local_functions(lw: FunctionLowerer, node: A.Node) -> list[A.Node] | None:
    """The function names a local array of functions lists, when `node` names one; else None."""
    if not isinstance(node, A.Name) or len(node.qname.parts) != 1:
        return None
    bound = lw.lookup(node.qname.parts[0].name)
    return list(bound.obj.names) if isinstance(bound, Val) and isinstance(bound.obj, _Local) else None


def _table(lw: FunctionLowerer, name: A.Name) -> _Table | None:
    """The table a local array of functions or a namespace-scope variable of that name holds, or None (another
    kind of variable, a table the program writes or whose list is not of the forms above)."""
    parts = name.qname.parts
    bound = lw.lookup(parts[0].name) if len(parts) == 1 and lw.frames else None
    if isinstance(bound, Val) and isinstance(bound.obj, _Local):
        return bound.obj.table
    if bound is not None:
        return None  # a local or parameter of that name
    from ascendir.lower import namespace_lookup

    # (by the lookup rules, from the namespace the call is written in: 'scales' in N's code is N::scales)
    found = namespace_lookup.variable(lw, parts[-1].name, namespace_lookup.qualifier_of(name.qname), name)
    if found is None:
        return None
    _, decl = found
    if not isinstance(decl.init, A.InitList) or not isinstance(decl.type.base, A.QualifiedName):
        return None
    kind = decl.type.base.parts[-1].name
    is_map = kind in _MAPS and not decl.type.array_dims
    if not is_map and kind not in _ARRAYS and not decl.type.array_dims:
        return None
    if decl.name in _written_names(lw):
        return None
    items = _unbraced(decl.init.items)
    table = _map_entries(lw, decl.name, items) if is_map else _array_entries(lw, decl.name, items)
    return table


# what changes a table: its methods of these names, and `=` / `++` / `--` / `&` on it or an element of it
_WRITERS = frozenset({"insert", "emplace", "emplace_hint", "erase", "clear", "swap", "try_emplace",
                      "insert_or_assign", "merge", "extract", "fill", "operator="})


def _written_names(lw: FunctionLowerer) -> set[str]:
    """The names the program's functions may write a table through (by name: a local of the same name counts too,
    which only leaves such a table to the lowering's other paths), scanned once per lowering."""
    cached: set[str] | None = getattr(lw, "_written_table_names", None)
    if cached is not None:
        return cached
    names: set[str] = set()
    bodies = [f for fs in lw.scope.functions.values() for f in fs] + [k for k, _ in lw.scope.kernels]
    bodies += [f for info in lw.scope.classes.values() for fs in info.methods.values() for f in fs]
    for f in bodies:
        for node in f.body.walk() if f.body is not None else ():
            target = None
            if isinstance(node, A.Assign):
                target = node.target
            elif isinstance(node, A.IncDec) or isinstance(node, A.Unary) and node.op == "&":
                target = node.operand
            elif isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.callee.member in _WRITERS:
                target = node.callee.obj
            while isinstance(target, A.Index | A.Member) and not getattr(target, "arrow", False):
                target = target.base if isinstance(target, A.Index) else target.obj
            if isinstance(target, A.Name):
                names.add(target.qname.parts[-1].name)
    lw._written_table_names = names  # type: ignore[attr-defined]
    return names


def _unbraced(items: list[A.Node]) -> list[A.Node]:
    """A std::array's list may hold its one member's list (`{{a, b}}`): the items themselves."""
    while len(items) == 1 and isinstance(items[0], A.InitList) and \
            all(isinstance(i, A.InitList | A.Name) for i in items[0].items) and items[0].items:
        inner = items[0].items
        if all(isinstance(i, A.InitList) and len(i.items) == 2 and not isinstance(i.items[1], A.InitList)
               and not isinstance(i.items[0], A.Name) for i in inner):
            return inner  # `m({{k, v}, ...})`
        items = inner
    return items


def _function(lw: FunctionLowerer, node: A.Node) -> FunctionTarget | None:
    from ascendir.lower.code_pointer import FunctionTarget, function_address

    if isinstance(node, A.Unary) and node.op == "&":
        node = node.operand
    address = function_address(lw, node)
    return address.obj if address is not None and isinstance(address.obj, FunctionTarget) else None


def _map_entries(lw: FunctionLowerer, name: str, items: list[A.Node]) -> _Table | None:
    entries: list[tuple[int, FunctionTarget | _Table]] = []
    for item in items:
        if not isinstance(item, A.InitList) or len(item.items) != 2:
            return None
        key = lw.expr(item.items[0])
        target = _function(lw, item.items[1])
        if not isinstance(key.const, int) or target is None:
            return None
        if all(k != key.const for k, _ in entries):  # ([unord.map.cnstr]: a repeated key's first entry stays)
            entries.append((key.const, target))
    return _Table(name, tuple(entries)) if entries else None


def _array_entries(lw: FunctionLowerer, name: str, items: list[A.Node]) -> _Table | None:
    entries: list[tuple[int, FunctionTarget | _Table]] = []
    for i, item in enumerate(items):
        if isinstance(item, A.InitList):
            row = _array_entries(lw, f"{name}[{i}]", _unbraced(item.items))
            if row is None:
                return None
            entries.append((i, row))
            continue
        target = _function(lw, item)
        if target is None:
            return None
        entries.append((i, target))
    return _Table(name, tuple(entries)) if entries else None


def _reach(lw: FunctionLowerer, table: _Table, keys: list[Val], e: A.Call, lower_args: object) -> Val:
    """The call through the entry `keys` choose (see the module's docstring)."""
    from ascendir.lower import code_pointer

    key, rest = keys[0], keys[1:]
    known = _known_key(lw, table, key, e)
    if known is not None:
        entry = dict(table.entries).get(known)
        if entry is None:
            raise Unsupported(f"'{table.name}' has no entry of key {known:#x}: C++ calls a null function pointer "
                              "there (undefined)", e)
        if isinstance(entry, _Table):
            if not rest:
                raise Unsupported(f"'{table.name}[{known}]' is a row of functions, not one", e)
            return _reach(lw, entry, rest, e, lower_args)
        if rest:
            raise Unsupported(f"'{table.name}[{known}]' is one function, indexed again", e)
        return code_pointer.call(lw, e, Val(C.Pointer(C.VoidT()), obj=entry), lower_args)  # type: ignore[arg-type]
    if lw.host_program is not None:
        return _left_out(lw, table, e)
    if rest or any(isinstance(t, _Table) for _, t in table.entries):
        raise Unsupported(f"a row of '{table.name}' chosen by an index known only at run time is not modelled", e)
    number = _entry_number(lw, table, key, e)
    return code_pointer.call(lw, e, number, lower_args)  # type: ignore[arg-type]


def _known_key(lw: FunctionLowerer, table: _Table, key: Val, e: A.Call) -> int | None:
    """The key's value when it folds here or an earlier lowering of a host program found it; else None (a host
    program's key marked for the run to evaluate)."""
    if isinstance(key.const, int):
        return key.const
    hp = lw.host_program
    if hp is None or not isinstance(key.ctype, C.Scalar):
        return None
    place = _place(e, table)
    if place in hp.counts:
        return hp.counts[place]
    from ascendir.lower.host_program import mark

    mark(lw, "count." + place, key, e)
    return None


def _place(e: A.Call, table: _Table) -> str:
    from frontend.diagnostics import as_span

    span = as_span(e.span)
    return f"{KEY_MARK}{table.name}@{span.file}:{span.line}:{span.col}"


def _left_out(lw: FunctionLowerer, table: _Table, e: A.Call) -> Val:
    """A host program's call through a key not known yet: left out of this lowering, kept as a gap (reported if
    the run lowers main for the last time without the key); a value it returns is undefined here."""
    from ascendir.lower.host_program import gap

    lw.host_program.awaiting_keys += 1  # type: ignore[union-attr]
    gap(lw, f"the entry of '{table.name}' this call reaches depends on a key main computes that the run could not "
        "evaluate (or that takes more than one value there): the call is left out", e)
    returns = _return_type(lw, table)
    if returns is None or isinstance(returns, C.VoidT):
        return Val(C.VoidT())
    return Val(returns, lw.undef(returns, e))


def _return_type(lw: FunctionLowerer, table: _Table) -> C.CType | None:
    """The type the table's first function returns (a table's functions have one type), when a scalar or void."""
    first: FunctionTarget | _Table = table.entries[0][1]
    while isinstance(first, _Table):
        first = first.entries[0][1]
    fn = first.fns[0]
    if fn.return_type is None:
        return None
    try:
        t = lw.resolve_type(fn.return_type, fn)
    except Unsupported:
        return None
    return t if isinstance(t, C.Scalar | C.VoidT) else None


def _entry_number(lw: FunctionLowerer, table: _Table, key: Val, e: A.Call) -> Val:
    """The pointer `table[key]` holds for a key known only at run time: the number of the first entry whose key
    equals it (0, null, for none), as code_pointer.py numbers functions."""
    from ascendir.lower.code_pointer import FunctionTarget, Table, Tagged

    reg = lw.code_pointers
    number = lw.const_ssa(0, C.I32, e)
    numbers = set()
    for k, target in reversed(table.entries):  # the first entry is selected last: it wins
        assert isinstance(target, FunctionTarget)
        n = reg.number(target)
        numbers.add(n)
        hit = lw.ssa(lw.compare("==", key, Val(key.ctype, const=k), e), e)
        number = lw.emit(arith.SelectOp(hit, lw.const_ssa(n, C.I32, e), number), e).results[0]
    _missing_key(lw, table, number, e)
    return Val(C.Pointer(C.VoidT()), obj=Tagged(Table(None, None, numbers), number))


def _missing_key(lw: FunctionLowerer, table: _Table, number: SSAValue, e: A.Call) -> None:
    """A run-time key no entry has: `operator[]` inserts a null pointer and the call through it is undefined (a
    fault on the device). The dispatch would run its last case for it, so a core that gets there meets a gap
    at the call instead (ASC958 where the run reaches it), never a result of an entry the key does not name."""
    from ascendir.dialects import ascendc as asc
    from ascendir.lower.fast_ops import file_line_col
    from frontend.diagnostics import as_span

    null = lw.emit(arith.CmpiOp(number, lw.const_ssa(0, C.I32, e), "eq"), e).results[0]
    if_op = lw.emit(scf.IfOp(null, [], Region(Block())), e)
    with lw.at_end_of(if_op.regions[0].block):
        span = as_span(e.span)
        gap = lw.emit(asc.LeftOutOp(f"'{table.name}' has no entry of the key this call reaches: C++ calls a null "
                                    "function pointer there (undefined)"), e)
        gap.location = file_line_col(span.file, span.line, span.col)
        lw.emit(scf.YieldOp(), e)
