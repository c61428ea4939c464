"""IR -> simulator program: one walk over a kernel, emitting flat code.

Structured control flow (scf.if / scf.for / scf.while) becomes labels and branches, memref cells become
registers, C arrays slices of the scalar stack, and every op of the `ascendc` dialect one instruction whose
operands are named after the catalog overload's parameters (`call Add.count <T=f16> dst=h3 ...`). Python
gives no API any meaning here: the Rust side decodes each (API, overload) into its own instruction.

ProgramBuilder (this module) holds the program, the emission helpers, the values' storage and the walk that
dispatches each op; it inherits the rest:

- builder_control_flow.py (ControlFlowEmission): scf.if / scf.for / scf.while as labels and branches;
- builder_cells.py (CellEmission): memref cells and C arrays (registers, stack slices, arrays of tensor
  handles), loads, stores and index arithmetic;
- builder_calls.py (CatalogCallEmission): catalog API calls: the overload an op names, its operands and
  template arguments, catalogued structs' default fields;
- constant_bits.py: the bit patterns of float constants in the program text (float_bits).

The ops of the dialects are emitted by scalar_ops.py (arith, math), ascendc_ops.py (ascendc) and
object_arrays.py (arrays of TBuf objects), functions of the builder.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Block, Operation, SSAValue

from ascendir.catalog import Catalog, load_catalog
from ascendir.chips import Chip, tposition_memory
from ascendir.dialects import ascendc as asc
from passes.sim import cube_ops, object_arrays, scalar_ops
from passes.sim.builder_calls import CatalogCallEmission
from passes.sim.builder_cells import CellEmission
from passes.sim.builder_control_flow import ControlFlowEmission
from passes.sim.constant_bits import float_bits as float_bits
from passes.sim.program import Instr, Label, Loc, ObjectDecl, Program
from passes.sim.program import Param as ProgramParam
from passes.sim.registers import (
    Location,
    NotModelled,
    ProgramNotModelled,
    RegisterFile,
    Struct,
    is_object_type,
    scalar_type,
)

# Defined in the modules this one was split into; other modules import them from here.
from passes.sim.builder_cells import HandleArray as HandleArray


_MEMORY_SIZES = (("UB", "ub_size"), ("L1", "l1_size"), ("L0A", "l0a_size"), ("L0B", "l0b_size"),
                 ("L0C", "l0c_size"), ("BT", "bias_table_size"), ("FB", "fixpipe_buffer_size"))


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


class ProgramBuilder(ControlFlowEmission, CellEmission, CatalogCallEmission):
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

    def memory_of(self, position: str) -> str:
        try:
            return tposition_memory(position, self.chip.npu_arch)
        except ValueError:
            # where a queue's or buffer's memory is: the layout of every buffer hangs on it, so no program is left
            raise ProgramNotModelled(f"TPosition {position} (no documented memory on {self.chip.name})") from None
