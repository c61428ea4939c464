"""fold-tiling: replaces reads of the tiling data with the values the host computed for given shapes.

After `ascendir.lower.host` evaluates TilingFunc for concrete input shapes, every
`ascendc.tiling_field` the kernel reads has a known value, and every `ascendc.tiling_key_is k` a known
answer, and GetBlockNum() the launch's blockDim. Folding them turns loop bounds, buffer lengths and copy sizes into constants, which is what lets
later checks (coverage, capacity, alignment) reason concretely; `canonicalize` then folds what follows.
Fields the host did not set stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (ArrayAttr, Float32Type, FloatAttr, IndexType, IntegerAttr, IntegerType, ModuleOp,
                                   StringAttr)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from ascendir.dialects import ascendc as asc
from ascendir.lower.ctypes import signless_value

TilingValue = int | float | list[int | float]


@dataclass(frozen=True)
class FoldTilingPass(ModulePass):
    name = "fold-tiling"

    fields: Mapping[str, TilingValue] = field(default_factory=dict)
    tiling_key: int | None = None
    block_dim: int | None = None
    # an array field read at an index known only at run time (`td.tensorStartList[blockIdx]`) becomes a read of
    # a local array holding the host's values, filled at the kernel's entry (for the simulator; the checks keep
    # such a read as an unknown value)
    tables: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # what the launch looks like travels with the module, for checks that need the core count
        if self.block_dim is not None:
            op.attributes["ascendc.block_dim"] = IntegerAttr(self.block_dim, 64)
        if self.tiling_key is not None:
            op.attributes["ascendc.tiling_key"] = IntegerAttr(self.tiling_key, 64)
        tables: dict[tuple[int, str, Attribute], SSAValue] = {}
        # the struct types the tiling data is read as: the kernel's tiling structs and the struct-valued fields
        # inside them. A field read of any other struct (a local `MatCoord tdim` whose fields m, k, n share names
        # with the tiling's: ops-nn transpose_batch_mat_mul) is no tiling read, whatever its field is called
        tiling_types = {t.result.type.type_name.data for t in op.walk()
                        if isinstance(t, asc.GetTilingDataOp | asc.TilingFieldOp)
                        and isinstance(t.result.type, asc.TilingType)}
        for target in list(op.walk()):
            if isinstance(target, asc.TilingFieldOp) and not _reads_tiling(target, tiling_types):
                continue
            if isinstance(target, asc.GetTilingDataOp) and target.result.type.type_name.data == "TCubeTiling":
                self._fold_whole(target)
            elif isinstance(target, asc.TilingFieldOp) and isinstance(target.result.type, asc.TilingType):
                self._fold_struct(target)
            elif isinstance(target, asc.TilingFieldOp):
                value = self._field_value(target)
                if value is not None:
                    _replace_with_constant(target, value, target.result.type)
                elif self.tables and target.index is not None:
                    self._fold_indexed(target, tables)
            elif isinstance(target, asc.TilingKeyIsOp) and self.tiling_key is not None:
                _replace_with_constant(target, int(target.key.value.data == self.tiling_key), target.result.type)
            elif self.block_dim is not None and isinstance(target, asc.ApiCallOp) and target.FAMILY == "system" \
                    and target.api.data == "GetBlockNum" and not target.args and target.results:
                # every core of the launch sees the blockDim the host set
                _replace_with_constant(target, self.block_dim, target.results[0].type)

    def _fold_whole(self, op: asc.GetTilingDataOp) -> None:
        """The tiling data as a whole TCubeTiling (`CopyTiling(&tiling, tilingGm)` word by word, then
        REGIST_MATMUL_OBJ(..., &tiling)): where the struct itself is used rather than read field by field, the
        struct built from the values the host (or the caller) set for its scalar fields."""
        known = {name: value for name, value in self.fields.items()
                 if "." not in name and isinstance(value, int | float)}
        users = [use for use in list(op.result.uses) if not isinstance(use.operation, asc.TilingFieldOp)]
        if not known or not users:
            return
        block = op.parent_block()
        assert block is not None
        names: list[str] = []
        values: list[SSAValue] = []
        anchor = op.next_op
        for name, value in known.items():
            t: Attribute = IntegerType(32) if isinstance(value, int) else Float32Type()
            const = _constant(value, t)
            const.location = op.location
            block.insert_op_before(const, anchor) if anchor is not None else block.add_op(const)
            names.append(name)
            values.append(const.result)
        init = asc.StructInitOp.create(operands=values, properties={"fields": ArrayAttr([StringAttr(n) for n in names])},
                                       result_types=[op.result.type])
        init.location = op.location
        block.insert_op_before(init, anchor) if anchor is not None else block.add_op(init)
        for use in users:
            use.operation.operands[use.index] = init.results[0]

    def _fold_struct(self, op: asc.TilingFieldOp) -> None:
        """A struct-valued field (`td.cubeTilingData`, a TCubeTiling passed whole to the Matmul object): the
        struct built from the values the host set for its scalar fields."""
        if op.index is not None:
            return
        prefix = op.field.data + "."
        known = {name[len(prefix):]: value for name, value in self.fields.items()
                 if name.startswith(prefix) and "." not in name[len(prefix):] and isinstance(value, int | float)}
        if not known:
            scalar = self._field_value(op)
            if isinstance(scalar, int | float) and isinstance(op.result.type, asc.TilingType) and \
                    op.result.type.type_name.data == "?":
                # a field of a struct the kernel does not define, passed straight to an API, was kept as a possible
                # struct; the host set a number for it: it is that number
                _replace_with_constant(op, scalar, IntegerType(32) if isinstance(scalar, int) else Float32Type())
            return
        block = op.parent_block()
        assert block is not None
        names: list[str] = []
        values: list[SSAValue] = []
        for name, value in known.items():
            t: Attribute = IntegerType(32) if isinstance(value, int) else Float32Type()
            const = _constant(value, t)
            const.location = op.location
            block.insert_op_before(const, op)
            names.append(name)
            values.append(const.result)
        init = asc.StructInitOp.create(operands=values, properties={"fields": ArrayAttr([StringAttr(n) for n in names])},
                                       result_types=[op.result.type])
        init.location = op.location
        block.insert_op_before(init, op)
        op.results[0].replace_all_uses_with(init.results[0])
        op.detach()
        op.erase()

    def _fold_indexed(self, op: asc.TilingFieldOp, tables: dict[tuple[int, str, Attribute], SSAValue]) -> None:
        """`td.list[i]` with `i` known at run time: a load from a local array of the field's values."""
        values = _flat(self.fields.get(op.field.data))
        t = op.result.type
        kernel = _enclosing_kernel(op)
        if not isinstance(values, list) or not values or kernel is None or not isinstance(t, IntegerType | Float32Type):
            return
        entry = kernel.regions[0].blocks[0]
        key = (id(kernel), op.field.data, t)
        table = tables.get(key)
        if table is None:
            alloca = memref.AllocaOp.get(t, shape=[len(values)])
            fill: list[Operation] = [alloca]
            for i, v in enumerate(values):
                const, at = _constant(v, t), arith.ConstantOp(IntegerAttr(i, IndexType()))
                fill += [const, at, memref.StoreOp.get(const.result, alloca.memref, [at.result])]
            for new in fill:
                new.location = op.location
            first = entry.first_op
            if first is None:
                entry.add_ops(fill)
            else:
                entry.insert_ops_before(fill, first)
            table = tables[key] = alloca.memref
        block = op.parent_block()
        assert block is not None and op.index is not None
        index: SSAValue = op.index
        ops: list[Operation] = []
        if not isinstance(index.type, IndexType):
            cast = arith.IndexCastOp(index, IndexType())
            ops.append(cast)
            index = cast.result
        load = memref.LoadOp.get(table, [index])
        ops.append(load)
        for new in ops:
            new.location = op.location
        block.insert_ops_before(ops, op)
        op.results[0].replace_all_uses_with(load.res)
        op.detach()
        op.erase()

    def _field_value(self, op: asc.TilingFieldOp) -> int | float | None:
        value = self.fields.get(op.field.data)
        if value is None:
            value = self.fields.get(op.field.data.rsplit(".", 1)[-1]) if "." in op.field.data else None
        if isinstance(value, list):
            value = _flat(value)
            index = op.index.owner if op.index is not None else None
            if not isinstance(index, arith.ConstantOp) or not isinstance(index.value, IntegerAttr):
                return None
            i = index.value.value.data
            return value[i] if 0 <= i < len(value) else None
        return value if op.index is None else None


