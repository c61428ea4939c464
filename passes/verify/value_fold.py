"""Values folded to compile-time constants, shared by the alignment (ASC4xx), sync (ASC7xx) and capacity
rules: integers and conditions folded through `arith` and through mutable locals with one reaching store,
element sizes and C type names, the explicitly given fields of a parameter struct, the constant offset of a
chain of sub-tensors, and whether an op sits in a branch whose condition folds against it. Values that depend
on the tiling or on loop variables fold to None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.ir import constant_of, is_kind, run_table


_FOLD_DEPTH = 24


def reaching_store(load: memref.LoadOp) -> SSAValue | None:
    """The value a load of a cell reads, when every store of the cell sits in the cell's own block (none in a
    branch or loop): the last store before the load's ancestor in that block. For an array, the last store to
    the element the load reads, when every index is a constant (`ids[0]` of `TEventID ids[2] = {EVENT_ID0,
    EVENT_ID1}` is EVENT_ID0, not the last element stored)."""
    cell = load.memref
    alloca = cell.owner
    if not isinstance(alloca, memref.AllocaOp):
        return None
    block = alloca.parent_block()
    if block is None:
        return None
    stores = _block_stores(cell, block)
    if not stores:
        return None
    if load.indices:
        element = _element_stores(load, stores)
        if element is None:
            return None
        stores = element
    anchor = statement_in(load, block)
    if anchor is None:
        return None
    position = _positions(block)
    at = position.get(id(anchor))
    if at is None or at < position[id(alloca)]:
        return None
    before = [store for store in stores if position[id(store)] < at]
    return max(before, key=lambda store: position[id(store)]).value if before else None


def _element_stores(load: memref.LoadOp, stores: list[Operation]) -> list[Operation] | None:
    """The stores of `stores` to the element `load` reads; None when an index of the load or of a store is not
    a constant (the element a store writes is then unknown)."""
    want = [fold_int(i) for i in load.indices]
    if any(w is None for w in want):
        return None
    found = []
    for store in stores:
        at = [fold_int(i) for i in store.indices]  # type: ignore[attr-defined]
        if any(a is None for a in at) or len(at) != len(want):
            return None
        if at == want:
            found.append(store)
    return found


_STORES: dict[int, tuple[SSAValue, list[Operation] | None]] = run_table()


def _block_stores(cell: SSAValue, block: Block) -> list[Operation] | None:
    """The stores to `cell`, when all of them sit in `block` and the cell is otherwise only loaded; None when
    one is elsewhere or the cell escapes (passed by reference: its value is unknown). Found once per cell: a
    vendor kernel's cells are loaded hundreds of times each."""
    hit = _STORES.get(id(cell))
    if hit is not None and hit[0] is cell:
        return hit[1]
    stores: list[Operation] | None = []
    for use in cell.uses:
        user = use.operation
        if is_kind(user, memref.StoreOp):
            if user.memref is not cell or user.parent_block() is not block:
                stores = None
                break
            stores.append(user)  # type: ignore[union-attr]
        elif not is_kind(user, memref.LoadOp):
            stores = None
            break
    _STORES[id(cell)] = (cell, stores)
    return stores


_POSITIONS: dict[int, tuple[Block, dict[int, int]]] = run_table()


def _positions(block: Block) -> dict[int, int]:
    """Each op of `block` by identity -> its index: found once per block, so that finding the store that
    reaches a load does not walk the block from the cell's declaration every time (a vendor kernel's entry
    block holds thousands of ops and loads)."""
    hit = _POSITIONS.get(id(block))
    if hit is not None and hit[0] is block:
        return hit[1]
    position = {id(op): i for i, op in enumerate(block.ops)}
    _POSITIONS[id(block)] = (block, position)
    return position


def statement_in(op: Operation, block: Block | None) -> Operation | None:
    """The op of `block` that is `op` or holds it (None when `op` is not inside `block`)."""
    anchor: Operation | None = op
    while anchor is not None and anchor.parent_block() is not block:
        anchor = anchor.parent_op()
    return anchor


