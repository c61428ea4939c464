"""API misuse (ASC5xx): calls the vendor compiler or the CPU-debug checks reject, or that misbehave."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc, Float64Type, IntegerType, ModuleOp
from xdsl.ir import Attribute, Operation, Region, SSAValue

from ascendir.catalog import Api, Catalog, Overload
from ascendir.chips import tposition_memory
from ascendir.dialects import ascendc as asc
from ascendir.lower.ctypes import scalar_from_element, scalar_named
from frontend import ast as A
from frontend.diagnostics import Note, Severity, as_span
from frontend.readers import HEADER_SUFFIXES
from passes.verify.ast_index import ast_index
from passes.verify.ir import api_calls_of, arg, constant_of, ops_of, ops_of_kind, walk_of
from passes.verify.key_guard import BUILD_ACCEPTS
from passes.verify.project import cached
from passes.verify.rules import CheckContext, rule

if TYPE_CHECKING:
    from frontend.pipeline import Program as FrontendProgram

# Parameters that carry a repeat count in the vector APIs' mask forms (uint8 on the hardware).
_REPEAT_PARAMS = ("repeatTime", "repeatTimes", "repeat")


@rule(
    "ASC501", "repeat-times-over-255", "api",
    summary="A vector instruction's repeat count is a constant above 255.",
    why="The repeat count is an 8-bit field of the vector instruction: 256 wraps to 0 and the call does "
        "nothing (or far less than meant); the CPU-debug build aborts on it. Longer runs must be split "
        "into several calls or use the count form, which splits them itself.",
    example="Add(dst, src0, src1, 64, 300, {1, 1, 1, 8, 8, 8});   // 300 repeats of 64 floats",
    instead="Add(dst, src0, src1, 300 * 64);                      // count form: the API splits the repeats",
)
def repeat_times_over_255(ctx: CheckContext) -> None:
    for op in api_calls_of(ctx):
        for name in _REPEAT_PARAMS:
            value = constant_of(arg(op, name))
            if isinstance(value, int) and value > 255:
                ctx.report(op, f"{op.api.data} repeats {value} times; the repeat count is at most 255")


# ----------------------------------------------------------------------------------------------------
# shared helpers: the catalog entry of a call, its type bindings, element type names
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Call:
    """An API-call op with its catalog entry, overload and the operand of each parameter."""

    op: asc.ApiCallOp
    api: Api
    overload: Overload
    offset: int  # 1 when args[0] is the receiver

    def operand(self, index: int) -> SSAValue | None:
        i = index + self.offset
        return self.op.args[i] if i < len(self.op.args) else None

    def params(self) -> Iterator[tuple[int, SSAValue]]:
        for i in range(len(self.overload.params)):
            value = self.operand(i)
            if value is not None:
                yield i, value


@lru_cache(maxsize=4096)
def _entry(catalog: Catalog, name: str, overload: str, family: str) -> tuple[Api, Overload, int] | None:
    for api in catalog.apis:
        if api.name == name and api.family == family:
            found = api.overload(overload)
            if found is not None:
                return api, found, int(api.receiver is not None)
    return None


def _calls(ctx: CheckContext, *families: str) -> Iterator[_Call]:
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    found = store.get("api_misuse.calls")
    if found is None:  # once per run, kept with the run (not in a module-level cache that outlives it)
        found = store["api_misuse.calls"] = []
        for op in api_calls_of(ctx):
            entry = _entry(ctx.catalog, op.api.data, op.overload.data, op.FAMILY) if op.overload.data else None
            if entry is not None:
                found.append(_Call(op, *entry))  # type: ignore[attr-defined]
    wanted = set(families)
    return (call for call in found if not wanted or call.op.FAMILY in wanted)  # type: ignore[union-attr]


def _elem_name(attr: Attribute) -> str | None:
    """Catalog name of an IR element type (f16 -> half, si32 -> int32_t)."""
    scalar = scalar_from_element(attr)
    return scalar.name if scalar is not None else None


def _tensor_elem(value: SSAValue) -> str | None:
    t = value.type
    if isinstance(t, asc.LocalTensorType | asc.GlobalTensorType):
        return _elem_name(t.element_type)
    return None


def _type_vars(overload: Overload) -> list[str]:
    return [tp.name for tp in overload.type_params if tp.is_type]


def _bindings(call: _Call) -> dict[str, str]:
    """Type variable -> element type, from tensor operands (explicit template arguments fill the rest)."""
    out: dict[str, str] = {}
    type_vars = set(_type_vars(call.overload))
    for i, value in call.params():
        param = call.overload.params[i]
        if param.kind in ("local_tensor", "global_tensor") and param.elem in type_vars and param.elem not in out:
            elem = _tensor_elem(value)
            if elem is not None:
                out[param.elem] = elem
    return out


def _arch(ctx: CheckContext) -> int:
    return ctx.chip.npu_arch


def _loc(op: Operation) -> tuple[str, int, int] | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    return None



# ----------------------------------------------------------------------------------------------------
# the source side: one walk of the program's syntax trees, shared by the rules below
# ----------------------------------------------------------------------------------------------------


@dataclass
class _AstIndex:
    """The AST nodes the API rules look at, collected in one walk; spans are resolved only on demand."""

    calls: list[A.Call] = field(default_factory=list)
    unqualified_calls: list[A.Call] = field(default_factory=list)  # `Name(...)` outside namespace AscendC
    unqualified_types: list[A.TypeRef] = field(default_factory=list)  # `LocalTensor<T>` outside namespace AscendC
    casts: list[A.Cast] = field(default_factory=list)
    ascendc_event_names: list[A.Name] = field(default_factory=list)  # `AscendC::EVENT_IDn`
    using_namespaces: set[str] = field(default_factory=set)
    own_namespaces: set[str] = field(default_factory=set)
    declared: set[str] = field(default_factory=set)  # functions, using-declarations, variables
    named: set[str] = field(default_factory=set)  # names of classes, structs and tiling definitions
    classes: list[A.ClassDecl] = field(default_factory=list)
    out_of_class_const: list[A.FunctionDecl] = field(default_factory=list)
    _calls_at: dict[tuple[str, int, int], A.Call] | None = None
    _casts_at: set[tuple[str, int, int]] | None = None

    def calls_at(self) -> dict[tuple[str, int, int], A.Call]:
        if self._calls_at is None:
            self._calls_at = {}
            for node in self.calls:
                span = as_span(node.span)
                self._calls_at.setdefault((span.file, span.line, span.col), node)
        return self._calls_at

    def casts_at(self) -> set[tuple[str, int, int]]:
        if self._casts_at is None:
            self._casts_at = set()
            for node in self.casts:
                span = as_span(node.span)
                self._casts_at.add((span.file, span.line, span.col))
        return self._casts_at


# the node kinds _ast_index tells apart, in the order it tests them; looked up once per node class
_INDEXED: tuple[type, ...] = (A.Call, A.Cast, A.Name, A.Declarator, A.FunctionDecl, A.UsingDecl, A.UsingDirective,
                              A.NamespaceDecl, A.ClassDecl, A.Param, A.TypeRef)
# Types kernel_operator.h declares in namespace AscendC only (TPosition and RoundMode are left out: host code
# has matmul_tiling's TPosition, and a project may name its own RoundMode).
_ASCENDC_TYPES = frozenset({
    "TPipe", "TQue", "TQueBind", "TBuf", "LocalTensor", "GlobalTensor", "HardEvent", "QuePosition",
    "DataCopyParams", "DataCopyExtParams", "DataCopyPadExtParams", "UnaryRepeatParams", "BinaryRepeatParams",
    "LocalMemAllocator",
})
_INDEX_KINDS: dict[type, int] = {}


def _ast_index(ctx: CheckContext) -> _AstIndex:
    program = ctx.program
    if program is None:
        return _AstIndex()
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    hit = store.get("api_misuse.ast_index")
    if hit is not None:
        return hit  # type: ignore[return-value]
    index = _AstIndex()
    kinds = _INDEX_KINDS
    for node, in_ascendc in ast_index(ctx).api_order:  # the shared walk, in the order this index always used
        kind = kinds.get(type(node))
        if kind is None:
            kind = kinds[type(node)] = next((i for i, k in enumerate(_INDEXED) if isinstance(node, k)), len(_INDEXED))
        if kind == 0:  # A.Call
            index.calls.append(node)
            callee = node.callee
            if not in_ascendc and isinstance(callee, A.Name) and len(callee.qname.parts) == 1:
                index.unqualified_calls.append(node)
        elif kind == 1:  # A.Cast
            index.casts.append(node)
        elif kind == 2:  # A.Name
            parts = node.qname.parts
            if len(parts) == 2 and parts[0].name == "AscendC" and parts[1].name.startswith(_GLOBAL_ENUMERATOR_PREFIXES):
                index.ascendc_event_names.append(node)
        elif kind == 3:  # A.Declarator
            index.declared.add(node.name)
        elif kind == 4:  # A.FunctionDecl
            index.declared.add(node.name.parts[-1].name)
            if len(node.name.parts) >= 2 and "const" in node.qualifiers and node.body is not None:
                index.out_of_class_const.append(node)
        elif kind == 5:  # A.UsingDecl
            index.declared.update(name.parts[-1].name for name in node.names)
        elif kind == 6:  # A.UsingDirective
            index.using_namespaces.add(node.namespace.name)
        elif kind == 7:  # A.NamespaceDecl
            if node.name and node.name != "AscendC":
                index.own_namespaces.add(node.name)
        elif kind == 8:  # A.ClassDecl
            index.classes.append(node)
            if node.name:
                index.named.add(node.name)
        elif kind == 9:  # A.Param: nothing
            pass
        elif kind == 10:  # A.TypeRef
            base = node.base
            if (not in_ascendc and isinstance(base, A.QualifiedName) and len(base.parts) == 1
                    and base.parts[0].name in _ASCENDC_TYPES):
                index.unqualified_types.append(node)
        elif isinstance(node, A.Decl):  # a definition (tiling struct, enum, alias): not a mere use of a name
            name = getattr(node, "name", None)
            if isinstance(name, str):
                index.named.add(name)
    store["api_misuse.ast_index"] = index
    return index


# ----------------------------------------------------------------------------------------------------
# ASC502: element type the API does not support on the chip
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC502", "unsupported-element-type", "api",
    summary="A vector or data-movement API is called on tensors of an element type it does not support on "
            "the target chip (Exp on int32_t, Div on int16_t, And on float).",
    why="Each vector instruction exists only for some element types. The vendor compiler rejects the call "
        "(no matching instruction, or a static assertion inside the API), and the CPU-debug build aborts "
        "with a dtype check; where a generic path compiles, the result is garbage.",
    example="LocalTensor<int32_t> t = buf.Get<int32_t>();\nExp(t, t, 64);   // Exp supports half and float",
    instead="LocalTensor<float> f = fbuf.Get<float>();\nCast(f, t, RoundMode::CAST_NONE, 64);\nExp(f, f, 64);",
)
def unsupported_element_type(ctx: CheckContext) -> None:
    arch = _arch(ctx)
    guessed = _guessed_dtype(ctx)
    for call in _calls(ctx):
        if call.api.dtype_combos.get(str(arch)):
            _check_combo(ctx, call, arch)
            continue
        for var, elem in _bindings(call).items():
            allowed = call.api.allowed_dtypes(arch, var)
            if allowed is None or elem in allowed or elem == guessed:
                continue
            ctx.report(call.op, f"{call.api.name} does not support {elem} on {ctx.chip.name} (arch {arch}); "
                                f"supported element types: {', '.join(allowed)}")
            break


def _check_combo(ctx: CheckContext, call: _Call, arch: int) -> None:
    bound = _bindings(call)
    combos = call.api.dtype_combos[str(arch)]
    if not bound or not all(var in bound for var in _type_vars(call.overload) if any(var in c for c in combos)):
        return
    for combo in combos:
        if all(bound.get(var) == elem for var, elem in combo.items()):
            return
    got = ", ".join(f"{var} = {elem}" for var, elem in sorted(bound.items()))
    choices = "; ".join(", ".join(f"{v} = {e}" for v, e in sorted(c.items())) for c in combos)
    ctx.report(call.op, f"{call.api.name} does not support {got} on {ctx.chip.name} (arch {arch}); "
                        f"supported: {choices}")


def _guessed_dtype(ctx: CheckContext) -> str | None:
    """The element type the lowering gave DTYPE_<NAME> macros that no op json binds (a kernel checked
    without its project), or None when every macro the kernel uses is bound. Tensors of that type may really
    be of any type the op json would list, so the element-type rules do not judge it."""
    def compute() -> str | None:
        from ascendir.lower import unbound_dtype_macros
        from ascendir.lower.function import DEFAULT_DTYPE

        if ctx.program is None:
            return None
        walked = (node for _, nodes in ast_index(ctx).units for node in nodes)
        return DEFAULT_DTYPE if ctx.dtypes_defaulted and unbound_dtype_macros(ctx.program, walked) else None
    return cached(ctx, "api_misuse.guessed_dtype", compute)


# ----------------------------------------------------------------------------------------------------
# ASC503: scalar argument whose type is not the tensors' element type
# ----------------------------------------------------------------------------------------------------

# Families whose scalar parameters are written `const T&` (or `U` with enable_if<is_same<T, U>>):
# template deduction needs the scalar's type to be exactly the tensors' element type.
_SCALAR_FAMILIES = ("vec_scalar", "duplicate", "compare")
_CONVERSIONS = (arith.ExtFOp, arith.TruncFOp, arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp, arith.FPToUIOp,
                arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)


@rule(
    "ASC503", "scalar-type-mismatch", "api",
    summary="The scalar argument of a tensor-scalar API (Muls, Adds, Maxs, Mins, LeakyRelu, Duplicate, "
            "CompareScalar, ...) has a C type other than the tensors' element type, e.g. a float literal "
            "on half tensors or an int on float tensors.",
    why="These APIs take the scalar as `const T&` (or as `U` with U required to equal T), so the template "
        "argument T is deduced from both the tensors and the scalar. `Muls(halfDst, halfSrc, 2.0f, n)` "
        "deduces T = half and T = float and the build fails with \"no matching function for call to "
        "'Muls'\"; an int literal on float tensors fails the same way. (The Ascend 950 adds vector-scalar "
        "overloads generic in the scalar's type, so there only Duplicate and the compares are judged.)",
    example="LocalTensor<half> x = inQueue.DeQue<half>();\nMuls(y, x, 0.5f, n);      // 0.5f is float, x is half",
    instead="Muls(y, x, (half)0.5f, n);   // or keep a `half scale` variable",
)
def scalar_type_mismatch(ctx: CheckContext) -> None:
    calls_at: dict[tuple[str, int, int], A.Call] | None = None
    unknown_tiling: set[str] = set()
    guessed = _guessed_dtype(ctx)
    for call in _calls(ctx, *_SCALAR_FAMILIES):
        if call.op.template_args is not None and call.op.template_args.data:
            continue  # explicit T: the scalar converts like any function argument
        if call.api.family == "vec_scalar" and not ctx.catalogued_at(call.op):
            continue  # the 950's Adds/Muls/... add overloads generic in the scalar's type (`const V& src1`)
        bound = _bindings(call)
        for i, value in call.params():
            param = call.overload.params[i]
            if param.kind != "scalar" or param.elem not in bound:
                continue
            want = bound[param.elem]
            if want == guessed:
                continue
            if calls_at is None:
                calls_at = _ast_index(ctx).calls_at()
                unknown_tiling = _unknown_tiling_types(ctx)
            written = _written_scalar_type(call, i, value, calls_at, unknown_tiling)
            if written is None or _same_scalar(written, want):
                continue
            ctx.report(call.op, f"{call.api.name} on {want} tensors needs a {param.name} of type {want}, but the argument "
                                f"is {written}; T cannot be deduced and the call does not compile",
                       Note(f"write ({want})<value> or use a {want} variable", kind="help"))
            break


def _same_scalar(written: str, want: str) -> bool:
    return written == want


def _written_scalar_type(call: _Call, index: int, value: SSAValue,
                         calls_at: dict[tuple[str, int, int], A.Call], unknown_tiling: set[str]) -> str | None:
    """The C type of the scalar argument as written, where the source or the IR shows it for certain (not a
    field of a tiling struct out of reach, read as uint32_t by guess: `-tiling->swishScale` may be a float)."""
    loc = _loc(call.op)
    node = calls_at.get(loc) if loc is not None else None
    if node is not None and index < len(node.args) and len(node.args) == len(call.op.args) - call.offset:
        literal = _literal_type(node.args[index])
        if literal is not None:
            return literal
        if isinstance(node.args[index], A.Cast):
            return _cast_target_scalar(node.args[index])
    elif node is None:
        return None
    # a variable or expression: the lowering converts it to T at the call, so a conversion op placed at the
    # call's own location means the written type differs (an explicit cast sits at the cast's location)
    owner = value.owner
    if isinstance(owner, _CONVERSIONS) and _loc(owner) == loc:
        if _from_unknown_tiling(owner.operands[0], unknown_tiling):
            return None
        source = owner.operands[0].type
        return _ir_scalar_name(source, unsigned=isinstance(owner, arith.UIToFPOp | arith.ExtUIOp))
    return None


def _cast_target_scalar(cast: A.Cast) -> str | None:
    """The scalar type a cast converts to, when it is written as a builtin or standard name (`(half)x`,
    `static_cast<double>(s)`); None for a template parameter, an alias or anything else not known here."""
    target = cast.type
    if target.pointers or target.array_dims:
        return None
    base = target.base
    if isinstance(base, A.QualifiedName):
        if len(base.parts) != 1 or base.parts[0].template_args:
            return None
        base = base.parts[0].name
    scalar = scalar_named(base)
    return scalar.name if scalar is not None and scalar.name != "bool" else None


def _ir_scalar_name(t: Attribute, unsigned: bool = False) -> str | None:
    if isinstance(t, IntegerType):
        width = t.width.data
        if width not in (8, 16, 32, 64):
            return None
        return f"{'u' if unsigned else ''}int{width}_t"
    return _elem_name(t)


def _literal_type(node: A.Node) -> str | None:
    """The C type of a literal argument (`2.0f` float, `2.0` double, `2` int), None for anything else."""
    if isinstance(node, A.Unary) and node.op in ("-", "+"):
        node = node.operand
    if isinstance(node, A.FloatLit):
        text = node.text.lower()
        if text.endswith("f") and not text.startswith("0x"):
            return "float"
        if text.endswith("l"):
            return None
        return "double"
    if isinstance(node, A.IntLit):
        text = node.text.lower().rstrip("l")
        if text.endswith("u"):
            return "uint32_t" if node.value < 2**32 else None
        if node.value >= 2**31 or "l" in node.text.lower():
            return None
        return "int32_t"
    return None


# ----------------------------------------------------------------------------------------------------
# ASC504: Cast route or round mode the chip does not have
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC504", "illegal-cast", "api",
    summary="Cast between element types the chip has no conversion for, or with a RoundMode that route "
            "does not accept (e.g. half -> float with CAST_RINT, int32_t -> int16_t with CAST_ROUND).",
    why="Each Cast route is one hardware conversion instruction with its own set of rounding modes. A route "
        "that does not exist does not compile (or aborts the CPU-debug build with an unsupported-dtype "
        "check); a round mode the route does not take is rejected by the CPU-debug check and on hardware "
        "gives an undefined result. Go through an intermediate type (half -> float -> int32_t, ...).",
    example="Cast(f32Local, f16Local, RoundMode::CAST_RINT, n);   // half -> float is exact: only CAST_NONE",
    instead="Cast(f32Local, f16Local, RoundMode::CAST_NONE, n);",
)
def illegal_cast(ctx: CheckContext) -> None:
    arch = _arch(ctx)
    guessed = _guessed_dtype(ctx)
    for call in _calls(ctx, "cast"):
        dst = src = mode = None
        for i, value in call.params():
            param = call.overload.params[i]
            if param.name == "dst":
                dst = _tensor_elem(value)
            elif param.name == "src":
                src = _tensor_elem(value)
            elif param.kind == "enum" and param.type_name == "RoundMode":
                owner = value.owner
                mode = owner.value.data if isinstance(owner, asc.EnumConstantOp) else None
        if dst is None or src is None or guessed in (src, dst):
            continue
        modes = ctx.catalog.cast_modes(arch, src, dst)
        if modes is None:
            continue
        if not modes:
            targets = sorted(r.dst for r in ctx.catalog.cast_tables[str(arch)].routes.values() if r.src == src)
            hint = f"{src} converts to {', '.join(targets)}" if targets else f"{src} has no Cast route"
            ctx.report(call.op, f"Cast from {src} to {dst} does not exist on {ctx.chip.name} (arch {arch})",
                       Note(f"{hint}; go through an intermediate type", kind="help"))
        elif mode is not None and mode.rsplit("::", 1)[-1] not in modes:
            # the library's switch over the round mode has no case for it: no instruction, dst keeps its bytes
            ctx.report(call.op, f"Cast from {src} to {dst} does not take RoundMode::{mode.rsplit('::', 1)[-1]} "
                                f"on {ctx.chip.name}; allowed: {', '.join(sorted(modes))}", Note(BUILD_ACCEPTS))


# ----------------------------------------------------------------------------------------------------
# ASC505: continuous mask out of range
# ----------------------------------------------------------------------------------------------------

_MASK_FAMILIES = ("vec_binary", "vec_scalar", "vec_unary", "duplicate", "cast", "compare", "select", "reduce")


@rule(
    "ASC505", "mask-out-of-range", "api",
    summary="A vector call in the mask form has a constant continuous mask of 0 or above the lanes one "
            "repeat holds (128 for 16-bit, 64 for 32-bit, 32 for 64-bit element types).",
    why="In normal mask mode the continuous mask is the number of leading lanes of each 256-byte repeat "
        "that take part. A repeat holds only 128 half or 64 float lanes: a larger value is rejected by the "
        "CPU-debug check and on hardware sets bits that do not exist; 0 selects no lane at all. (In counter "
        "mode, after SetMaskCount(), the value is an element count and this rule stays silent.)",
    example="Add(dst, a, b, 128, 4, {1, 1, 1, 8, 8, 8});   // float: 64 lanes per repeat",
    instead="Add(dst, a, b, 64, 8, {1, 1, 1, 8, 8, 8});    // or the count form Add(dst, a, b, 512)",
)
def mask_out_of_range(ctx: CheckContext) -> None:
    counter_mode = {_kernel_of(op) for op in api_calls_of(ctx, "mask") if op.api.data == "SetMaskCount"}
    for call in _calls(ctx, *_MASK_FAMILIES):
        param = call.overload.param("mask")
        if param is None or param.kind != "scalar" or _kernel_of(call.op) in counter_mode:
            continue
        if _mask_not_set(call):
            continue
        value = constant_of(arg(call.op, "mask"))
        if not isinstance(value, int):
            continue
        bits = max((_elem_bits(v) for _, v in call.params() if _tensor_elem(v) is not None), default=0)
        if call.op.FAMILY == "compare":  # the destination is a bit mask: lanes follow the sources
            bits = max((_elem_bits(v) for i, v in call.params()
                        if call.overload.params[i].name != "dst" and _tensor_elem(v) is not None), default=0)
        mask_rule = ctx.catalog.mask_rule(bits)
        if mask_rule is None:
            continue
        if value == 0:
            ctx.report(call.op, f"{call.api.name} has mask 0: no lane of any repeat takes part")
        elif value > mask_rule.continuous_max or value < 0:
            # the parameter is a uint64_t: -1 is 0xFFFFFFFFFFFFFFFF there, as the mask an all-ones literal gives
            shown = f"{value % (1 << 64):#X}".replace("0X", "0x") if value < 0 or value > 0xFFFF else str(value)
            ctx.report(call.op, f"{call.api.name} has mask {shown}, but a repeat of {bits}-bit elements holds "
                                f"{mask_rule.continuous_max} lanes; the continuous mask is 1..{mask_rule.continuous_max}")


def _mask_not_set(call: _Call) -> bool:
    """`Add<T, false>(...)`: isSetMask = false, the mask argument is a placeholder."""
    targs = call.op.template_args.data if call.op.template_args is not None else ()
    for tp, value in zip(call.overload.type_params, targs):
        if tp.name == "isSetMask":
            return getattr(value, "data", None) in (0, False, "false", "0")
    return False


def _elem_bits(value: SSAValue) -> int:
    t = value.type
    if isinstance(t, asc.LocalTensorType | asc.GlobalTensorType):
        scalar = scalar_from_element(t.element_type)
        if scalar is not None:
            return scalar.bits
    return 0


# ----------------------------------------------------------------------------------------------------
# ASC506: tensor in a TPosition whose memory the API cannot reach
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC506", "wrong-tposition", "api",
    summary="A LocalTensor lives in a TPosition whose memory the API cannot access: a vector op on an L1 "
            "or L0 tensor (A1, B2, CO1, ...), or DataCopy between GM and L0A/L0B/L0C.",
    why="Vector instructions read and write only the Unified Buffer; DataCopy moves GM <-> UB/L1 and "
        "UB <-> UB. A tensor allocated from a TQue<TPosition::A2> lives in L0A: the vector unit cannot "
        "address it and the copy engine has no GM -> L0A path (that is LoadData's job). The build fails "
        "with \"no matching function\" on some APIs, the CPU-debug build aborts with a TPosition check, "
        "and otherwise the hardware reads or writes the wrong memory. Positions that share a memory "
        "(VECIN, VECCALC and VECOUT are all UB) are interchangeable and not flagged.",
    example="TQue<TPosition::A2, 1> aQue;   // L0A\nLocalTensor<half> a = aQue.AllocTensor<half>();\n"
            "DataCopy(a, aGm, 256);          // GM -> L0A: no such DataCopy",
    instead="DataCopy(a1Local, aGm, 256);   // GM -> A1 (L1), then LoadData(a2Local, a1Local, params)",
    catalogued_archs_only=True,  # the 950 adds paths (UB <-> L1, L0C -> UB) the catalogued signatures lack
)
def wrong_tposition(ctx: CheckContext) -> None:
    arch = _arch(ctx)
    for call in _calls(ctx):
        for i, value in call.params():
            param = call.overload.params[i]
            if param.kind != "local_tensor" or param.positions is None:
                continue
            t = value.type
            if not isinstance(t, asc.LocalTensorType):
                continue
            position = t.position.data
            if position in param.positions:
                continue
            memory = _memory(position, arch)
            allowed = {_memory(p, arch) for p in param.positions}
            if memory is None or None in allowed or memory in allowed:
                continue
            where = "/".join(sorted(a for a in allowed if a))
            ctx.report(call.op, f"{call.api.name} {param.name} is in {position} ({memory}); {call.api.name} "
                                f"cannot reach {memory} here, it needs {where} "
                                f"({', '.join(sorted(param.positions))})")
            break


def _memory(position: str, arch: int) -> str | None:
    try:
        return tposition_memory(position, arch)
    except ValueError:
        return None


# ----------------------------------------------------------------------------------------------------
# ASC507 / ASC508: scalar C rules of aicore functions
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC507", "float-unsigned-conversion", "api",
    summary="Device code converts between a floating-point type and an unsigned integer type "
            "(`static_cast<float>(uint32_t)`, `float x = someUint32;`, `(uint32_t)f`).",
    why="The AI Core scalar unit has no float <-> unsigned conversion; the compiler rejects it with \"cast "
        "between floating and unsigned integer variable is not allowed in aicore function\". Convert "
        "through a signed integer of the same or larger width.",
    example="float inv = 1.0f / static_cast<float>(this->tileLength);   // tileLength is uint32_t",
    instead="float inv = 1.0f / static_cast<float>(static_cast<int32_t>(this->tileLength));",
    # the 950's compiler takes these casts: its own examples (asc-devkit arange.asc) and the vendors' arch35
    # kernels write static_cast<float>(uint32_t)
    catalogued_archs_only=True,
)
def float_unsigned_conversion(ctx: CheckContext) -> None:
    candidates = ops_of_kind(ctx, (arith.UIToFPOp, arith.FPToUIOp))
    if not candidates:
        return
    casts = _ast_index(ctx).casts_at()
    unknown_tiling = _unknown_tiling_types(ctx)
    for op in candidates:
        if _loc(op) not in casts:
            continue  # implicit conversions (`1.0f / n`) compile: the check is on explicit casts
        if isinstance(op, arith.UIToFPOp):
            if _from_unknown_tiling(op.operands[0], unknown_tiling):
                continue
            src = _ir_scalar_name(op.operands[0].type, unsigned=True)
            dst = _elem_name(op.results[0].type)
            fix = f"static_cast<{dst}>(static_cast<int{src[4:] if src else '32_t'}>(x))"
        else:
            src = _elem_name(op.operands[0].type)
            dst = _ir_scalar_name(op.results[0].type, unsigned=True)
            fix = f"static_cast<{dst}>(static_cast<int{dst[4:] if dst else '32_t'}>(x))"
        ctx.report(op, f"cast from {src} to {dst}: device code may not cast between floating-point and "
                       "unsigned integer types",
                   Note(f"cast through the signed type: {fix}", kind="help"))


def _unknown_tiling_types(ctx: CheckContext) -> set[str]:
    """Tiling struct names the kernels read whose layout the program does not define (fields read as
    uint32_t by guess: conversions of those are not certain)."""
    # every struct a field is read from: GET_TILING_DATA's, and those reached through members and pointers
    names = {t.type_name.data for op in ops_of_kind(ctx, (asc.GetTilingDataOp, asc.TilingFieldOp))
             for t in [op.result.type if isinstance(op, asc.GetTilingDataOp) else op.operands[0].type]
             if isinstance(t, asc.TilingType)}
    if not names or ctx.program is None:
        return names
    return names - _ast_index(ctx).named


def _from_unknown_tiling(value: SSAValue, unknown: set[str], depth: int = 0) -> bool:
    """Whether `value`'s unsigned type rests on the guessed type of a field of a tiling struct out of reach:
    the field itself, or integer arithmetic with such a field among its operands (`t->a - t->b` is int64_t
    when the fields are)."""
    if depth > 8:
        return False
    owner = value.owner
    if isinstance(owner, asc.TilingFieldOp):
        t = owner.operands[0].type
        return not isinstance(t, asc.TilingType) or t.type_name.data in unknown or t.type_name.data == "?"
    if isinstance(owner, _INT_PASS_THROUGH):
        return _from_unknown_tiling(owner.operands[0], unknown, depth + 1)
    if isinstance(owner, _INT_ARITH):
        return any(_from_unknown_tiling(operand, unknown, depth + 1) for operand in owner.operands)
    return False


_INT_PASS_THROUGH = (arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp)
_INT_ARITH = (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.DivSIOp, arith.RemUIOp, arith.RemSIOp,
              arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp, arith.SelectOp)


_F64_ARITH = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.NegfOp, arith.MaximumfOp,
              arith.MinimumfOp)


@rule(
    "ASC508", "double-in-device-code", "api",
    summary="Device code computes in double precision or converts to/from double (`static_cast<double>(x)`, "
            "`double d = x * y;`, `x * 0.5` with an unsuffixed literal and a float `x`).",
    why="The AI Core has no double-precision unit. The compiler rejects double arithmetic (\"double "
        "precision operation is not allowed in aicore function\") and conversions (\"cast to/from double "
        "precision floating variable is not allowed in aicore function\"). Use float, and write float "
        "literals with an `f` suffix.",
    example="const double xv = static_cast<double>(x);\nreturn static_cast<float>(xv * 0.5);",
    instead="return x * 0.5f;",
)
def double_in_device_code(ctx: CheckContext) -> None:
    casts: set[tuple[str, int, int]] | None = None
    seen: set[tuple[str, int] | None] = set()
    for op in ops_of_kind(ctx, (*_F64_ARITH, arith.CmpfOp, *_CONVERSIONS)):  # any other op: no message
        message = None
        if isinstance(op, _F64_ARITH) and isinstance(op.results[0].type, Float64Type):
            message = "double-precision arithmetic in device code"
        elif isinstance(op, arith.CmpfOp) and isinstance(op.operands[0].type, Float64Type):
            message = "double-precision comparison in device code"
        elif isinstance(op, _CONVERSIONS) and (
                isinstance(op.results[0].type, Float64Type) or isinstance(op.operands[0].type, Float64Type)):
            if casts is None:
                casts = _ast_index(ctx).casts_at()
            if _loc(op) not in casts:
                continue
            src = _ir_scalar_name(op.operands[0].type, unsigned=isinstance(op, arith.UIToFPOp))
            dst = _ir_scalar_name(op.results[0].type, unsigned=isinstance(op, arith.FPToUIOp))
            message = f"cast from {src} to {dst} in device code"
        if message is None:
            continue
        loc = _loc(op)
        key = (loc[0], loc[1]) if loc else None
        if key in seen:
            continue  # one finding per line: `x * 0.5` is a conversion and a multiply
        seen.add(key)
        ctx.report(op, f"{message}: the AI Core has no double precision",
                   Note("use float (and float literals such as 0.5f)", kind="help"))


# ----------------------------------------------------------------------------------------------------
# ASC509 / ASC510: AscendC namespace
# ----------------------------------------------------------------------------------------------------

# Unscoped enumerators the toolchain declares at global scope, not in namespace AscendC.
_GLOBAL_ENUMERATOR_PREFIXES = ("EVENT_ID",)


@rule(
    "ASC509", "missing-ascendc-qualification", "api",
    summary="An AscendC API is called, or an AscendC type (LocalTensor, TPipe, TQue, ...) named, without "
            "`AscendC::` where no `using namespace AscendC` is in effect and, for a call, argument-dependent "
            "lookup cannot find it (no AscendC-typed argument, or explicit template arguments).",
    why="The AscendC APIs live in namespace AscendC. `SetFlag<HardEvent::V_S>(EVENT_ID0)`, "
        "`PipeBarrier<PIPE_V>()` and `GetBlockIdx()` written bare fail to compile with \"use of undeclared "
        "identifier 'SetFlag'; did you mean 'AscendC::SetFlag'?\"; a type written bare (`LocalTensor<float>`, "
        "`TPipe`) is \"unknown type name\". (Calls such as `Add(dst, a, b, n)` on LocalTensors still compile: "
        "lookup finds them through the argument types.) Each bare type is reported at its first use.",
    example='#include "kernel_operator.h"\n// no using namespace AscendC\nuint32_t core = GetBlockIdx();',
    instead="uint32_t core = AscendC::GetBlockIdx();   // or: using namespace AscendC;",
)
def missing_ascendc_qualification(ctx: CheckContext) -> None:
    if ctx.program is None:
        return
    index = _ast_index(ctx)
    # `using namespace AscendC`, or of a vendor namespace that may itself bring AscendC in (matmul)
    if index.using_namespaces - index.own_namespaces - {"std"}:
        return
    ops_at: dict[tuple[str, int, int], list[Operation]] | None = None
    in_header = _header_rooted_nodes(ctx.program) if index.unqualified_calls or index.unqualified_types else set()
    # a project header out of reach may hold the using-directive (ops-nn's dua_quantize_add_layer_norm gets it
    # from another op's base header): then the names are only suspect
    hidden = _missing_project_include(ctx.program)
    severity = Severity.WARNING if hidden else None
    why_not_sure = [Note(f"'{hidden}' could not be read; if it has 'using namespace AscendC', this compiles")] \
        if hidden else []
    for call in index.unqualified_calls:
        if id(call) in in_header:
            continue
        name_part = call.callee.qname.parts[0]  # type: ignore[attr-defined]
        name = name_part.name
        api = ctx.catalog.api(name)
        if name in index.declared or api is None or api.global_scope:
            continue
        span = as_span(call.span)
        explicit = name_part.template_args is not None
        if not explicit and call.args:  # an AscendC-typed argument lets argument-dependent lookup find it
            if ops_at is None:
                ops_at = _ops_by_location(ctx.module)
            ops = ops_at.get((span.file, span.line, span.col))
            if not ops or any(_ascendc_typed(v) for op in ops for v in op.operands):
                continue
        ctx.report(span, f"'{name}' is not declared here: AscendC APIs need 'AscendC::' or "
                         "'using namespace AscendC'",
                   *why_not_sure, Note(f"write AscendC::{name}", kind="help"), severity=severity)
    reported: set[str] = set()
    for ref in sorted(index.unqualified_types, key=lambda r: (str(r.span.file), r.span.line, r.span.col)):
        name = ref.base.parts[0].name  # type: ignore[union-attr]
        if name in reported or name in index.declared or name in index.named or id(ref) in in_header:
            continue
        reported.add(name)  # once per type: every later use fails the same way
        ctx.report(as_span(ref.span), f"unknown type name '{name}': AscendC types need 'AscendC::' or "
                                      "'using namespace AscendC'",
                   *why_not_sure, Note(f"write AscendC::{name}", kind="help"), severity=severity)


def _missing_project_include(program: FrontendProgram) -> str | None:
    """A quoted include of the program that could not be read, other than a tiling header (those declare
    tiling structs, not namespaces); None when every one was found."""
    for unit in program.units:
        for name in unit.preprocessed.missing_includes if unit.preprocessed is not None else ():
            if "tiling" not in os.path.basename(name).lower():
                return name
    return None


# the headers a folder is searched for, and the other header kinds a user may name as an input
_HEADER_SUFFIXES = (*HEADER_SUFFIXES, ".hxx", ".inl", ".inc")


def _header_rooted_nodes(program: FrontendProgram) -> set[int]:
    """The AST nodes (by id) of units that are a header checked on its own. Such a header is compiled only
    through the sources that include it, after their `using namespace AscendC;`, which this check cannot see
    (prompt_flash_attention_base_api.h names TPipe bare; its kernel .cpp holds the using-directive)."""
    return {id(node) for unit in program.units if unit.unit.path.lower().endswith(_HEADER_SUFFIXES)
            for node in unit.ast.walk()}


def _ops_by_location(module: ModuleOp) -> dict[tuple[str, int, int], list[Operation]]:
    out: dict[tuple[str, int, int], list[Operation]] = {}
    for op in walk_of(module):
        if isinstance(op, asc.ApiCallOp) or op.dialect_name() == "ascendc":
            loc = _loc(op)
            if loc is not None:
                out.setdefault(loc, []).append(op)
    return out


def _ascendc_typed(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, asc.LocalTensorType | asc.GlobalTensorType | asc.TQueType | asc.TBufType | asc.TPipeType
                      | asc.StructType | asc.EnumType | asc.ObjectType | asc.TilingType)


@rule(
    "ASC510", "global-enumerator-qualified", "api",
    summary="`AscendC::EVENT_ID0` (and the other EVENT_IDn): the event-id enumerators are global, not members "
            "of namespace AscendC.",
    why="The EVENT_IDn values come from the compiler's built-in `event_t` at global scope. Qualifying them "
        "fails the build with \"no member named 'EVENT_ID0' in namespace 'AscendC'; did you mean simply "
        "'EVENT_ID0'?\" (while SetFlag/WaitFlag themselves do need AscendC::).",
    example="AscendC::SetFlag<AscendC::HardEvent::V_S>(AscendC::EVENT_ID0);",
    instead="AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);",
)
def global_enumerator_qualified(ctx: CheckContext) -> None:
    for node in _ast_index(ctx).ascendc_event_names:
        parts = [p.name for p in node.qname.parts]
        ctx.report(as_span(node.span), f"no member named '{parts[1]}' in namespace 'AscendC': "
                                       f"{parts[1]} is a global enumerator",
                   Note(f"write {parts[1]}", kind="help"))

# ----------------------------------------------------------------------------------------------------
# ASC511: state-changing method of a member object called from a const method
# ----------------------------------------------------------------------------------------------------

# Methods the vendor classes declare without `const` (they change the object or what it hands out).
_NON_CONST_METHODS = {
    "GlobalTensor": frozenset({"SetValue", "SetGlobalBuffer", "SetL2CacheHint"}),
    "TQue": frozenset({"AllocTensor", "FreeTensor", "EnQue", "DeQue"}),
    "TPipe": frozenset({"InitBuffer", "Reset"}),
}


@rule(
    "ASC511", "mutating-call-in-const-method", "api",
    summary="A `const` member function calls a state-changing method of a member object: "
            "GlobalTensor::SetValue/SetGlobalBuffer, TQue::AllocTensor/EnQue/DeQue/FreeTensor, "
            "TPipe::InitBuffer.",
    why="Inside a const method every member is const, and these methods are not marked const: the build "
        "fails with \"'this' argument to member function 'SetValue' has type 'const GlobalTensor<float>', "
        "but function is not marked const\".",
    example="__aicore__ inline void Process() const { yGm.SetValue(0, 0.0f); }",
    instead="__aicore__ inline void Process() { yGm.SetValue(0, 0.0f); }",
)
def mutating_call_in_const_method(ctx: CheckContext) -> None:
    index = _ast_index(ctx)
    classes: dict[str, dict[str, str]] = {}  # class -> member -> vendor class of a non-mutable member
    methods = [(fn.name.parts[-2].name, fn) for fn in index.out_of_class_const]
    for node in index.classes:
        if not node.name:
            continue
        fields = classes.setdefault(node.name, {})
        for member in node.members:
            if isinstance(member, A.VarDecl) and "mutable" not in member.specifiers:
                for d in member.declarators:
                    base = d.type.base
                    name = base.name if isinstance(base, A.QualifiedName) else str(base)
                    if name in _NON_CONST_METHODS and not d.type.pointers:
                        fields[d.name] = name
            elif isinstance(member, A.FunctionDecl) and "const" in member.qualifiers and member.body:
                methods.append((node.name, member))
    for owner, method in methods:
        fields = classes.get(owner, {})
        if not fields or method.body is None:
            continue
        for node in method.body.walk():
            if not (isinstance(node, A.Call) and isinstance(node.callee, A.Member)):
                continue
            obj = node.callee.obj
            field_name = None
            if isinstance(obj, A.Name) and len(obj.qname.parts) == 1:
                field_name = obj.qname.parts[0].name
            elif isinstance(obj, A.Member) and isinstance(obj.obj, A.This):
                field_name = obj.member
            cls = fields.get(field_name or "")
            if cls is None or node.callee.member not in _NON_CONST_METHODS[cls]:
                continue
            if _shadowed(method, field_name or ""):
                continue
            fn = method.name.parts[-1].name
            ctx.report(as_span(node.span), f"'{node.callee.member}' changes {field_name}, but {fn}() is const: "
                                           f"{field_name} is a const {cls} there and the call does not compile",
                       Note(f"drop 'const' from {fn}()", kind="help"))


def _shadowed(method: A.FunctionDecl, name: str) -> bool:
    """A parameter or local of the method with the member's name (the call then is not on the member)."""
    if any(p.name == name for p in method.params):
        return True
    return method.body is not None and any(isinstance(n, A.Declarator) and n.name == name for n in method.body.walk())


