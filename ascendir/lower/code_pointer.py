"""Pointers that hold the address of a user-class object or of a function, chosen at run time.

Type-erased callbacks keep an object's address in a `void const *` and the address of a function template
instantiated for the object's class in a function pointer (catlass's `Callback{void const *func;
void (*caller)(void const *)}`, made by `MakeCallback(&obj)` with `caller = &FuncWrapper<Func>` and called as
`caller(func)`), and the function objects behind them reach back into the kernel through `Kernel *ptr` set to
`this`. Objects and functions have no run-time address here (an object is an Instance the lowering holds, a
function is inlined where it is called), so such a pointer variable holds a number: an i32 cell beside the
pointer's own, 0 for null, else the kernel-wide number of one target (Registry); the lowering keeps the set of
numbers ever stored into the variable (Table). A copy copies the number and adds the set. A call through the
pointer inlines each function of the set under a test of the number (one alone unconditionally: anything else
would be a call through null); `p->m`, `*p` and `static_cast<F *>(p)` take the one object of the set (of class
F); a test of the pointer, or a comparison of two, compares numbers.

A read may come before, in the source, the store whose target it reads: catlass's pipelined block runs, at the
top of its k loop, the callback the previous iteration stored further down. A loop whose lowering read a set
that grew later in the same loop is lowered again, the first lowering rolled back (at most MAX_ATTEMPTS times).
The sets only grow, so this is the fixpoint over the loop's back edge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import UNKNOWN_LOC, IntegerAttr, i32
from xdsl.ir import Block, Operation, Region, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.header_names import TRANSPARENT_NAMESPACES
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# lowerings of one loop before its sets are taken as they are (each retry follows one more copy of a target)
MAX_ATTEMPTS = 4


@dataclass(frozen=True, eq=False)
class FunctionTarget:
    """`&Wrapper<Func>`: the functions of that name (one is picked by the call's arguments) and the values of
    the template arguments given, evaluated where the address was taken."""

    name: str
    fns: tuple[A.FunctionDecl, ...]
    explicit: tuple[object, ...]

    def key(self) -> tuple[object, ...]:
        return (self.name, tuple(id(f) for f in self.fns), tuple(_hashable(v) for v in self.explicit))


@dataclass(eq=False)
class Table:
    """A pointer variable's targets: the numbers ever stored into it, and the i32 cell holding the current one
    (beside `pointer`, the pointer's own cell)."""

    tag: SSAValue | None  # (None: the address of an element chosen at run time, held by no variable)
    pointer: Operation | None
    numbers: set[int] = field(default_factory=set)


@dataclass(frozen=True, eq=False)
class Tagged:
    """A pointer read from a variable with a Table: the number it held (an i32 value) and the variable's table."""

    table: Table
    number: SSAValue


@dataclass(frozen=True)
class _Read:
    """What one use of a pointer saw of its table (see lower_loop)."""

    table: Table
    seen: frozenset[int]
    node: A.Node


class Registry:
    """The targets of one kernel's pointers, numbered from 1 in order of first use, and the reads of their sets."""

    def __init__(self) -> None:
        self.targets: list[Instance | FunctionTarget | None] = [None]  # 0: null
        self._numbers: dict[object, int] = {}
        self.reads: list[_Read] = []
        self.dead: set[int] = set()  # objects of a lowering that was rolled back

    def number(self, target: Instance | FunctionTarget) -> int:
        key = ("object", id(target)) if isinstance(target, Instance) else ("function", target.key())
        found = self._numbers.get(key)
        if found is None:
            found = self._numbers[key] = len(self.targets)
            self.targets.append(target)  # (kept: the id of an object stays its own while it is held)
        return found

    def live(self, table: Table) -> list[int]:
        return sorted(n for n in table.numbers if n not in self.dead)


def _hashable(v: object) -> object:
    try:
        hash(v)
    except TypeError:
        return repr(v)
    return v


# ------------------------------------------------------------------------------------------------ values


def function_address(lw: FunctionLowerer, operand: A.Node) -> Val | None:
    """`&Wrapper<Func>`: a pointer to that function (None when the name is not one of the program's functions)."""
    if not isinstance(operand, A.Name):
        return None
    parts = lw.scope.without_namespaces([p for p in operand.qname.parts if p.name not in TRANSPARENT_NAMESPACES])
    if not parts:
        return None
    name = parts[-1].name
    if len(parts) == 1 and lw.frames and lw.lookup(name) is not None:
        return None  # a variable of that name
    fns = lw.scope.functions.get(name)
    if not fns:
        return None
    explicit = tuple(lw._template_arg_value(a) for a in parts[-1].template_args or ())
    return Val(C.Pointer(C.VoidT()), obj=FunctionTarget(name, tuple(fns), explicit))


def _may_hold_targets(lw: FunctionLowerer, t: C.Pointer) -> bool:
    """Whether a null stored into a pointer of type `t` starts a Table: `void *`, a pointer to a user class, and
    `void (*)(...)` (which the lowering types as `void **`)."""
    pointee = t.pointee
    if isinstance(pointee, C.Pointer) and not pointee.gm:
        pointee = pointee.pointee if isinstance(pointee.pointee, C.VoidT) else pointee
    return isinstance(pointee, C.VoidT) or (isinstance(pointee, C.ClassT) and pointee.name in lw.scope.classes)


def _stored(lw: FunctionLowerer, v: Val, node: A.Node) -> tuple[SSAValue, set[int]] | None:
    """The number `v` stores and the targets it adds, or None for a value that is no such address."""
    reg = lw.code_pointers
    if isinstance(v.obj, Tagged):
        return v.obj.number, set(reg.live(v.obj.table))
    if isinstance(v.obj, FunctionTarget):
        n = reg.number(v.obj)
        return lw.const_ssa(n, C.I32, node), {n}
    if isinstance(v.obj, Instance) and isinstance(v.ctype, C.ClassT | C.Pointer):
        n = reg.number(v.obj)
        return lw.const_ssa(n, C.I32, node), {n}
    if v.const == 0 and v.ssa is None and isinstance(v.ctype, C.Pointer | C.Scalar):
        return lw.const_ssa(0, C.I32, node), set()
    return None


def store(lw: FunctionLowerer, cell: Cell, v: Val, node: A.Node) -> bool:
    """`p = &object;`, `f = &Function<T>;`, `p = q;`, `p = nullptr;` into a pointer variable: the number and the
    targets; False for a store that is not this module's (the lowering stores it as before)."""
    t = cell.ctype
    if not isinstance(t, C.Pointer) or t.gm:
        return False
    table = cell.points_to if isinstance(cell.points_to, Table) else None
    if table is None and cell.points_to is not None:
        return False  # a pointer already followed otherwise (to the tiling data, to struct cells)
    stored = _stored(lw, v, node)
    if stored is None:
        if table is not None and lw.code_pointers.live(table):
            raise Unsupported(f"'{cell.name}' held the address of an object or function and is set to another "
                              "kind of value", node)
        cell.points_to = None  # null until now: an ordinary pointer after all
        return False
    number, targets = stored
    if table is None:
        if not targets and not isinstance(v.obj, Tagged) and not _may_hold_targets(lw, t):
            return False
        tag = _tag_cell(cell)
        if tag is None:
            return False
        table = Table(tag, cell.ref.owner)  # type: ignore[arg-type]
        cell.points_to = table
    table.numbers |= targets
    lw.store_element(number, table.tag, [], node)
    return True


def load(lw: FunctionLowerer, cell: Cell, node: A.Node) -> Val | None:
    """The pointer a variable with a Table holds (None for any other cell)."""
    table = cell.points_to
    if not isinstance(table, Table):
        return None
    number = lw.emit(memref.LoadOp.create(operands=[table.tag], result_types=[i32], location=UNKNOWN_LOC),
                     node).results[0]
    return Val(cell.ctype, obj=Tagged(table, number))


def _tag_cell(pointer: Cell) -> SSAValue | None:
    """An i32 cell beside the pointer's own (so it dominates every use of the pointer), holding 0 (null)."""
    alloca = pointer.ref.owner
    if getattr(pointer, "at", ()) or not isinstance(alloca, memref.AllocaOp) or alloca.parent_block() is None:
        return None
    tag = memref.AllocaOp.get(i32, shape=[])
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    init = memref.StoreOp.create(operands=[zero.results[0], tag.results[0]], location=UNKNOWN_LOC)
    alloca.parent_block().insert_ops_after([tag, zero, init], alloca)  # type: ignore[union-attr]
    if pointer.name:
        tag.results[0].name_hint = f"{pointer.name}_target"
    return tag.results[0]


# ------------------------------------------------------------------------------------------------ uses


def is_pointer(v: Val) -> bool:
    """Whether `v` was read from a pointer variable of this module's."""
    return isinstance(v.obj, Tagged)


def holds_functions(lw: FunctionLowerer, v: Val) -> bool:
    """Whether `v` is the address of a function, or was read from a pointer that may hold one."""
    if isinstance(v.obj, FunctionTarget):
        return True
    return isinstance(v.obj, Tagged) and any(isinstance(lw.code_pointers.targets[n], FunctionTarget)
                                             for n in lw.code_pointers.live(v.obj.table))


def _saw(lw: FunctionLowerer, tagged: Tagged, node: A.Node) -> list[int]:
    numbers = lw.code_pointers.live(tagged.table)
    lw.code_pointers.reads.append(_Read(tagged.table, frozenset(numbers), node))
    return numbers


def objects_at(lw: FunctionLowerer, v: Val, node: A.Node) -> list[tuple[int, Instance]]:
    """The objects `*p`, `p->m` and `static_cast<F *>(p)` may reach, with their numbers: those of p's set (of
    class F, when p's type names a class); at least one."""
    assert isinstance(v.obj, Tagged)
    reg = lw.code_pointers
    pointee = v.ctype.pointee if isinstance(v.ctype, C.Pointer) else v.ctype
    found: list[tuple[int, Instance]] = []
    for n in _saw(lw, v.obj, node):
        target = reg.targets[n]
        if not isinstance(target, Instance):
            continue
        part = target if not isinstance(pointee, C.ClassT) or target.ctype == pointee else target.part_named(
            pointee.name)
        if part is not None and all(part is not f for _, f in found):
            found.append((n, part))
    if not found:
        what = f" of class {pointee}" if isinstance(pointee, C.ClassT) else ""
        raise Unsupported(f"a pointer that holds the address of no object{what} here", node)
    return found


def object_at(lw: FunctionLowerer, v: Val, node: A.Node) -> Instance:
    """The one object a pointer may reach (see objects_at); more than one is reported."""
    found = objects_at(lw, v, node)
    if len(found) > 1:
        raise Unsupported(f"a pointer that may hold the address of any of {len(found)} objects (this use of it "
                          "is modelled for one)", node)
    return found[0][1]


def each_object(lw: FunctionLowerer, v: Val, node: A.Node, action: Callable[[Instance], Val]) -> Val:
    """`(*p)()`, `p->Method()`: `action` on each object p may reach, under a test of p's number (the last one
    without a test: p holds one of them if the program is defined)."""
    assert isinstance(v.obj, Tagged)
    found = objects_at(lw, v, node)
    return _dispatch(lw, v.obj.number, [(n, lambda inst=inst: action(inst)) for n, inst in found], node)


def member_of_objects(lw: FunctionLowerer, v: Val, node: A.Node, read: Callable[[Instance], Val]) -> Val:
    """`p->m` read through a pointer that may reach several objects: each object's scalar member, the one whose
    number p holds selected."""
    assert isinstance(v.obj, Tagged)
    found = objects_at(lw, v, node)
    chosen = read(found[0][1])
    for n, inst in found[1:]:
        value = read(inst)
        if not (isinstance(value.ctype, C.Scalar) and value.ctype == chosen.ctype):
            raise Unsupported("a member that is not a scalar, read through a pointer that may reach any of "
                              f"{len(found)} objects", node)
        is_it = lw.emit(arith.CmpiOp(v.obj.number, lw.const_ssa(n, C.I32, node), "eq"), node).results[0]
        picked = arith.SelectOp(is_it, lw.ssa(value, node), lw.ssa(chosen, node))
        chosen = Val(chosen.ctype, lw.emit(picked, node).results[0])
    return chosen


def element_address(lw: FunctionLowerer, operand: A.Node) -> Val | None:
    """`&list[i]` on an array of objects held one object per element, with i known only at run time: a pointer
    whose number is that of the element i selects. None for any other operand."""
    if not isinstance(operand, A.Index):
        return None
    base = lw.expr(operand.base)
    if not (isinstance(base.ctype, C.ArrayT) and isinstance(base.obj, list) and base.obj
            and all(isinstance(item, Val) and isinstance(item.obj, Instance) for item in base.obj)):
        return None
    index = lw.expr(operand.index)
    if index.const is not None or not isinstance(index.ctype, C.Scalar):
        return None  # (a constant index names its element: the ordinary path)
    reg = lw.code_pointers
    numbers = [reg.number(item.obj) for item in base.obj]
    at = lw.ssa(lw.convert(index, C.I32, operand), operand)
    number = lw.const_ssa(numbers[0], C.I32, operand)
    for k, n in enumerate(numbers[1:], start=1):
        is_it = lw.emit(arith.CmpiOp(at, lw.const_ssa(k, C.I32, operand), "eq"), operand).results[0]
        number = lw.emit(arith.SelectOp(is_it, lw.const_ssa(n, C.I32, operand), number), operand).results[0]
    chosen = Table(None, None, set(numbers))
    return Val(C.Pointer(base.ctype.elem), obj=Tagged(chosen, number))


def to_bool(lw: FunctionLowerer, v: Val, node: A.Node) -> Val | None:
    """`if (p)`: whether p's number is not 0."""
    if not isinstance(v.obj, Tagged):
        return None
    zero = lw.const_ssa(0, C.I32, node)
    return Val(C.BOOL, lw.emit(arith.CmpiOp(v.obj.number, zero, "ne"), node).results[0])


def compare(lw: FunctionLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val | None:
    """`p == q`, `p != nullptr`: the numbers compared (one number per target, kernel-wide)."""
    if op not in ("==", "!=") or not (isinstance(a.obj, Tagged) or isinstance(b.obj, Tagged)):
        return None
    sides = []
    for v in (a, b):
        if isinstance(v.obj, Tagged):
            sides.append(v.obj.number)
            continue
        stored = _stored(lw, v, node)
        if stored is None:
            return None
        sides.append(stored[0])
    pred = "eq" if op == "==" else "ne"
    return Val(C.BOOL, lw.emit(arith.CmpiOp(sides[0], sides[1], pred), node).results[0])


def call(lw: FunctionLowerer, e: A.Call, callee: object, lower_args: Callable[[], list[Val]]) -> Val | None:
    """`f(args)` with f a function pointer (a variable with a Table, or a pointer value): each function it may
    hold, inlined under a test of its number. None when `callee` is no such pointer."""
    if isinstance(callee, Cell):
        held = load(lw, callee, e)
        if held is None:
            return None
    elif isinstance(callee, Val) and isinstance(callee.obj, Tagged | FunctionTarget):
        held = callee
    else:
        return None
    args = lower_args()
    if isinstance(held.obj, FunctionTarget):
        return _inline(lw, held.obj, args, e)
    assert isinstance(held.obj, Tagged)
    reg = lw.code_pointers
    fns = [(n, t) for n in _saw(lw, held.obj, e) if isinstance(t := reg.targets[n], FunctionTarget)]
    if not fns:
        # only null so far: a call the program never makes if it is defined (`if (func) caller(func);` on a
        # callback never set), or a read a later lowering of its loop completes (lower_loop)
        return Val(C.VoidT())
    if len(fns) == 1:
        return _inline(lw, fns[0][1], args, e)
    return _dispatch(lw, held.obj.number, [(n, lambda t=t: _inline(lw, t, args, e)) for n, t in fns], e)


def assign_element(lw: FunctionLowerer, target: A.Index, value: Val, node: A.Node) -> bool:
    """`list[i] = object` on an array held one object per element, with i known only at run time: the object
    copied into the element the index selects, under a test of which (as `*(&list[i]) = object`). False for any
    other assignment."""
    source = value.obj
    if not isinstance(source, Instance):
        return False
    pointer = element_address(lw, target)
    if pointer is None:
        return False

    def copy(inst: Instance) -> Val:
        lw._copy_instance(inst, source, node)
        return Val(C.VoidT())

    each_object(lw, pointer, node, copy)
    return True


def _dispatch(lw: FunctionLowerer, number: SSAValue, cases: list[tuple[int, Callable[[], Val]]], node: A.Node) -> Val:
    """Each case's lowering under a test of `number` against the case's, in a chain of scf.if (the last case
    without a test). A scalar the cases return is stored into a cell made before the chain, and read after it."""
    if len(cases) == 1:
        return cases[0][1]()
    chain: list[Operation] = []
    returned: list[Cell] = []
    void = []

    def run(lower: Callable[[], Val]) -> None:
        value = lower()
        if isinstance(value.ctype, C.VoidT):
            void.append(True)
        elif isinstance(value.ctype, C.Scalar) and (not returned or returned[0].ctype == value.ctype):
            if not returned:
                saved = lw.builder
                lw.builder = Builder(InsertPoint.before(chain[0]))
                try:
                    returned.append(lw.new_cell(value.ctype, "returned", node))
                finally:
                    lw.builder = saved
            lw.store(returned[0], value, node)
        else:
            raise Unsupported("a value other than a scalar returned through a pointer that may reach several "
                              "functions or objects", node)
        if void and returned:
            raise Unsupported("functions or objects reached through one pointer that return different types", node)

    def case(i: int) -> None:
        if i == len(cases) - 1:
            run(cases[i][1])
            return
        is_it = lw.emit(arith.CmpiOp(number, lw.const_ssa(cases[i][0], C.I32, node), "eq"), node).results[0]
        if_op = lw.emit(scf.IfOp(is_it, [], Region(Block()), Region(Block())), node)
        chain.append(if_op)
        with lw.at_end_of(if_op.regions[0].block):
            run(cases[i][1])
            lw.emit(scf.YieldOp(), node)
        with lw.at_end_of(if_op.regions[1].block):
            case(i + 1)
            lw.emit(scf.YieldOp(), node)

    case(0)
    return lw.load(returned[0], node) if returned else Val(C.VoidT())


def _inline(lw: FunctionLowerer, target: FunctionTarget, args: Sequence[Val], e: A.Call) -> Val:
    from ascendir.lower.calls import explicit_types, pick_overload

    fn = pick_overload(list(target.fns), len(args), e, target.name, lw, args)
    types = explicit_types(lw, fn, None, args)
    params = lw.scope.function_templates.get(id(fn)) or []
    for p, value in zip(params, target.explicit):
        if p.name:
            types[p.name] = value
    return lw.inline_function(fn, args, None, e, types)


# ------------------------------------------------------------------------------------------------ loops


def lower_loop(lw: FunctionLowerer, lower: Callable[[], None]) -> None:
    """Lowers a loop; again, its first lowering rolled back, while a use in it read a set that grew later in it."""
    reg = lw.code_pointers
    for attempt in range(MAX_ATTEMPTS):
        mark = lw._mark()
        reads, diagnostics, ops = len(reg.reads), lw.report.mark(), lw.op_count
        failure: Unsupported | None = None
        try:
            lower()
        except Unsupported as exc:
            failure = exc
        # (a variable declared in the loop starts again in each iteration: what it holds cannot come from the last)
        added = _ops_since(lw, mark)
        stale = [r for r in reg.reads[reads:]
                 if set(reg.live(r.table)) - r.seen and not _inside(r.table.pointer, added)]
        if not stale or attempt == MAX_ATTEMPTS - 1:
            if failure is not None:
                raise failure
            if stale:
                lw.report.unsupported("a pointer read in this loop may hold, in a later iteration, an object or "
                                      "function stored in it that the lowering could not follow", stale[0].node)
            return
        lw._rollback(mark)
        lw.report.rollback(diagnostics)
        lw.op_count = ops
        del reg.reads[reads:]
        _forget_erased(lw)


def _ops_since(lw: FunctionLowerer, mark: tuple[Block | None, Operation | None]) -> set[int]:
    """The ops added to the marked block since the mark (by id)."""
    block, last = mark
    if block is None:
        return set()
    found: set[int] = set()
    stop = lw.builder.insertion_point.insert_before
    op = last.next_op if last is not None else block.first_op
    while op is not None and op is not stop:
        found.add(id(op))
        op = op.next_op
    return found


def _inside(op: Operation | None, ops: set[int]) -> bool:
    """Whether `op` is one of `ops` or nested in one."""
    while op is not None:
        if id(op) in ops:
            return True
        op = op.parent_op()
    return False


def _erased(v: SSAValue) -> bool:
    owner = v.owner
    return isinstance(owner, Operation) and owner.parent is None


def _forget_erased(lw: FunctionLowerer) -> None:
    """After a rollback: objects whose cells went with it are no targets any more, and caches that held values
    made by it forget them."""
    reg = lw.code_pointers
    for n, target in enumerate(reg.targets):
        if isinstance(target, Instance) and n not in reg.dead and _has_erased_cell(target):
            reg.dead.add(n)
    lw._tiling_values = {k: v for k, v in lw._tiling_values.items() if not _erased(k) and not _erased(v)}
    lw.pipes = [p for p in lw.pipes if not _erased(p)]


def _has_erased_cell(inst: Instance, seen: set[int] | None = None) -> bool:
    seen = seen if seen is not None else set()
    if id(inst) in seen:
        return False
    seen.add(id(inst))
    for b in inst.members.values():
        if isinstance(b, Cell) and _erased(b.ref):
            return True
        if isinstance(b, Val) and b.ssa is not None and _erased(b.ssa):
            return True
        if isinstance(b, Instance) and _has_erased_cell(b, seen):
            return True
    return False