def _flat(value: Any) -> Any:
    """An array field's values in storage order: an array of arrays given as nested lists (`[[1, 2], [3, 4]]`
    for `int64_t a[2][2]`) row by row, as C lays it out and the lowering indexes it (flat positions)."""
    if not isinstance(value, list | tuple):
        return value
    return [x for v in value for x in (_flat(v) if isinstance(v, list | tuple) else [v])]


def _reads_tiling(op: asc.TilingFieldOp, tiling_types: set[str]) -> bool:
    read = op.tiling.type
    if not isinstance(read, asc.TilingType) or read.type_name.data == "?":
        return True  # a struct the lowering could not name: read by field name, as before
    return read.type_name.data in tiling_types


def _enclosing_kernel(op: Operation) -> asc.KernelOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, asc.KernelOp):
        parent = parent.parent_op()
    return parent


def _constant(value: float, t: Attribute) -> arith.ConstantOp:
    if isinstance(t, IntegerType):
        return arith.ConstantOp(IntegerAttr(signless_value(int(value), t.width.data), t))
    return arith.ConstantOp(FloatAttr(float(value), t))  # type: ignore[arg-type]


def _replace_with_constant(op: Operation, value: float, t: Attribute) -> None:
    const = _constant(value, t)
    const.location = op.location
    block = op.parent_block()
    assert block is not None
    block.insert_op_before(const, op)
    op.results[0].replace_all_uses_with(const.results[0])
    op.detach()
    op.erase()