# ----------------------------------------------------------------------------------------------------
# ASC512: the source of an in-place reduction read again as data
# ----------------------------------------------------------------------------------------------------

_IN_PLACE_REDUCTIONS = frozenset({"ReduceSum", "ReduceMax", "ReduceMin"})


def _tensor_root(value: SSAValue | None) -> SSAValue | None:
    from passes.verify.alignment import source_of

    root = source_of(value)
    return root if root is not None and isinstance(root.type, asc.LocalTensorType) else None


def _kernel_of(op: Operation) -> Operation | None:
    while op is not None and not isinstance(op, asc.KernelOp):
        op = op.parent_op()  # type: ignore[assignment]
    return op


@rule(
    "ASC512", "reduce-in-place-source-reread", "api",
    summary="After ReduceSum/ReduceMax/ReduceMin with dst and src the same tensor, a vector instruction or "
            "DataCopy reads that tensor again as data before anything rewrites it.",
    why="An in-place reduction writes its result (the sum, or the max/min and its index) over the first "
        "elements of src; src is no longer the data it was. Reading only the result (GetValue(0)) is fine; "
        "reading the tensor as the original values (the numerators of a softmax, the rows to normalise) uses "
        "the result in their place, and the output is wrong in the first element(s), without any error. The "
        "vendor's overlap rules also allow src and dst of one instruction to overlap only completely.",
    example="ReduceSum(expLocal, expLocal, work, n);\nfloat sum = expLocal.GetValue(0);\n"
            "Muls(expLocal, expLocal, 1.0f / sum, n);   // element 0 is the sum, not exp(x0)",
    instead="ReduceSum(sumLocal, expLocal, work, n);   // a separate dst\nfloat sum = sumLocal.GetValue(0);\n"
            "Muls(expLocal, expLocal, 1.0f / sum, n);",
)
def reduce_in_place_source_reread(ctx: CheckContext) -> None:
    ops = ops_of(ctx)
    reductions = [op for op in api_calls_of(ctx) if op.api.data in _IN_PLACE_REDUCTIONS]
    position = {id(op): i for i, op in enumerate(ops)} if reductions else {}
    for reduce in reductions:
        root = _tensor_root(arg(reduce, "dst"))
        if root is None or root is not _tensor_root(arg(reduce, "src")):
            continue
        count = constant_of(arg(reduce, "count"))
        if isinstance(count, int) and count <= 1:
            continue
        kernel = _kernel_of(reduce)
        reduced = _same_count(arg(reduce, "count"))
        for later in ops[position[id(reduce)] + 1:]:
            if _kernel_of(later) is not kernel:
                break
            if isinstance(later, asc.SetValueOp) and _tensor_root(later.tensor) is root:
                break  # element rewritten by hand: the code knows what it holds
            if not isinstance(later, asc.ApiCallOp) or _exclusive(reduce, later):
                continue
            dst = arg(later, "dst")
            reads = any(_tensor_root(a) is root for a in later.args if a is not dst)
            writes = _tensor_root(dst) is root
            if not (reads or writes):
                continue
            extent = _extent(later, reduced)
            if extent == "result":
                continue  # `Adds(sum, sum, eps, 1)`: works on the result itself
            if reads and extent == "all":
                _report_reread(ctx, later, reduce)
            break  # reported, or rewritten, or a range not known: nothing more to say


