"""IR -> simulator program: one walk over a kernel, emitting flat code.

Structured control flow (scf.if / scf.for / scf.while) becomes labels and branches, memref cells become
registers, C arrays slices of the scalar stack, and every op of the `ascendc` dialect one instruction whose
operands are named after the catalog overload's parameters (`call Add.count <T=f16> dst=h3 ...`). Python
gives no API any meaning here: the Rust side decodes each (API, overload) into its own instruction.
"""

from __future__ import annotations

import struct as _struct
from dataclasses import dataclass
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, math, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute

from ascendir.catalog import Catalog, load_catalog
from ascendir.catalog.model import Api, Overload, Param
from ascendir.chips import Chip, tposition_memory
from ascendir.dialects import ascendc as asc
from passes.sim import cube_ops, object_arrays, scalar_ops
from passes.sim.program import Instr, Label, Loc, ObjectDecl, Program
from passes.sim.program import Param as ProgramParam
from passes.sim.registers import (
    Array,
    Location,
    NotModelled,
    ProgramNotModelled,
    RegisterFile,
    Struct,
    element_type,
    is_handle_type,
    is_object_type,
    scalar_type,
)

# C scalar type names of the catalog -> program scalar types (registers hold raw bits of this width)
_C_SCALARS = {"bool": "i1", "int8_t": "i8", "uint8_t": "i8", "int16_t": "i16", "uint16_t": "i16",
              "int32_t": "i32", "uint32_t": "i32", "int64_t": "i64", "uint64_t": "i64", "half": "f16",
              "bfloat16_t": "bf16", "float": "f32", "double": "f64", "size_t": "i64"}
_MEMORY_SIZES = (("UB", "ub_size"), ("L1", "l1_size"), ("L0A", "l0a_size"), ("L0B", "l0b_size"),
                 ("L0C", "l0c_size"), ("BT", "bias_table_size"), ("FB", "fixpipe_buffer_size"))
_METHOD_RECEIVERS = {asc.TPipeType: "TPipe", asc.TQueType: "TQue", asc.TBufType: "TBuf",
                     asc.GlobalTensorType: "GlobalTensor", asc.LocalTensorType: "LocalTensor"}


def pick_kernel(module: ModuleOp, name: str | None = None) -> asc.KernelOp:
    kernels = [op for op in module.walk() if isinstance(op, asc.KernelOp)]
    if not kernels:
        raise ProgramNotModelled("the program has no kernel (no __global__ __aicore__ function)")
    if name is not None:
        for k in kernels:
            if k.sym_name.data == name:
                return k
        raise ProgramNotModelled(f"no kernel named '{name}' (kernels: {', '.join(k.sym_name.data for k in kernels)})")
    return kernels[0]



# arrays of tensors up to this many elements live in handle registers (see alloca)
_MAX_HANDLE_ARRAY = 64


@dataclass
class HandleArray:
    """An array of LocalTensor / GlobalTensor values: one handle register per element, row-major."""

    regs: list[str]
    shape: tuple[int, ...]