def source_of(value: SSAValue | None) -> SSAValue | None:
    """Looks through loads of single-store cells and `arith.select`-free copies to the defining value."""
    for _ in range(_FOLD_DEPTH):
        if value is None:
            return None
        owner = value.owner
        if is_kind(owner, memref.LoadOp):
            value = reaching_store(owner)
            continue
        return value
    return None


_INT_CONVERSIONS = arith.ExtSIOp | arith.ExtUIOp | arith.TruncIOp | arith.IndexCastOp
_BINARY: dict[type, Callable[[int, int], int | None]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivUIOp: lambda a, b: a // b if b else None,
    arith.DivSIOp: lambda a, b: int(a / b) if b else None,
    arith.RemUIOp: lambda a, b: a % b if b else None,
    arith.ShLIOp: lambda a, b: a << b if 0 <= b < 64 else None,
    arith.ShRUIOp: lambda a, b: a >> b if 0 <= b < 64 else None,
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
}


def fold_int(value: SSAValue | None, depth: int = 0, known: Mapping[SSAValue, int] | None = None) -> int | None:
    """The integer value of `value` if it is a compile-time constant (arith folded, cells followed), or
    follows from `known` values (a loop's induction variable in its first iteration)."""
    if value is None or depth > _FOLD_DEPTH:
        return None
    if known and value in known:
        return known[value]
    value = source_of(value)
    if value is None:
        return None
    if known and value in known:
        return known[value]
    owner = value.owner
    if is_kind(owner, arith.ConstantOp):
        c = constant_of(value)
        return c if isinstance(c, int) and not isinstance(c, bool) else None
    if is_kind(owner, _INT_CONVERSIONS):
        return fold_int(owner.operands[0], depth + 1, known)
    fn = _BINARY.get(owner.__class__)  # (arith's binary op classes have no subclasses)
    if fn is not None:
        a = fold_int(owner.operands[0], depth + 1, known)
        if a is None:
            return None
        b = fold_int(owner.operands[1], depth + 1, known)
        if b is None:
            return None
        result = fn(a, b)
        return result if isinstance(result, int) else None
    return None