def _same_count(value: SSAValue | None) -> object:
    from passes.verify.alignment import source_of

    return source_of(value) if value is not None else None


def _extent(op: asc.ApiCallOp, reduced: object) -> str | None:
    """How much of its tensors a count-form call touches: "result" (the first one or two elements an
    in-place reduction wrote), "all" (the reduction's own count, or a constant beyond the result), or None."""
    count_value = arg(op, "count")
    if count_value is None:
        return None
    count = constant_of(count_value)
    if isinstance(count, int):
        return "result" if count <= 2 else "all"
    return "all" if reduced is not None and _same_count(count_value) is reduced else None


def _exclusive(a: Operation, b: Operation) -> bool:
    """Whether `a` and `b` sit in different regions of one op (the two branches of an `if`)."""
    regions: dict[int, Region] = {}
    x: Operation | None = a
    while x is not None and x.parent_region() is not None:
        region = x.parent_region()
        assert region is not None
        owner = region.parent_op()
        if owner is None:
            break
        regions[id(owner)] = region
        x = owner
    y: Operation | None = b
    while y is not None and y.parent_region() is not None:
        region = y.parent_region()
        assert region is not None
        owner = region.parent_op()
        if owner is None:
            break
        if id(owner) in regions:
            return regions[id(owner)] is not region
        y = owner
    return False