def _product(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n

class ProgramBuilder:
    """Builds the Program of one kernel. What one op needs and the program cannot express becomes that op's
    `unsupported` instruction (ASC958 if a core reaches it); `build()` raises ProgramNotModelled only where no
    program is left (no kernel, a parameter of no modelled type, a TPosition with no memory on the chip)."""

    def __init__(self, module: ModuleOp, chip: Chip, kernel: str | None = None,
                 catalog: Catalog | None = None) -> None:
        self.module = module
        self.chip = chip
        self.catalog = catalog or load_catalog()
        self.kernel = pick_kernel(module, kernel)
        self.regs = RegisterFile()
        self.values: dict[SSAValue, Location] = {}
        self.objects: dict[SSAValue, ObjectDecl] = {}
        self.code: list[Instr | Label] = []
        self.files: dict[str, int] = {}
        self.locs: dict[tuple[int, int, int], int] = {}
        self.labels = 0
        self.current_loc = -1
        self.enum_names: dict[str, str] = {}  # constant registers holding an enumerator -> its name
        # results of an op built as `unsupported` that have no storage (their type is what is not modelled):
        # value -> the construct; a use of one is unsupported in turn
        self.unmodelled: dict[SSAValue, str] = {}

    # ------------------------------------------------------------------ the program

    def build(self) -> Program:
        kernel = self.kernel
        params: list[ProgramParam] = []
        block = kernel.body.blocks[0]
        for i, arg in enumerate(block.args):
            name = arg.name_hint or f"arg{i}"
            if isinstance(arg.type, asc.GmPtrType):
                reg = self.regs.handle()
                params.append(ProgramParam(i, name, reg, "gm"))
            else:
                ty = scalar_type(arg.type)
                if ty is None:
                    raise ProgramNotModelled(f"kernel parameter '{name}' of type {arg.type}")
                reg = self.regs.scalar()
                params.append(ProgramParam(i, name, reg, ty))
            self.values[arg] = reg
        self.block(block)
        self.emit("ret", op=None)
        attrs = self.module.attributes
        block_dim = attrs.get("ascendc.block_dim")
        tiling_key = attrs.get("ascendc.tiling_key")
        memories = []
        for name, attr in _MEMORY_SIZES:
            size = getattr(self.chip, attr)
            if size:
                memories.append((name, int(size), int(self.chip.alignments.get(name, 32))))
        program = Program(
            kernel=kernel.sym_name.data, kernel_type=cube_ops.kernel_type(kernel), chip=self.chip.name,
            memories=memories, params=params, files=list(self.files),
            locs=[Loc(*key) for key in self.locs], objects=sorted(self.objects.values(), key=lambda o: o.index),
            consts=self.regs.consts, code=self.code, scalar_regs=self.regs.scalars,
            handle_regs=self.regs.handles, stack_bytes=self.regs.stack,
            block_dim=block_dim.value.data if isinstance(block_dim, IntegerAttr) else None,
            tiling_key=tiling_key.value.data if isinstance(tiling_key, IntegerAttr) else None,
        )
        statics = kernel.attributes.get("gm_statics")  # namespace-scope __gm__ arrays (ascendir/lower/gm_statics.py)
        if isinstance(statics, DictionaryAttr):
            program.statics = {k: bytes.fromhex(v.data) for k, v in statics.data.items() if isinstance(v, StringAttr)}
        return program

    # ------------------------------------------------------------------ emission helpers

    def loc_of(self, op: Operation | None) -> int:
        loc = op.location if op is not None else None
        if not isinstance(loc, FileLineColLoc):
            return self.current_loc
        file_index = self.files.setdefault(loc.filename.data, len(self.files))
        key = (file_index, loc.line.data, loc.column.data)
        return self.locs.setdefault(key, len(self.locs))

    def emit(self, opcode: str, operands: Sequence[str] = (), results: Sequence[str] = (),
             op: Operation | None = None, comment: str = "") -> Instr:
        instr = Instr(opcode, list(operands), list(results), self.loc_of(op) if op is not None else self.current_loc,
                      comment)
        self.code.append(instr)
        return instr

    def label(self, hint: str) -> str:
        self.labels += 1
        return f"L{self.labels}_{hint}"

    def place(self, name: str) -> None:
        self.code.append(Label(name))

    # ------------------------------------------------------------------ values

    def loc(self, value: SSAValue) -> Location:
        found = self.values.get(value)
        if found is None:
            if value in self.unmodelled:
                raise NotModelled(self.unmodelled[value])
            owner = value.owner
            what = owner.name if isinstance(owner, Operation) else "a block argument"
            raise NotModelled(f"a value of {what} used before the simulator program defines it")
        return found

    def reg(self, value: SSAValue) -> str:
        found = self.loc(value)
        if not isinstance(found, str):
            raise NotModelled(f"{type(found).__name__.lower()} value used where a register is needed")
        return found

    def typed(self, value: SSAValue) -> str:
        """`rN:type` for a scalar operand, `hN` for a handle, `oN` for an object."""
        if is_object_type(value.type):
            return self.obj(value)
        reg = self.reg(value)
        ty = scalar_type(value.type)
        return f"{reg}:{ty}" if ty is not None and reg.startswith("r") else reg

    def obj(self, value: SSAValue) -> str:
        decl = self.objects.get(value)
        if decl is None:
            if value in self.unmodelled:
                raise NotModelled(self.unmodelled[value])
            found = self.values.get(value)
            if isinstance(found, str) and found.startswith("o"):
                return found
            if isinstance(found, object_arrays.ObjectChoice):
                raise NotModelled("an object chosen at run time from an array of objects, used other than by "
                                  "TBuf::Get")
            raise NotModelled("an object (TPipe, TQue, TBuf) that is not one declared in the kernel")
        return f"o{decl.index}"

    def define(self, value: SSAValue) -> Location:
        """Fresh storage for an op result."""
        t = value.type
        if isinstance(t, asc.StructType | asc.TilingType):
            found: Location = Struct(t.type_name.data, {})
        else:
            found = self.regs.new_like(t, value=value)
        self.values[value] = found
        return found

    def move(self, dst: Location, src: Location, op: Operation | None) -> None:
        if isinstance(dst, str) and isinstance(src, str):
            if dst != src:
                self.emit("mov", [src], [dst], op)
        elif isinstance(dst, Struct) and isinstance(src, Struct):
            for name, (reg, ty) in src.fields.items():
                if not ty and not reg.startswith("r"):
                    # a C array (`s0:4:i8`) or tensor member (LoadData3DParamsV2's padList): no register to move;
                    # the copy names the same storage (a later store into the source array would show through)
                    dst.fields[name] = (reg, ty)
                    continue
                if name not in dst.fields:
                    dst.fields[name] = (self.regs.scalar(), ty)
                if dst.fields[name][0] != reg:
                    self.emit("mov", [reg], [dst.fields[name][0]], op)
        else:
            raise NotModelled(f"moving a {type(src).__name__} into a {type(dst).__name__}")

    def parallel_move(self, dsts: Sequence[Location], srcs: Sequence[Location], op: Operation | None) -> None:
        """dst_i = src_i for all i at once (a source may be another pair's destination)."""
        dst_regs = {d for d in dsts if isinstance(d, str)}
        clash = any(isinstance(s, str) and s in dst_regs and s != d for d, s in zip(dsts, srcs))
        if not clash:
            for d, s in zip(dsts, srcs):
                self.move(d, s, op)
            return
        temps: list[Location] = []
        for s in srcs:
            if isinstance(s, str):
                t = self.regs.handle() if s.startswith("h") else self.regs.scalar()
                self.emit("mov", [s], [t], op)
                temps.append(t)
            else:
                temps.append(s)
        for d, t in zip(dsts, temps):
            self.move(d, t, op)

    # ------------------------------------------------------------------ walking

    def block(self, block: Block) -> None:
        for op in block.ops:
            self.op(op)

    def op(self, op: Operation) -> None:
        """Emits `op`; if it cannot be expressed, what it emitted is dropped for one `unsupported` instruction at
        its location, so a construct on a path the launch never takes does not refuse the kernel (issue 28).
        A nested op fails on its own: a region's failure never reaches its scf op."""
        saved = self.current_loc
        self.current_loc = self.loc_of(op)
        mark = len(self.code)
        try:
            self._op(op)
        except ProgramNotModelled:
            raise
        except NotModelled as exc:
            del self.code[mark:]  # a half-emitted op (an scf.if with its branch but no label) would not assemble
            self.unsupported(op, str(exc))
        finally:
            self.current_loc = saved

    def unsupported(self, op: Operation, what: str) -> None:
        """`op` as an instruction that stops the core, naming `what`; its results get storage (zeroed there) so
        that later instructions build, or, where their type is the thing not modelled, are `unmodelled`."""
        results: list[str] = []
        for value in op.results:
            found = self.values.get(value)
            if found is None:
                try:
                    found = self.define(value)
                except NotModelled:
                    self.unmodelled[value] = what
                    continue
            if isinstance(found, str) and found[:1] in ("r", "h"):
                results.append(found)
            elif isinstance(found, Struct):
                results += [reg for reg, _ in found.fields.values()]
        self.emit("unsupported", ['"' + what.replace('"', "'") + '"'], results, op)

    def _op(self, op: Operation) -> None:  # noqa: C901  (one dispatch over the op kinds)
        if isinstance(op, arith.ConstantOp):
            self.constant(op)
        elif op.dialect_name() in ("arith", "math"):
            scalar_ops.emit(self, op)
        elif isinstance(op, scf.IfOp):
            self.scf_if(op)
        elif isinstance(op, scf.ForOp):
            self.scf_for(op)
        elif isinstance(op, scf.WhileOp):
            self.scf_while(op)
        elif isinstance(op, scf.YieldOp | scf.ConditionOp):
            raise NotModelled(f"{op.name} outside the region it ends")
        elif isinstance(op, memref.AllocaOp):
            self.alloca(op)
        elif isinstance(op, memref.LoadOp):
            self.memref_load(op)
        elif isinstance(op, memref.StoreOp):
            self.memref_store(op)
        elif isinstance(op, UnrealizedConversionCastOp):
            for src, res in zip(op.operands, op.results):
                self.values[res] = self.loc(src)
        elif isinstance(op, asc.ReturnOp):
            self.emit("ret", op=op)
        elif op.dialect_name() == "ascendc":
            from passes.sim import ascendc_ops

            ascendc_ops.emit(self, op)
        else:
            raise NotModelled(f"the op {op.name}")

    def constant(self, op: arith.ConstantOp) -> None:
        ty = scalar_type(op.result.type)
        value = op.value
        if ty is None:
            raise NotModelled(f"a constant of type {op.result.type}")
        if isinstance(value, IntegerAttr):
            self.values[op.result] = self.regs.const(ty, str(value.value.data))
        elif isinstance(value, FloatAttr):
            self.values[op.result] = self.regs.const(ty, float_bits(value.value.data, ty), repr(value.value.data))
        else:
            raise NotModelled(f"a constant {value}")

    # ------------------------------------------------------------------ control flow

    def scf_if(self, op: scf.IfOp) -> None:
        results = [self.define(r) for r in op.results]
        cond = self.reg(op.cond)
        else_label, end_label = self.label("else"), self.label("endif")
        has_else = bool(op.false_region.blocks) and bool(list(op.false_region.blocks[0].ops))
        self.emit("brz", [cond, else_label if has_else else end_label], op=op)
        self.region_into(op.true_region.blocks[0], results, op)
        if has_else:
            self.emit("br", [end_label], op=op)
            self.place(else_label)
            self.region_into(op.false_region.blocks[0], results, op)
        self.place(end_label)

    def region_into(self, block: Block, results: list[Location], owner: Operation) -> None:
        """Runs a region's block and moves what its scf.yield yields into `results`."""
        ops = list(block.ops)
        body = ops[:-1] if ops and isinstance(ops[-1], scf.YieldOp) else ops
        for inner in body:
            self.op(inner)
        if ops and isinstance(ops[-1], scf.YieldOp):
            self.parallel_move(results, [self.loc(v) for v in ops[-1].operands], ops[-1])

    def scf_for(self, op: scf.ForOp) -> None:
        body = op.body.blocks[0]
        iv, *iter_args = body.args
        ty = scalar_type(iv.type) or "i64"
        iv_reg = self.define(iv)
        assert isinstance(iv_reg, str)
        carried = [self.define(a) for a in iter_args]
        for res, reg in zip(op.results, carried):
            self.values[res] = reg
        self.emit("mov", [self.reg(op.lb)], [iv_reg], op)
        self.parallel_move(carried, [self.loc(v) for v in op.iter_args], op)
        ub, step = self.reg(op.ub), self.reg(op.step)
        head, end = self.label("for"), self.label("endfor")
        self.place(head)
        more = self.regs.scalar()
        self.emit(f"cmpi.slt.{ty}", [iv_reg, ub], [more], op)
        self.emit("brz", [more, end], op=op)
        self.region_into(body, carried, op)
        self.emit(f"addi.{ty}", [iv_reg, step], [iv_reg], op)
        self.emit("br", [head], op=op)
        self.place(end)

    def scf_while(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.blocks[0], op.after_region.blocks[0]
        before_regs = [self.define(a) for a in before.args]
        after_regs = [self.define(a) for a in after.args]
        for res, reg in zip(op.results, after_regs):
            self.values[res] = reg
        self.parallel_move(before_regs, [self.loc(v) for v in op.arguments], op)
        head, end = self.label("while"), self.label("endwhile")
        self.place(head)
        ops = list(before.ops)
        cond_op = ops[-1]
        if not isinstance(cond_op, scf.ConditionOp):
            raise NotModelled("scf.while whose first region does not end in scf.condition")
        for inner in ops[:-1]:
            self.op(inner)
        self.parallel_move(after_regs, [self.loc(v) for v in cond_op.args], cond_op)
        self.emit("brz", [self.reg(cond_op.condition), end], op=cond_op)
        self.region_into(after, before_regs, op)
        self.emit("br", [head], op=op)
        self.place(end)

    # ------------------------------------------------------------------ memref cells and arrays

    def alloca(self, op: memref.AllocaOp) -> None:
        t = op.memref.type
        assert isinstance(t, MemRefType)
        elem = t.element_type
        shape = tuple(int(d) for d in t.get_shape())
        if shape:
            ty = scalar_type(elem)
            if ty is None and is_handle_type(elem) and 0 < _product(shape) <= _MAX_HANDLE_ARRAY:
                # `LocalTensor<half> l1A[STAGES]` (catlass's ping-pong buffers): one handle register per element
                self.values[op.memref] = HandleArray([self.regs.handle() for _ in range(_product(shape))], shape)
                return
            if ty is None and object_arrays.declare(self, op.memref, elem, shape, op):
                return  # `TBuf<> sumBuf[2]`: one object per element
            if ty is None:
                raise NotModelled(f"an array of {elem}")
            self.values[op.memref] = self.regs.array(_array_elem(ty), shape)
            return
        self.define_cell(op.memref, elem)

    def define_cell(self, ref: SSAValue, elem: Attribute) -> None:
        if isinstance(elem, asc.StructType):
            fields = self.struct_defaults(elem.type_name.data)
            self.values[ref] = Struct(elem.type_name.data, fields)
        elif isinstance(elem, asc.TilingType):
            self.values[ref] = Struct(elem.type_name.data, {})  # a tiling struct: fields as stores give them
        elif is_object_type(elem):
            self.values[ref] = "o?"  # set by the first store
        else:
            self.values[ref] = self.regs.new_like(elem, value=ref)

    def memref_load(self, op: memref.LoadOp) -> None:
        cell = self.loc(op.memref)
        if isinstance(cell, HandleArray):
            result = self.define(op.res)
            assert isinstance(result, str)
            fixed = self.constant_index(cell, op.indices)
            if fixed is not None:
                self.emit("mov", [cell.regs[fixed]], [result], op)
                return
            # a run-time index (`l1A[listId]`): the element whose position it is, by selects over them all
            index = self.array_index(cell, op.indices, op)  # type: ignore[arg-type]
            self.emit("mov", [cell.regs[0]], [result], op)
            for i, reg in enumerate(cell.regs[1:], start=1):
                hit = self.regs.scalar()
                self.emit("cmpi.eq.i64", [index, self.regs.const("i64", str(i))], [hit], op)
                self.emit("select", [hit, reg, result], [result], op)
            return
        if isinstance(cell, object_arrays.ObjectArray):
            object_arrays.load(self, cell, op)
            return
        if isinstance(cell, Array):
            result = self.define(op.res)
            assert isinstance(result, str)
            index = self.array_index(cell, op.indices, op)
            self.emit(f"ld.stack.{cell.elem}", [f"s{cell.offset}:{cell.size}:{cell.elem}", index], [result], op)
            return
        if cell == "o?":
            raise NotModelled("an object read from a variable before anything was stored in it")
        if isinstance(cell, str) and cell.startswith("o"):
            self.values[op.res] = cell
            return
        result = self.define(op.res)
        self.move(result, cell, op)

    def memref_store(self, op: memref.StoreOp) -> None:
        cell = self.loc(op.memref)
        if isinstance(cell, HandleArray):
            self.store_handle(cell, op.indices, self.reg(op.value), op)
            return
        if isinstance(cell, object_arrays.ObjectArray):
            raise NotModelled("an object stored into an array of objects")
        if isinstance(cell, Array):
            index = self.array_index(cell, op.indices, op)
            self.emit(f"st.stack.{cell.elem}", [f"s{cell.offset}:{cell.size}:{cell.elem}", index,
                                                 self.reg(op.value)], op=op)
            return
        if isinstance(cell, str) and cell.startswith("o"):
            self.values[op.memref] = self.obj(op.value)
            return
        self.move(cell, self.loc(op.value), op)

    def store_handle(self, cell: HandleArray, indices: Sequence[SSAValue], value: str, op: Operation) -> None:
        """`cell[indices] = value` for an array of tensor handles (a run-time index selects over every element)."""
        fixed = self.constant_index(cell, indices)
        if fixed is not None:
            self.emit("mov", [value], [cell.regs[fixed]], op)
            return
        index = self.array_index(cell, indices, op)  # type: ignore[arg-type]
        for i, reg in enumerate(cell.regs):
            hit = self.regs.scalar()
            self.emit("cmpi.eq.i64", [index, self.regs.const("i64", str(i))], [hit], op)
            self.emit("select", [hit, value, reg], [reg], op)

    @staticmethod
    def constant_index(arr: HandleArray, indices: Sequence[SSAValue]) -> int | None:
        """The linear position of `arr[i][j]...` when every index is an arith.constant, else None."""
        linear = 0
        for dim, idx in zip(arr.shape, indices):
            owner = idx.owner
            if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
                return None
            i = owner.value.value.data
            if not 0 <= i < dim:
                raise NotModelled(f"an index {i} outside an array of {dim} tensors")
            linear = linear * dim + i
        return linear if len(indices) == len(arr.shape) else None

    def array_index(self, arr: Array, indices: Sequence[SSAValue], op: Operation) -> str:
        """The linear element index of `arr[i][j]...` as an i64 register."""
        if len(indices) != len(arr.shape):
            raise NotModelled("an array access with the wrong number of indices")
        linear: str | None = None
        for dim, idx in zip(arr.shape, indices):
            i = self.as_i64(idx, op)
            if linear is None:
                linear = i
            else:
                scaled = self.regs.scalar()
                self.emit("muli.i64", [linear, self.regs.const("i64", str(dim))], [scaled], op)
                summed = self.regs.scalar()
                self.emit("addi.i64", [scaled, i], [summed], op)
                linear = summed
        return linear or self.regs.const("i64", "0")

    def as_i64(self, value: SSAValue, op: Operation) -> str:
        ty = scalar_type(value.type)
        reg = self.reg(value)
        if ty == "i64":
            return reg
        if ty is None or ty.startswith(("f", "b")):
            raise NotModelled(f"an index of type {value.type}")
        out = self.regs.scalar()
        self.emit(f"extsi.{ty}.i64", [reg], [out], op)
        return out

    # ------------------------------------------------------------------ structs

    def struct_defaults(self, name: str, fresh: bool = True) -> dict[str, tuple[str, str]]:
        """A struct's catalogued fields at their default values (0 where the catalog gives none); `fresh`:
        in registers of their own (a cell's, which stores write), else the constants' registers."""
        found = self.catalog.struct(name)
        fields: dict[str, tuple[str, str]] = {}
        if found is None:
            return fields
        for f in found.fields:
            if "[" in f.c_type or "<" in f.c_type:
                continue  # an array or tensor member: only the value given at construction exists
            ty = _C_SCALARS.get(f.c_type.replace("const ", "").strip(), "i64")
            const = self.regs.const(ty, _default_value(f.default, ty))
            if fresh:
                reg = self.regs.scalar()
                self.emit("mov", [const], [reg])
                fields[f.name] = (reg, ty)
            else:
                fields[f.name] = (const, ty)
        return fields

    # ------------------------------------------------------------------ catalog calls

    def api_of(self, op: asc.ApiCallOp) -> tuple[Api, Overload] | None:
        name, ov_id = op.api.data, op.overload.data
        candidates = [a for a in self.catalog.apis if a.name == name and a.family == op.FAMILY]
        if op.args and candidates and any(a.receiver for a in candidates):
            recv = next((r for t, r in _METHOD_RECEIVERS.items() if isinstance(op.args[0].type, t)), None)
            preferred = [a for a in candidates if a.receiver == recv]
            candidates = preferred or candidates
        for api in candidates:
            ov = api.overload(ov_id)
            if ov is not None:
                return api, ov
        return None

    def call_operands(self, op: asc.ApiCallOp, api: Api, ov: Overload) -> list[str]:
        args = list(op.args)
        out: list[str] = []
        if api.receiver is not None and args:
            out.append(f"self={self.operand(args.pop(0))}")
        for param, arg in zip(ov.params, args):
            out += self.param_operands(param, arg)
        return out

    def operand(self, value: SSAValue) -> str:
        if is_object_type(value.type):
            return self.obj(value)
        found = self.loc(value)
        if isinstance(found, Array):
            return found.operand()
        if isinstance(found, Struct):
            raise NotModelled("a struct where one value is expected")
        return self.typed(value)

    def param_operands(self, param: Param, arg: SSAValue) -> list[str]:
        if is_object_type(arg.type):  # a TPipe or Matmul object passed by pointer (REGIST_MATMUL_OBJ)
            return [f"{param.name}={self.obj(arg)}"]
        found = self.loc(arg)
        if isinstance(found, Struct):
            if not found.fields:
                return [f"{param.name}=tiling:{found.type_name}"]  # a tiling struct whose fields are not known here
            return [f"{param.name}.{name}={reg}:{ty}" if ty else f"{param.name}.{name}={reg}"
                    for name, (reg, ty) in found.fields.items()]
        if isinstance(found, Array):
            return [f"{param.name}={found.operand()}"]
        if isinstance(arg.type, MemRefType):  # an output parameter (`T&`): the call stores into the cell
            reg = found
            ty = scalar_type(arg.type.element_type)
            return [f"{param.name}=&{reg}:{ty}" if ty else f"{param.name}=&{reg}"]
        if isinstance(found, str) and found in self.enum_names:
            return [f"{param.name}={self.enum_names[found]}"]
        return [f"{param.name}={self.typed(arg)}"]

    def template_operands(self, op: asc.ApiCallOp, api: Api, ov: Overload) -> str:
        """`<T=f16,event=MTE2_V>`: explicit template arguments and type variables bound by tensor operands."""
        bound: dict[str, str] = {}
        explicit = op.template_args.data if op.template_args is not None else ()
        for tp, value in zip(ov.type_params, explicit):
            text = _template_value(value)
            if text is not None:
                bound[tp.name] = text
        if api.receiver is not None and op.args and "T" not in bound:
            elem = getattr(op.args[0].type, "element_type", None)  # a method: its object's element type
            if elem is not None:
                try:
                    bound["T"] = element_type(elem)
                except NotModelled:
                    pass
        args = list(op.args)[1 if api.receiver is not None and op.args else 0:]
        for param, arg in zip(ov.params, args):
            if param.elem and ov.type_param(param.elem) is not None and param.elem not in bound:
                elem = getattr(arg.type, "element_type", None)
                if elem is not None:
                    try:
                        bound[param.elem] = element_type(elem)
                    except NotModelled:
                        pass
        if not bound:
            return ""
        return "<" + ",".join(f"{k}={v}" for k, v in bound.items()) + ">"

    def memory_of(self, position: str) -> str:
        try:
            return tposition_memory(position, self.chip.npu_arch)
        except ValueError:
            # where a queue's or buffer's memory is: the layout of every buffer hangs on it, so no program is left
            raise ProgramNotModelled(f"TPosition {position} (no documented memory on {self.chip.name})") from None


def _array_elem(ty: str) -> str:
    return "bool" if ty == "i1" else ty


def _default_value(text: str | None, ty: str) -> str:
    if text is None:
        return "0"
    t = text.strip().lower().rstrip("ulf")
    if t in ("true", "false"):
        return "1" if t == "true" else "0"
    try:
        if ty.startswith(("f", "b")):
            return float_bits(float(t), ty)
        return str(int(t, 0))
    except ValueError:
        return "0"


def float_bits(value: float, ty: str) -> str:
    """The bit pattern of `value` rounded to float type `ty`, as hex (exact, unlike decimal text)."""
    if ty == "f64":
        return "0x" + _struct.pack(">d", value).hex()
    if ty == "f32":
        return f"0x{int(np.float32(value).view(np.uint32)):08x}"
    if ty == "f16":
        return f"0x{int(np.float16(value).view(np.uint16)):04x}"
    if ty == "bf16":  # round to nearest even from f32
        bits = int(np.float32(value).view(np.uint32))
        if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
            return "0x7fc0"
        bits += 0x7FFF + ((bits >> 16) & 1)
        return f"0x{(bits >> 16) & 0xFFFF:04x}"
    raise NotModelled(f"a float constant of type {ty}")


def _template_value(value: Attribute) -> str | None:
    if isinstance(value, StringAttr):
        return value.data.rsplit("::", 1)[-1]
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    if isinstance(value, IntAttr):  # an integer template argument (CrossCoreSetFlag<2, PIPE_FIX>)
        return str(value.data)
    if isinstance(value, ArrayAttr):
        return None
    if isinstance(value, TypeAttribute):
        try:
            return element_type(value)
        except NotModelled:
            return None
    return None
