"""API-misuse rules on element types and casts: an element type the API does not support on the chip (ASC502),
a scalar argument whose C type is not the tensors' element type (ASC503), a Cast route or round mode the chip
does not have (ASC504), and the scalar C rules of aicore functions: no float <-> unsigned conversion (ASC507),
no double precision (ASC508).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float64Type, IntegerType
from xdsl.ir import Attribute, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower.ctypes import scalar_named
from frontend import ast as A
from frontend.diagnostics import Note
from passes.verify.api_misuse_calls import (
    CatalogCall,
    catalog_calls,
    chip_arch,
    elem_name,
    location_of,
    tensor_elem,
    type_bindings,
    type_var_names,
)
from passes.verify.api_misuse_index import source_index
from passes.verify.ast_index import ast_index
from passes.verify.ir import ops_of_kind
from passes.verify.key_guard import BUILD_ACCEPTS
from passes.verify.project import cached
from passes.verify.rules import CheckContext, rule


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
    arch = chip_arch(ctx)
    guessed = _guessed_dtype(ctx)
    for call in catalog_calls(ctx):
        if call.api.dtype_combos.get(str(arch)):
            _check_combo(ctx, call, arch)
            continue
        for var, elem in type_bindings(call).items():
            allowed = call.api.allowed_dtypes(arch, var)
            if allowed is None or elem in allowed or elem == guessed:
                continue
            ctx.report(call.op, f"{call.api.name} does not support {elem} on {ctx.chip.name} (arch {arch}); "
                                f"supported element types: {', '.join(allowed)}")
            break


def _check_combo(ctx: CheckContext, call: CatalogCall, arch: int) -> None:
    bound = type_bindings(call)
    combos = call.api.dtype_combos[str(arch)]
    if not bound or not all(var in bound for var in type_var_names(call.overload) if any(var in c for c in combos)):
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
    for call in catalog_calls(ctx, *_SCALAR_FAMILIES):
        if call.op.template_args is not None and call.op.template_args.data:
            continue  # explicit T: the scalar converts like any function argument
        if call.api.family == "vec_scalar" and not ctx.catalogued_at(call.op):
            continue  # the 950's Adds/Muls/... add overloads generic in the scalar's type (`const V& src1`)
        bound = type_bindings(call)
        for i, value in call.params():
            param = call.overload.params[i]
            if param.kind != "scalar" or param.elem not in bound:
                continue
            want = bound[param.elem]
            if want == guessed:
                continue
            if calls_at is None:
                calls_at = source_index(ctx).calls_at()
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


def _written_scalar_type(call: CatalogCall, index: int, value: SSAValue,
                         calls_at: dict[tuple[str, int, int], A.Call], unknown_tiling: set[str]) -> str | None:
    """The C type of the scalar argument as written, where the source or the IR shows it for certain (not a
    field of a tiling struct out of reach, read as uint32_t by guess: `-tiling->swishScale` may be a float)."""
    loc = location_of(call.op)
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
    if isinstance(owner, _CONVERSIONS) and location_of(owner) == loc:
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
    return elem_name(t)


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
    arch = chip_arch(ctx)
    guessed = _guessed_dtype(ctx)
    for call in catalog_calls(ctx, "cast"):
        dst = src = mode = None
        for i, value in call.params():
            param = call.overload.params[i]
            if param.name == "dst":
                dst = tensor_elem(value)
            elif param.name == "src":
                src = tensor_elem(value)
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
    casts = source_index(ctx).casts_at()
    unknown_tiling = _unknown_tiling_types(ctx)
    for op in candidates:
        if location_of(op) not in casts:
            continue  # implicit conversions (`1.0f / n`) compile: the check is on explicit casts
        if isinstance(op, arith.UIToFPOp):
            if _from_unknown_tiling(op.operands[0], unknown_tiling):
                continue
            src = _ir_scalar_name(op.operands[0].type, unsigned=True)
            dst = elem_name(op.results[0].type)
            fix = f"static_cast<{dst}>(static_cast<int{src[4:] if src else '32_t'}>(x))"
        else:
            src = elem_name(op.operands[0].type)
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
    return names - source_index(ctx).named


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
                casts = source_index(ctx).casts_at()
            if location_of(op) not in casts:
                continue
            src = _ir_scalar_name(op.operands[0].type, unsigned=isinstance(op, arith.UIToFPOp))
            dst = _ir_scalar_name(op.results[0].type, unsigned=isinstance(op, arith.FPToUIOp))
            message = f"cast from {src} to {dst} in device code"
        if message is None:
            continue
        loc = location_of(op)
        key = (loc[0], loc[1]) if loc else None
        if key in seen:
            continue  # one finding per line: `x * 0.5` is a conversion and a multiply
        seen.add(key)
        ctx.report(op, f"{message}: the AI Core has no double precision",
                   Note("use float (and float literals such as 0.5f)", kind="help"))
