"""Alignment (ASC4xx): lengths, offsets and parameter fields the hardware silently truncates or rejects.

Every rule here reports only compile-time constants: a count, offset or struct field whose value is
folded from `arith` constants and mutable locals with one reaching store. Values that depend on tiling
or on loop variables are left alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note
from passes.verify.ir import arg, constant_of, is_kind, run_table, walk_of
from passes.verify.rules import CheckContext, rule

if TYPE_CHECKING:
    from passes.verify.congruence import Form, Reader

# ----------------------------------------------------------------------------------------------------
# Value helpers (shared with sync.py): fold constants through arithmetic and mutable locals
# ----------------------------------------------------------------------------------------------------

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


class ModuleIndex:
    """The ops the alignment and sync rules look at, gathered in one walk of the module."""

    def __init__(self, module: Operation) -> None:
        self.module = module
        self.calls: dict[str, list[asc.ApiCallOp]] = {}
        self.tbuf_gets: list[asc.TBufGetOp] = []
        self.get_values: list[asc.GetValueOp] = []
        self.tpipes: list[asc.TPipeOp] = []
        self.opaque_calls: list[asc.OpaqueCallOp] = []
        self._conditions: dict[Operation, bool | None] = {}  # scf.if -> its folded condition
        self._live: dict[str, list[asc.ApiCallOp]] = {}
        self.flagged_ancestors: set[Operation] = set()  # ops with a SetFlag/WaitFlag nested inside
        self.hazard_ancestors: set[Operation] = set()  # ops with a GetValue / vector / copy / sync inside
        for op in walk_of(module):
            if is_kind(op, asc.ApiCallOp):
                self.calls.setdefault(op.FAMILY, []).append(op)
                if op.FAMILY == "sync" and op.api.data in ("SetFlag", "WaitFlag"):
                    self._mark(op, self.flagged_ancestors)
                self._mark(op, self.hazard_ancestors)
            elif is_kind(op, asc.TBufGetOp):
                self.tbuf_gets.append(op)
            elif is_kind(op, asc.GetValueOp):
                self.get_values.append(op)
                self._mark(op, self.hazard_ancestors)
            elif is_kind(op, asc.TPipeOp):
                self.tpipes.append(op)
            elif is_kind(op, asc.OpaqueCallOp):
                self.opaque_calls.append(op)

    @staticmethod
    def _mark(op: Operation, into: set[Operation]) -> None:
        parent = op.parent_op()
        while parent is not None and parent not in into:
            into.add(parent)
            parent = parent.parent_op()

    def of(self, *families: str) -> list[asc.ApiCallOp]:
        """The calls of these families that may run: not in a branch whose condition folds against it."""
        found = []
        for family in families:
            live = self._live.get(family)
            if live is None:
                live = self._live[family] = [op for op in self.calls.get(family, [])
                                             if not unreachable(op, self._conditions)]
            found.extend(live)
        return found


_INDEX: list[ModuleIndex] = []


def module_index(module: Operation) -> ModuleIndex:
    """One index per module, shared by every rule of the run (rules never change the module)."""
    if _INDEX and _INDEX[0].module is module:
        return _INDEX[0]
    index = ModuleIndex(module)
    _INDEX[:] = [index]
    return index


# ----------------------------------------------------------------------------------------------------
# ASC401 DataCopy count not a multiple of 32 bytes
# ----------------------------------------------------------------------------------------------------


def _local_operand(op: asc.ApiCallOp) -> SSAValue | None:
    for name in ("dst", "src"):
        v = arg(op, name)
        if v is not None and isinstance(v.type, asc.LocalTensorType):
            return v
    return None


@rule(
    "ASC401", "datacopy-length-unaligned", "alignment",
    summary="DataCopy in the count form moves a constant number of bytes that is not a multiple of 32.",
    why="The MTE moves whole 32-byte blocks: DataCopy(dst, src, count) copies count * sizeof(T) rounded "
        "down to a multiple of 32 bytes, with no error. The tail elements are silently not copied (stale "
        "UB data is computed on, or GM keeps old values); a count below one block copies nothing. "
        "DataCopyPad exists for byte-granular lengths and is not flagged.",
    example="DataCopy(xLocal, xGm, 100);          // 100 halves = 200 bytes: only 192 are copied",
    instead="DataCopy(xLocal, xGm, 112);          // pad the tile to 32 bytes (16 halves)\n"
            "DataCopyPad(xLocal, xGm, {1, 200, 0, 0, 0}, {false, 0, 0, 0});  // or copy exact bytes",
)
def datacopy_length_unaligned(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("data_copy"):
        if op.api.data != "DataCopy" or not op.overload.data.startswith("count_"):
            continue
        local = _local_operand(op)
        size = tensor_elem_bytes(local) if local is not None else None
        if size is None:
            continue
        assert local is not None and isinstance(local.type, asc.LocalTensorType)
        found = _first_value(ctx, op, "count", lambda n: n > 0 and n * size % 32 != 0)
        if found is None:
            continue
        count, where = found
        total = count * size
        kept = total - total % 32
        what = "nothing is copied" if kept == 0 else f"only the first {kept} bytes ({kept // size} elements) are copied"
        ctx.report(op, f"DataCopy moves {count} x {type_name(local.type.element_type)} = {total} bytes, not a "
                       f"multiple of 32 bytes; {what}", *where)


def _first_value(ctx: CheckContext, op: asc.ApiCallOp, name: str, bad: Callable[[int], bool]
                 ) -> tuple[int, list[Note]] | None:
    """The value of parameter `name` of `op` that `bad` rejects, with notes on where it comes from: the constant
    the operand folds to, else (with concrete shapes) the first such value a core computes (footprint.py runs
    every core's scalar code; coverage.observed_values). None when no value known here is bad."""
    from passes.verify.coverage import observed_values

    field = name.split(".")
    operand = arg(op, field[0])
    if len(field) == 2:
        fields = struct_fields(operand) if operand is not None else None
        operand = fields.get(field[1]) if fields is not None else None
    constant = fold_int(operand) if operand is not None else None
    if constant is not None:
        return (constant, []) if bad(constant) else None
    for core, value in observed_values(ctx, op, name):
        if bad(value):
            return value, [Note(f"for the given shapes: the value core {core} computes here from the tiling "
                                f"(with blockDim {ctx.tiling.block_dim if ctx.tiling is not None else '?'})")]
    return None


# ----------------------------------------------------------------------------------------------------
# ASC402 DataCopyParams / DataCopyExtParams ranges, ASC403 DataCopyPad padding
# ----------------------------------------------------------------------------------------------------

_PARAM_ARGS = ("repeatParams", "dataCopyParams", "intriParams")


def fold_unsigned(value: SSAValue | None) -> int | None:
    """A constant unsigned parameter field (blockCount, blockLen)."""
    return as_unsigned(fold_int(value), value.type) if value is not None else None


def datacopy_params(op: asc.ApiCallOp) -> tuple[str, dict[str, SSAValue]] | None:
    """The DataCopyParams / DataCopyExtParams argument of a DataCopy or DataCopyPad call: its struct's name and
    the fields given explicitly (None: another form, or a struct value not built here)."""
    if op.api.data not in ("DataCopy", "DataCopyPad"):
        return None
    for name in _PARAM_ARGS:
        value = arg(op, name)
        if value is None or not isinstance(value.type, asc.StructType):
            continue
        struct = value.type.type_name.data
        if struct not in ("DataCopyParams", "DataCopyExtParams"):
            continue
        fields = struct_fields(value)
        if fields is not None:
            return struct, fields
    return None


@rule(
    "ASC402", "datacopy-params-out-of-range", "alignment",
    summary="A DataCopyParams / DataCopyExtParams field is a constant outside its hardware range.",
    why="blockCount is a 12-bit field (1..4095) and blockLen must be at least 1 (in 32-byte units for "
        "DataCopy, in bytes up to 2097151 for DataCopyPad). A 0 makes the copy do nothing, a larger value "
        "is cut to its low bits: the copy moves a different amount than meant, or the CPU-debug build "
        "aborts in the DataCopy parameter checks.",
    example="DataCopyParams p{5000, 1, 0, 0};      // 5000 blocks: blockCount is at most 4095",
    instead="DataCopyParams p{2500, 2, 0, 0};      // same bytes, fewer and longer blocks; or split the copy",
)
def datacopy_params_out_of_range(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("data_copy"):
        given = datacopy_params(op)
        if given is None:
            continue
        struct, fields = given
        count = fold_unsigned(fields.get("blockCount"))
        if count is not None and not 1 <= count <= 4095:
            ctx.report(op, f"{op.api.data} with blockCount = {count}; {struct}.blockCount must be in 1..4095")
        length = fold_unsigned(fields.get("blockLen"))
        unit = "bytes" if op.api.data == "DataCopyPad" else "32-byte blocks"
        if length is not None and length < 1:
            ctx.report(op, f"{op.api.data} with blockLen = {length}; blockLen ({unit}) must be at least 1, "
                           f"the copy moves nothing")
        elif length is not None and op.api.data == "DataCopyPad" and length > 2097151:
            ctx.report(op, f"DataCopyPad with blockLen = {length} bytes; at most 2097151 bytes per block")


@rule(
    "ASC403", "datacopypad-padding-too-wide", "alignment",
    summary="DataCopyPad pads a row with more than 32 bytes on one side.",
    why="leftPadding and rightPadding count elements that fill the row up to its 32-byte boundary; each "
        "side is at most 32 bytes (16 halves, 8 floats). Larger values are rejected by the CPU-debug "
        "checks and on the device write past the row's padded length.",
    example="DataCopyPadExtParams<float> pad{true, 0, 12, 0};   // 12 floats = 48 bytes",
    instead="DataCopyPadExtParams<float> pad{true, 0, 4, 0};    // pad to the next 32-byte boundary only",
)
def datacopypad_padding_too_wide(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("data_copy"):
        if op.api.data != "DataCopyPad":
            continue
        pad = arg(op, "padParams")
        dst = arg(op, "dst")
        if pad is None or dst is None:
            continue
        size = tensor_elem_bytes(dst)
        if size is None:
            continue
        for side in ("leftPadding", "rightPadding"):
            found = _first_value(ctx, op, f"padParams.{side}", lambda n: n * size > 32)
            if found is not None:
                n, where = found
                ctx.report(op, f"DataCopyPad {side} = {n} elements = {n * size} bytes; padding is at most 32 bytes",
                           *where)


# ----------------------------------------------------------------------------------------------------
# ASC404 / ASC406 sub-tensor offsets, ASC405 GetWithOffset
# ----------------------------------------------------------------------------------------------------

# API families whose tensor operands must start on the memory's alignment. Reductions' destinations
# only need element alignment (one result per repeat), so their `dst` is skipped.
_ALIGNED_FAMILIES = (
    "data_copy", "vec_binary", "vec_scalar", "vec_unary", "duplicate", "cast", "compare", "select",
    "reduce", "brcb", "transpose", "cube",
)  # fmt: skip
_UB = ("VECIN", "VECOUT", "VECCALC")
_L0 = {"A2": "L0A", "B2": "L0B", "CO1": "L0C"}


def _operand_names(op: asc.ApiCallOp) -> dict[int, str]:
    from passes.verify.ir import overload_of

    found = overload_of(op.api.data, op.overload.data, op.FAMILY)
    if found is None:
        return {}
    overload, has_receiver = found
    return {i + int(has_receiver): p.name for i, p in enumerate(overload.params)}


def _iteration_offsets(value: SSAValue) -> tuple[scf.ForOp, str, list[tuple[int, int]]] | None:
    """For `t[i * COLS]` in `for (i = lb; i < ub; i += step)` with constant bounds and at least two trips:
    the loop, its variable's name and (i, element offset) for its first two values. Each iteration runs the same
    call (see unguarded_within), so each offset must be aligned. None for any other offset."""
    from passes.verify.congruence import Reader

    chain = sub_tensor_chain(value)
    if chain is None:
        return None
    total = None
    reader = Reader(1 << 32)
    for offset in chain[0]:
        form = reader.form(offset)
        if form is None or len(form.terms) > 1:
            return None
        total = form if total is None else total.plus(form)
    if total is None or len(total.terms) != 1:
        return None
    (key, coefficient), = total.terms
    if not (isinstance(key, BlockArgument) and key.index == 0 and isinstance(key.owner, Block)
            and isinstance(key.owner.parent_op(), scf.ForOp)):
        return None
    loop = key.owner.parent_op()
    assert isinstance(loop, scf.ForOp)
    lb, ub, step = fold_int(loop.lb), fold_int(loop.ub), fold_int(loop.step)
    if lb is None or ub is None or not step or step < 0 or lb + step >= ub:
        return None  # fewer than two trips (or bounds not known)
    return loop, total.names.get(key, "the loop variable"), [(i, coefficient * i + total.constant)
                                                               for i in (lb, lb + step)]


def unguarded_within(op: Operation, ancestor: Operation) -> bool:
    """`op` lies inside `ancestor` with no branch or while loop between them that may keep it from running
    whenever `ancestor`'s region runs."""
    parent = op.parent_op()
    while parent is not None and parent is not ancestor:
        if isinstance(parent, scf.IfOp | scf.WhileOp):
            return False
        parent = parent.parent_op()
    return parent is ancestor


def _grid_operands(ctx: CheckContext, spaces: tuple[str, ...]) -> Iterator[tuple[asc.ApiCallOp, SSAValue, str]]:
    """(call, operand, operand name) for each distinct LocalTensor operand in one of `spaces` that a call of
    the aligned families takes as an operand that must start on the memory's grid."""
    for op in module_index(ctx.module).of(*_ALIGNED_FAMILIES):
        names = _operand_names(op)
        seen: set[SSAValue] = set()
        for i, value in enumerate(op.args):
            t = value.type
            if not isinstance(t, asc.LocalTensorType) or value in seen:
                continue
            seen.add(value)
            if op.FAMILY == "reduce" and names.get(i) == "dst":
                continue
            if t.position.data in spaces:
                yield op, value, names.get(i, f"operand {i + 1}")


def _misaligned_subtensors(ctx: CheckContext, spaces: tuple[str, ...]) -> Iterator[tuple[asc.ApiCallOp, SSAValue, int, int, str, str]]:
    """(call, operand, element offset, alignment, operand name, when) for sub-tensor operands off the grid;
    `when` is "" for a constant offset, or names the loop iteration that is."""
    for op, value, name in _grid_operands(ctx, spaces):
        t = value.type
        assert isinstance(t, asc.LocalTensorType)
        pos = t.position.data
        found = sub_tensor_offset(value)
        size = elem_bytes(t.element_type)
        if size is None:
            continue
        align = ctx.chip.alignments.get(_L0[pos], 32) if pos in _L0 else ctx.chip.alignments.get("UB", 32)
        if found is not None:
            if (found[0] * size) % align:
                yield op, value, found[0], align, name, ""
            continue
        iterations = _iteration_offsets(value)
        if iterations is None:
            continue
        loop, var, offsets = iterations
        if not unguarded_within(op, loop):
            continue
        for index, offset in offsets:
            if (offset * size) % align:
                yield op, value, offset, align, name, f" when {var} is {index}"
                break


@rule(
    "ASC404", "ub-subtensor-unaligned", "alignment",
    summary="A UB sub-tensor t[off] passed to an API starts at a byte offset that is not a multiple of 32: a "
            "constant offset, or a row offset t[r * COLS] in a loop of constant bounds whose second row is off "
            "the grid.",
    why="Vector instructions and DMA address UB in 32-byte blocks: the start address of every operand must "
        "be 32-byte aligned. An operand at t[10] (20 bytes into a half tensor) is rejected by the CPU-debug "
        "build ('absUbAddr ... must be 32B aligned') and on the device raises an AI Core exception or "
        "silently reads the aligned-down address.",
    example="Add(dst, src[10], src, 64);          // half: 20 bytes into src",
    instead="Add(dst, src[16], src, 64);          // 16 halves = 32 bytes; or shift with GetValue/SetValue",
)
def ub_subtensor_unaligned(ctx: CheckContext) -> None:
    for op, value, offset, align, name, when in _misaligned_subtensors(ctx, _UB):
        assert isinstance(value.type, asc.LocalTensorType)
        size = elem_bytes(value.type.element_type) or 1
        ctx.report(op, f"{op.api.data} {name} starts {offset} elements = {offset * size} bytes into its tensor{when}; "
                       f"UB operands must be {align}-byte aligned", ctx.note_at(value.owner, "sub-tensor taken here")
                   if isinstance(value.owner, Operation) else ctx.note_at(op, "here"))


@rule(
    "ASC405", "getwithoffset-unaligned", "alignment",
    summary="TBuf::GetWithOffset with a constant byte offset that is not a multiple of 32, for a tensor that a "
            "vector or DMA instruction takes.",
    why="GetWithOffset<T>(count, bufOffset) returns a tensor starting bufOffset bytes into the buffer; the "
        "offset must keep the 32-byte start alignment every vector and DMA operand needs, else the CPU-debug "
        "build aborts and the device raises an AI Core exception or works on the wrong bytes. A tensor that is "
        "only read and written element by element (SetValue/GetValue, SIMT code) needs no aligned start and is "
        "not reported.",
    example="LocalTensor<float> b = tmp.GetWithOffset<float>(64, 100);   // 100 bytes\nAdds(b, b, 1.0f, 64);",
    instead="LocalTensor<float> b = tmp.GetWithOffset<float>(64, 128);   // round the offset up to 32 bytes",
)
def getwithoffset_unaligned(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).tbuf_gets:
        if op.byte_offset is None:
            continue
        off = fold_int(op.byte_offset)
        pos = op.buffer.type.position.data if isinstance(op.buffer.type, asc.TBufType) else "?"
        align = ctx.chip.alignments.get(_L0[pos], 32) if pos in _L0 else 32
        if off is None or not off % align:
            continue
        use = _aligned_use(op.result)
        if use is None:
            continue  # only read element by element (GetValue, SIMT code): scalar accesses need no 32-byte start
        ctx.report(op, f"GetWithOffset at byte offset {off}; offsets in {pos} must be a multiple of {align} bytes",
                   ctx.note_at(use, f"{use.api.data} takes the tensor here; its operands must start on the "
                               f"{align}-byte grid"))


def _aligned_use(tensor: SSAValue) -> asc.ApiCallOp | None:
    """The first vector or data-movement call that takes `tensor` (or a view of it: `t[off]`, a
    ReinterpretCast, a local it is stored in) as an operand that must start aligned."""
    work, seen = [tensor], {tensor}
    while work:
        value = work.pop()
        for use in value.uses:
            user = use.operation
            found: list[SSAValue] = []
            if isinstance(user, asc.SubTensorOp | asc.ReinterpretCastOp) and use.index == 0:
                found = [user.result]
            elif isinstance(user, memref.StoreOp) and use.index == 0:
                found = [u.operation.results[0] for u in user.memref.uses if isinstance(u.operation, memref.LoadOp)]
            elif isinstance(user, asc.ApiCallOp) and user.FAMILY in _ALIGNED_FAMILIES and value in user.args:
                if user.FAMILY != "reduce" or _operand_names(user).get(list(user.args).index(value)) != "dst":
                    return user
            for v in found:
                if v not in seen:
                    seen.add(v)
                    work.append(v)
    return None


@rule(
    "ASC406", "l0-subtensor-unaligned", "alignment",
    summary="A sub-tensor of an L0A/L0B (A2/B2) or L0C (CO1) tensor starts off the 512-byte / 64-byte grid.",
    why="L0A and L0B are addressed in 512-byte fractals and L0C in 64-byte units: LoadData, Mmad and "
        "Fixpipe operands must start on those boundaries. A sub-tensor that starts mid-fractal is rejected "
        "by the CPU-debug checks and on the device reads shifted fractals (wrong results).",
    example="Mmad(c, a[100], b, params);          // half in A2: 200 bytes, not a multiple of 512",
    instead="Mmad(c, a[256], b, params);          // one 16x16 fractal = 256 halves = 512 bytes",
)
def l0_subtensor_unaligned(ctx: CheckContext) -> None:
    for op, value, offset, align, name, when in _misaligned_subtensors(ctx, tuple(_L0)):
        assert isinstance(value.type, asc.LocalTensorType)
        size = elem_bytes(value.type.element_type) or 1
        ctx.report(op, f"{op.api.data} {name} starts {offset * size} bytes into its {value.type.position.data} "
                       f"tensor{when}; it must be a multiple of {align} bytes")


# ----------------------------------------------------------------------------------------------------
# ASC407 Compare count
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC407", "compare-count-unaligned", "alignment",
    summary="Compare in the count form with count * sizeof(T) not a multiple of 256 bytes.",
    why="Compare writes one bit per element and works in whole 256-byte repeats: the count form requires "
        "count * sizeof(T) to be a multiple of 256 bytes. Other counts are rejected by the CPU-debug checks "
        "and on the device compare a different number of elements, leaving the mask's tail stale.",
    example="Compare(mask, a, b, CMPMODE::LT, 100);   // 100 floats = 400 bytes",
    instead="Compare(mask, a, b, CMPMODE::LT, 128);   // pad to 64 floats per 256 bytes; mask the tail",
)
def compare_count_unaligned(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("compare"):
        if op.api.data != "Compare":
            continue
        src = arg(op, "src0")
        size = tensor_elem_bytes(src) if src is not None else None
        if size is None:
            continue
        found = _first_value(ctx, op, "count", lambda n: n > 0 and n * size % 256 != 0)
        if found is not None:
            count, where = found
            ctx.report(op, f"Compare over {count} elements = {count * size} bytes; the count form needs a multiple "
                           f"of 256 bytes ({256 // size} elements)", *where)


# ----------------------------------------------------------------------------------------------------
# ASC408 DataCopy lengths that no tiling makes 32-byte multiples
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC408", "datacopy-length-never-aligned", "alignment",
    summary="DataCopy in the count form moves a length the checker cannot fold that is not a multiple of 32 "
            "bytes for any values: by itself (2*n + 1 halves), or while another DataCopy on the same path, "
            "reading the same values, moves whole blocks (n and n + 1 halves), or a UB sub-tensor that a vector "
            "call takes starts at such an offset (t[n] and a copy of n + 1 halves).",
    why="The MTE moves whole 32-byte blocks and drops the rest of a count-form DataCopy without an error "
        "(see ASC401). When the length comes from the tiling the checker cannot know it, but it can still know "
        "it is wrong: copies of n and n + 1 halves differ by 2 bytes, so at most one of them is a multiple of "
        "32 bytes whatever n the host picks. The copy that disagrees with the others is reported, with a note "
        "at one it disagrees with. A sub-tensor offset that a vector or DMA call takes must be whole blocks too "
        "(ASC404), so `x[n]` as an operand pins n as a copy of n elements does. Sites in different branches of "
        "an if are never compared: one run may take only one of them.",
    example="DataCopy(xLocal, xGm[off], tileLength);\n"
            "...\n"
            "DataCopy(yGm[off], yLocal, tileLength + 1);   // one of the two is cut short",
    instead="DataCopy(yGm[off], yLocal, tileLength);       // the tile the buffers were sized for\n"
            "DataCopyPad(yGm[off], yLocal, {1, (tileLength + 1) * 2, 0, 0, 0});  // or copy exact bytes",
)
def datacopy_length_never_aligned(ctx: CheckContext) -> None:
    from passes.verify.congruence import Form, Reader, solvable

    block = 32
    reader = Reader(block)

    # What must be whole 32-byte blocks: count-form DataCopy lengths (reported), and the unknown offsets of
    # UB sub-tensors that vector and DMA calls take (ASC404's grid, only compared against)
    sites: list[_GridSite] = []
    for op in module_index(ctx.module).of("data_copy"):
        if op.api.data != "DataCopy" or not op.overload.data.startswith("count_"):
            continue
        count, local = arg(op, "count"), _local_operand(op)
        size = tensor_elem_bytes(local) if local is not None else None
        if count is None or size is None:
            continue
        elements = reader.form(count)
        if elements is None or not elements.terms:
            continue  # a constant: ASC401's
        assert local is not None and isinstance(local.type, asc.LocalTensorType)
        what = _moves(elements, type_name(local.type.element_type))
        sites.append(_GridSite(op, elements, elements.scaled(size), f"DataCopy moves {what}",
                               f"another DataCopy moves {what}", f"this DataCopy moves {what}"))
    sites += _subtensor_offset_sites(ctx, reader)

    kept = []
    for site in sites:
        if site.reported and solvable([site.total], block) is False:
            values = "values" if len(site.elements.unknowns) > 1 else "value"
            ctx.report(site.op, f"{site.text}, which is not a multiple of 32 bytes for any {values} of "
                                f"{site.elements.unknown_names()}; the bytes past the last whole block are not "
                                f"copied")
        else:
            kept.append(site)
    conflicts: dict[int, list[int]] = {i: [] for i in range(len(kept))}
    for i, j in itertools.combinations(range(len(kept)), 2):
        a, b = kept[i], kept[j]
        if (a.reported or b.reported) and set(a.total.unknowns) & set(b.total.unknowns) \
                and _run_together(a.op, b.op) and solvable([a.total, b.total], block) is False:
            conflicts[i].append(j)
            conflicts[j].append(i)
    # Keep the sites that agree with the most others; report the copies among the rest against one they
    # disagree with (an offset that disagrees is left to ASC404)
    order = sorted((i for i in conflicts if conflicts[i]),
                   key=lambda i: (len(conflicts[i]), kept[i].elements.constant != 0, i))
    agreed: set[int] = set()
    for i in order:
        against = [j for j in conflicts[i] if j in agreed]
        if not against:
            agreed.add(i)
            continue
        site, other = kept[i], kept[against[0]]
        if site.reported:
            ctx.report(site.op, f"{site.text} while {other.other_text}: {_no_value_of(site.elements)} both "
                                f"multiples of 32 bytes, so one of them is silently cut short",
                       ctx.note_at(other.op, other.note_text))


@dataclass(frozen=True)
class _GridSite:
    """A value that must be a whole number of 32-byte blocks, read as a form (see congruence.py)."""

    op: asc.ApiCallOp
    elements: Form
    total: Form  # in bytes
    text: str  # what the site does, as the subject of a message
    other_text: str  # the same, as the site compared against
    note_text: str
    reported: bool = True


def _subtensor_offset_sites(ctx: CheckContext, reader: Reader) -> list[_GridSite]:
    """UB sub-tensors `t[off]` with an unknown offset, taken by a call whose operands must start on the
    32-byte grid: the offset in bytes must be whole blocks."""
    found = []
    for op, value, name in _grid_operands(ctx, _UB):
        t = value.type
        assert isinstance(t, asc.LocalTensorType)
        chain = sub_tensor_chain(value)
        size = elem_bytes(t.element_type)
        if chain is None or size is None:
            continue
        total = None
        for offset in chain[0]:
            form = reader.form(offset)
            if form is None:
                break
            total = form if total is None else total.plus(form)
        else:
            if total is None or not total.terms:
                continue  # a constant offset: ASC404's
            at = f"{name} starts {_moves(total, type_name(t.element_type))} into its tensor"
            found.append(_GridSite(op, total, total.scaled(size), f"{op.api.data}'s {at}",
                                   f"{op.api.data}'s {at}", f"this {op.api.data}'s {at}", reported=False))
    return found


def _moves(elements: Form, element: str) -> str:
    """`tileLength x float`, `(tileLength + 1) x float`."""
    return f"({elements.text()}) x {element}" if len(elements.terms) > 1 or elements.constant else \
        f"{elements.text()} x {element}"


def _no_value_of(form: Form) -> str:
    """`no value of n makes`, `no values of rows and cols make`."""
    if len(form.unknowns) > 1:
        return f"no values of {form.unknown_names()} make"
    return f"no value of {form.unknown_names()} makes"


def _run_together(a: Operation, b: Operation) -> bool:
    """Whether one run that reaches `a` also reaches `b` with the values it read at `a`: below the ops they
    share, both sit in the same arms of ifs on the same conditions (`if (fullTile)` twice on one stored
    bool), or in no if at all (a loop around both runs them in the same iteration)."""
    above_a = _ancestors(a)
    shared = next((p for p in _ancestors(b) if p in above_a), None)
    if shared is None:
        return False
    if isinstance(shared, scf.IfOp) and _region_in(a, shared) is not _region_in(b, shared):
        return False  # one in each arm
    guards_a, guards_b = _guards_below(a, shared), _guards_below(b, shared)
    return guards_a is not None and guards_a == guards_b


def _guards_below(op: Operation, ancestor: Operation) -> frozenset[tuple[int, int]] | None:
    """The ifs between `op` and `ancestor`, as (condition, arm) pairs: the condition by the identity of the
    value it reads through single-store locals; None when a condition has no such value."""
    guards = set()
    child = op
    parent = op.parent_op()
    while parent is not None and parent is not ancestor:
        if isinstance(parent, scf.IfOp):
            condition = source_of(parent.cond)
            if condition is None:
                return None
            guards.add((id(condition), 0 if child.parent_region() is parent.true_region else 1))
        child, parent = parent, parent.parent_op()
    return frozenset(guards)


def _region_in(op: Operation, ancestor: Operation) -> object:
    while op.parent_op() is not ancestor:
        op = op.parent_op()  # type: ignore[assignment]
    return op.parent_region()


def _ancestors(op: Operation) -> list[Operation]:
    found = []
    parent = op.parent_op()
    while parent is not None:
        found.append(parent)
        parent = parent.parent_op()
    return found