def elem_bytes(t: Attribute) -> int | None:
    """sizeof(T) of an element type (`f16`, `si32`, `ui8`, ...)."""
    if isinstance(t, Float16Type):
        return 2
    if isinstance(t, Float32Type):
        return 4
    if isinstance(t, Float64Type):
        return 8
    if isinstance(t, IntegerType):
        width = t.width.data
        return max(1, width // 8) if width in (1, 8, 16, 32, 64) else None
    if getattr(t, "name", "") == "bf16":
        return 2
    return None


def tensor_elem_bytes(value: SSAValue) -> int | None:
    t = value.type
    if isinstance(t, asc.LocalTensorType | asc.GlobalTensorType):
        return elem_bytes(t.element_type)
    return None


def type_name(t: Attribute) -> str:
    names = {"f16": "half", "f32": "float", "bf16": "bfloat16_t", "f64": "double"}
    if isinstance(t, IntegerType):
        sign = {"unsigned": "uint", "signed": "int"}.get(t.signedness.data.name.lower(), "int")
        return f"{sign}{t.width.data}_t"
    text = str(t)
    return names.get(text, text)


def struct_fields(value: SSAValue | None) -> dict[str, SSAValue] | None:
    """The explicitly given fields of a parameter struct value: `struct_init` plus any `struct_set`s."""
    sets: list[tuple[str, SSAValue]] = []
    for _ in range(_FOLD_DEPTH):
        value = source_of(value)
        if value is None:
            return None
        owner = value.owner
        if isinstance(owner, asc.StructSetOp):
            sets.append((owner.field.data, owner.value))
            value = owner.struct
            continue
        if isinstance(owner, asc.StructInitOp):
            fields = {f.data: v for f, v in zip(owner.fields.data, owner.values, strict=False)}
            for name, v in reversed(sets):
                fields[name] = v
            return fields
        return None
    return None


def sub_tensor_chain(value: SSAValue) -> tuple[list[SSAValue], SSAValue] | None:
    """The offsets of a chain of `t[off]` (outermost first) and the tensor it starts from; None when `value`
    is no sub-tensor (or its source is unknown)."""
    offsets: list[SSAValue] = []
    for _ in range(_FOLD_DEPTH):
        value = source_of(value)  # type: ignore[assignment]
        if value is None:
            return None
        owner = value.owner
        if not isinstance(owner, asc.SubTensorOp):
            return (offsets, value) if offsets else None
        offsets.append(owner.offset)
        value = owner.tensor
    return None


def sub_tensor_offset(value: SSAValue) -> tuple[int, SSAValue] | None:
    """(total constant element offset, base tensor) of a chain of `t[off]`; None if any offset is unknown."""
    chain = sub_tensor_chain(value)
    if chain is None:
        return None
    folded = [fold_int(off) for off in chain[0]]
    return None if any(off is None for off in folded) else (sum(folded), chain[1])  # type: ignore[arg-type]


def as_unsigned(v: int | None, t: Attribute) -> int | None:
    """An integer folded from a signless IR value, read as unsigned (a uint16_t 32768 folds to -32768)."""
    if v is not None and v < 0 and isinstance(t, IntegerType):
        return v + (1 << t.width.data)
    return v


# arith.cmpi predicates: eq ne slt sle sgt sge ult ule ugt uge
_FIRST_UNSIGNED_CMPI = 6
_CMPI = (lambda a, b: a == b, lambda a, b: a != b, lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b,
         lambda a, b: a >= b, lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b)


def fold_bool(value: SSAValue | None, depth: int = 0, known: Mapping[SSAValue, int] | None = None) -> bool | None:
    """The truth of a condition if it is a compile-time constant: an integer comparison of folded values
    (see fold_int for `known`), and the logic of such comparisons."""
    if value is None or depth > _FOLD_DEPTH:
        return None
    value = source_of(value)
    if value is None:
        return None
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        c = constant_of(value)
        return bool(c) if c is not None else None
    if isinstance(owner, arith.CmpiOp):
        a, b = fold_int(owner.lhs, depth + 1, known), fold_int(owner.rhs, depth + 1, known)
        predicate = owner.predicate.value.data
        if predicate >= _FIRST_UNSIGNED_CMPI:  # ult ule ugt uge read the operands as unsigned
            a, b = as_unsigned(a, owner.lhs.type), as_unsigned(b, owner.rhs.type)
        return _CMPI[predicate](a, b) if a is not None and b is not None and 0 <= predicate < len(_CMPI) else None
    if isinstance(owner, arith.AndIOp | arith.OrIOp | arith.XOrIOp):
        a, b = fold_bool(owner.operands[0], depth + 1, known), fold_bool(owner.operands[1], depth + 1, known)
        if isinstance(owner, arith.AndIOp):
            return False if a is False or b is False else (True if a and b else None)
        if isinstance(owner, arith.OrIOp):
            return True if a or b else (False if a is False and b is False else None)
        return a != b if a is not None and b is not None else None
    return None


def unreachable(op: Operation, known: dict[Operation, bool | None]) -> bool:
    """Whether `op` sits in an scf.if branch whose condition folds to the other way (with concrete shapes,
    `if (count % 8 == 0) { DataCopy(.., count); }` for count = 900 never runs). `known` caches the
    folded conditions by scf.if."""
    child: Operation = op
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.IfOp):
            if parent in known:
                taken = known[parent]
            else:
                taken = known[parent] = fold_bool(parent.cond)
            if taken is not None:
                in_then = child.parent_region() is parent.true_region
                if taken != in_then:
                    return True
        child, parent = parent, parent.parent_op()
    return False