def _report_reread(ctx: CheckContext, later: asc.ApiCallOp, reduce: asc.ApiCallOp) -> None:
    api = reduce.api.data
    ctx.report(later, f"{later.api.data} reads the tensor {api} reduced in place: its first element(s) now hold "
                      f"the {api} result, not the data",
               ctx.note_at(reduce, f"{api} with dst = src writes its result over src here"),
               Note(f"give {api} a separate dst tensor", kind="help"))


# ----------------------------------------------------------------------------------------------------
# ASC513: a member an AscendC parameter struct does not have
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC513", "unknown-struct-member", "api",
    summary="Code reads or writes a member of an AscendC parameter struct (DataCopyParams, DataCopyExtParams, "
            "DataCopyPadExtParams, BinaryRepeatParams, Nd2NzParams, ...) that the struct does not declare, or "
            "names one in a designated initialiser.",
    why="The parameter structs are plain C++ structs with fixed member names; a member they lack does not "
        "compile (\"no member named 'padValue' in 'AscendC::DataCopyPadExtParams<float>'\"). The names differ "
        "between structs that look alike (DataCopyParams counts 32-byte blocks, DataCopyExtParams bytes; "
        "DataCopyPadExtParams pads with paddingValue), which is where they get mixed up.",
    example="DataCopyPadExtParams<float> pad;\npad.padValue = 0;",
    instead="DataCopyPadExtParams<float> pad;\npad.paddingValue = 0;",
    catalogued_archs_only=True,  # the 950's structs add members (DataCopyExtParams strides of int64_t, ...)
)
def unknown_struct_member(ctx: CheckContext) -> None:
    import difflib

    for op in ops_of_kind(ctx, (asc.StructGetOp, asc.StructSetOp, asc.StructInitOp)):
        if isinstance(op, asc.StructInitOp):
            struct_t, members = op.result.type, [f.data for f in op.fields.data]
        else:
            struct_t, members = op.struct.type, [op.field.data]  # type: ignore[union-attr]
        if not isinstance(struct_t, asc.StructType):
            continue
        struct = ctx.catalog.struct(struct_t.type_name.data)
        if struct is None or not struct.fields_complete:
            continue
        for member in members:
            if not member or struct.has_member(member.split(".")[0]):
                continue
            known = [f.name for f in struct.fields]
            close = difflib.get_close_matches(member, [*known, *struct.other_members], n=1)
            ctx.report(op, f"'{struct.name}' has no member '{member}'",
                       Note(f"did you mean '{close[0]}'?" if close else "its members: " + ", ".join(known),
                            kind="help" if close else "note"))
            break


# ----------------------------------------------------------------------------------------------------
# ASC514: an API whose body the target architecture compiles out
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC514", "api-empty-on-chip", "api",
    summary="A call of an API that the vendor declares for every architecture but implements only for "
            "others: on the target chip its body is compiled out and the call does nothing (BitwiseAnd, Fma, "
            "Hypot, IsNan, LogicalAnd, ... on 910B).",
    why="These advanced APIs are written as `#if __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102` around their "
        "whole body. Elsewhere the call compiles, runs, and leaves dst as it was: stale UB contents go out as "
        "the result, with no error from the compiler, the CPU-debug build or the device.",
    example="BitwiseAnd(dst, src0, src1, 256);   // int16_t on 910B2: dst is never written",
    instead="And(dst, src0, src1, 256);          // the basic API, implemented for int16_t/uint16_t on 910B",
)
def api_empty_on_chip(ctx: CheckContext) -> None:
    arch = _arch(ctx)
    for call in _calls(ctx):
        if arch in call.api.empty_archs:
            ctx.report(call.op, f"{call.api.name} does nothing on {ctx.chip.name} (arch {arch}): the vendor "
                                f"compiles its body only for other architectures, so its outputs keep whatever "
                                f"they held")
