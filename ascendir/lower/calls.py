"""Lowering of calls: user functions and methods (inlined), AscendC APIs (resolved against the catalog),
and the macros of the kernel entry (GET_TILING_DATA, TILING_KEY_IS, KERNEL_TASK_TYPE_DEFAULT)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from xdsl.dialects import arith, math, scf
from xdsl.dialects.builtin import DenseArrayBase, IntAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Attribute, Block, Region, SSAValue

from ascendir.catalog import matmul_library_functions
from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.astwalk import written_root
from ascendir.lower.ctypes import CType, Scalar, const_fits
from ascendir.lower.function import REGISTER_API_FUNCTIONS, Unsupported, in_register_api
from ascendir.lower.header_names import TRANSPARENT_NAMESPACES
from ascendir.lower import code_pointer, list_tensor, softmax_tiling_impl
from ascendir.lower.values import Cell, FunctionRef, Instance, Pack, Val
from ascendir.lower.vector_intrinsics import is_vector_intrinsic, lower_pointer_intrinsic
from ascendir.lower.vector_intrinsics import is_mask_intrinsic, lower_mask_intrinsic
from ascendir.lower import ub_pointer
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# Calls that only matter to the CPU-debug build or to the build system.
_IGNORED_CALLS = {
    "assert", "ASSERT", "static_assert", "KERNEL_LOG", "REGISTER_TILING_DEFAULT", "REGISTER_TILING_FOR_TILINGKEY",
    "ASCENDC_TPL_SEL_PARAM", "ICPU_SET_TILING_KEY", "AscendCUtils", "TRACE_START", "ascendc_assert",
    "TRACE_STOP", "SetKernelMode", "ICPU_RUN_KF", "ENABLE_DETERMINISTIC", "CHECK_ACL", "printf", "PRINTF",
    "DumpTensor", "DumpAccChkPoint", "AscendCDumpTensor",
}  # fmt: skip

# vendor classes whose static methods the catalog holds as free APIs of the same name
# (AscendCUtils::SetMask<T>(n), SetMaskCount<T>(), SetMaskNorm<T>(): system.toml's mask control)
_CATALOGUED_STATICS = frozenset({"AscendCUtils"})

_KERNEL_TYPES = {
    "KERNEL_TYPE_AIV_ONLY": "aiv", "KERNEL_TYPE_AIC_ONLY": "aic", "KERNEL_TYPE_MIX_AIC_1_1": "mix_aic_1_1",
    "KERNEL_TYPE_MIX_AIC_1_2": "mix_aic_1_2", "KERNEL_TYPE_MIX_AIV_1_0": "mix_aiv_1_0",
    "KERNEL_TYPE_MIX_AIC_1_0": "mix_aic_1_0", "KERNEL_TYPE_MIX_VECTOR_CORE": "mix_vector_core",
}  # fmt: skip


# the SIMT model's launch extent types (`dim3(THREAD_DIM)`, asc-devkit's `Dim3` alias)
_SIMT_TYPES = frozenset({"dim3", "Dim3"})


def lower_call(lw: FunctionLowerer, e: A.Call, expected: CType | None) -> Val:
    callee = e.callee
    if isinstance(callee, A.Member):
        return _method_call(lw, e, callee, expected)
    if isinstance(callee, A.Name):
        return _named_call(lw, e, callee, expected)
    if isinstance(callee, A.Binary) and callee.op in ("->*", ".*"):
        return _member_pointer_call(lw, e, callee)
    if isinstance(callee, A.Unary) and callee.op == "*":
        # `(*static_cast<Func const *>(func))()`: the function object a pointer holds, or `(*f)(x)`
        pointer = lw.expr(callee.operand)
        if code_pointer.holds_functions(lw, pointer):
            return code_pointer.call(lw, e, pointer, lambda: _lower_args(lw, e.args))  # type: ignore[return-value]
        if code_pointer.is_pointer(pointer):  # each object it may reach, under a test of which
            return code_pointer.each_object(lw, pointer, e,
                                            lambda held: lw._operator_call(held, "operator()", e, e.args))
        target = pointer.obj
        if isinstance(target, Instance) and target.find_method("operator()") is not None:
            return lw._operator_call(target, "operator()", e, e.args)
    elif isinstance(callee, A.Index | A.Call):  # `list[1]()`, `make()()`: a function object
        target = lw.expr(callee).obj
        if isinstance(target, Instance) and target.find_method("operator()") is not None:
            return lw._operator_call(target, "operator()", e, e.args)
    raise Unsupported("call through an expression that is not a function name", e)


def _member_pointer_call(lw: FunctionLowerer, e: A.Call, callee: A.Binary) -> Val:
    """`(objPtr->*compute)(n)` with `compute` a template argument `&Kernel::ComputeLeft`: that method, on obj."""
    obj = lw.expr(callee.lhs)
    method = lw.expr(callee.rhs)
    if not isinstance(method.ctype, C.MemberFunctionT) or not isinstance(obj.obj, Instance):
        raise Unsupported("call through a pointer to member that is not a known method of a known object", e)
    found = obj.obj.find_method(method.ctype.name)
    if found is None:
        raise Unsupported(f"'{obj.obj.info.name}' has no method '{method.ctype.name}'", e)
    return _inline_method(lw, e, found, method.ctype.name, None)


def _inline_method(lw: FunctionLowerer, e: A.Call, found: tuple[Instance, list[object]], name: str,
                   targs: list[A.TemplateArg] | None) -> Val:
    """A user-class method call, inlined on the object part whose class declares the method (or the explicit
    specialisation of that method template which the call's template arguments pick)."""
    owner, methods = found
    args = _lower_args(lw, e.args)
    fn = pick_overload(methods, len(args), e, name, lw, args, owner)
    bound = explicit_types(lw, fn, targs, args)
    specials = owner.info.function_specializations.get(name)
    if specials:
        return _specialised_call(lw, e, fn, specials, bound, args, owner)
    return lw.inline_function(fn, args, owner, e, bound)


def _specialised_call(lw: FunctionLowerer, e: A.Call, fn: A.FunctionDecl,
                      specials: list[tuple[list[A.TemplateArg], A.FunctionDecl]], bound: dict[str, object],
                      args: Sequence[Val], owner: Instance) -> Val:
    """A call of a member function template that has explicit specialisations: the one whose template arguments
    are the call's (given, or the primary template's defaults), else the primary. catlass kernels specialise
    `operator()<CORE_TYPE = g_coreType>` per core type; with the core type a run-time choice here (one check
    covers both passes of a mixed kernel), each core's specialisation is inlined under a test of the core."""
    params = [p for p in lw.scope.function_templates.get(id(fn)) or [] if p.name]
    values = [bound.get(p.name) for p in params]
    by_core: dict[str, A.FunctionDecl] = {}
    for special_args, decl in specials:
        if len(special_args) > len(values):
            continue
        wanted = [lw._template_arg_value(a) for a in special_args]
        if all(_same_template_value(w, v) for w, v in zip(wanted, values)):
            return lw.inline_function(decl, args, owner, e, {})
        # (a default `g_coreType` folds to no constant: the core type, a run-time choice here)
        core = [w for w, v in zip(wanted, values) if (v is None or v == C.EnumT("CoreType")) and w in ("AIC", "AIV")]
        if len(core) == 1 and all(_same_template_value(w, v) for w, v in zip(wanted, values) if w not in core):
            by_core.setdefault(core[0], decl)
    if not by_core:
        return lw.inline_function(fn, args, owner, e, bound)
    if not isinstance(lw.resolve_type(fn.return_type) if fn.return_type is not None else C.VoidT(), C.VoidT):
        raise Unsupported(f"a value returned by '{fn.name.parts[-1].name}', specialised per core type", e)
    cases = sorted(by_core.items())

    def case(i: int) -> None:  # if (core is AIC) { AIC's } else if (core is AIV) { AIV's } else { the primary's }
        if i == len(cases):
            if fn.body is not None:
                lw.inline_function(fn, args, owner, e, bound)
            return
        core, decl = cases[i]
        test = lw.compare("==", Val(C.EnumT("CoreType"), obj="g_coreType"), Val(C.EnumT("CoreType"), const=core), e)
        if_op = lw.emit(scf.IfOp(lw.ssa(test, e), [], Region(Block()), Region(Block())), e)
        with lw.at_end_of(if_op.regions[0].block):
            outer_core, lw.core_type = lw.core_type, core
            try:
                lw.inline_function(decl, args, owner, e, {})
            finally:
                lw.core_type = outer_core
            lw.emit(scf.YieldOp(), e)
        with lw.at_end_of(if_op.regions[1].block):
            case(i + 1)
            lw.emit(scf.YieldOp(), e)

    case(0)
    return Val(C.VoidT())


def _same_template_value(wanted: object, given: object) -> bool:
    """Whether a specialisation's template argument is the one given (both as _template_arg_value has them)."""
    if given is None:
        return False
    if isinstance(wanted, bool | int) and isinstance(given, bool | int):
        return int(wanted) == int(given)  # `<true>` is `<1>`
    return wanted == given


# ----------------------------------------------------------------------------------------------------
# free functions, macros and static members
# ----------------------------------------------------------------------------------------------------


def _named_call(lw: FunctionLowerer, e: A.Call, callee: A.Name, expected: CType | None) -> Val:
    all_parts = callee.qname.parts
    # (the called name itself is never a namespace: `matmul(params)` calls a local object named like the
    # Matmul library's namespace)
    parts = lw.scope.without_namespaces([p for p in all_parts[:-1] if p.name not in TRANSPARENT_NAMESPACES]
                                        + all_parts[-1:])
    if not parts:
        raise Unsupported("call of a namespace", e)
    name = parts[-1].name
    targs = parts[-1].template_args
    explicit_ascendc = any(p.name == "AscendC" for p in all_parts)

    if len(all_parts) == 1 and targs is None and lw.frames:
        ref = lw.frame.types.get(name)
        if isinstance(ref, FunctionRef):  # `op(dst, src, n)` with `op` a template parameter naming a function
            return lower_call(lw, A.Call(e.span, ref.name, e.args), expected)
    if name in _IGNORED_CALLS:
        return Val(C.VoidT())
    if name in _BUILTIN_ALIASES and not e.args:
        name = _BUILTIN_ALIASES[name]  # the compiler builtin behind the AscendC call: get_block_idx()
    if (len(parts) >= 2 and _unmodelled_vendor_class(lw, parts[-2].name)
            and not (parts[-2].name in _CATALOGUED_STATICS and lw.catalog.has_api(name))):
        # static members of a vendor class the catalog does not model (`AscendCUtils::GetRsvdCnt()` after
        # GatherMask, `NumericLimits<T>::Lowest(dst, n)`): not the free API of that name, results unknown here
        return _opaque(lw, e, f"{parts[-2].name}::{name}", _lower_args(lw, e.args, tolerant=True))
    if len(parts) == 2 and parts[0].name == "numeric_limits" and parts[0].template_args and not e.args:
        return _numeric_limit(lw, e, parts[0].template_args[0], name)
    if in_register_api(callee.qname) or name in REGISTER_API_FUNCTIONS:
        lw.report.register_api(e)
        return _opaque(lw, e, name, _lower_args(lw, e.args, tolerant=True))
    macro = _MACROS.get(name)
    if macro is not None:
        return macro(lw, e)
    aliased = (lw.aliased_part(*(p.name for p in parts[:-1])) if len(parts) >= 2 and parts[0].name not in lw.scope.classes
               else None)
    if aliased is not None and aliased.info.methods.get(name):
        # `Base::Init(tiling)` with `using Base = KernelBase<T>;`: the base part's method, on this object
        args = _lower_args(lw, e.args)
        return lw.inline_function(pick_overload(aliased.info.methods[name], len(args), e, name, lw, args), args,
                                  aliased, e)
    inherited = aliased.find_method(name) if aliased is not None else None
    if inherited is not None:
        return _inline_method(lw, e, inherited, name, targs)  # `Base::GetTensorAddr(i, p)`, declared by Base's base
    static = static_method_of_type(lw, parts) if len(parts) >= 2 and not explicit_ascendc else None
    if static is not None:
        return _inline_method(lw, e, static, name, targs)
    if len(parts) == 2 and parts[0].name in lw.scope.classes:
        info = lw.scope.classes[parts[0].name]
        methods = info.methods.get(name)
        if methods:
            args = _lower_args(lw, e.args)
            # `Base<T>::InitGlobal(...)` inside a method of a derived object runs on that object's Base part
            owner = lw.frame.this.part_named(info.name) if lw.frame.this is not None else None
            return lw.inline_function(pick_overload(methods, len(args), e, name, lw, args), args, owner, e)
    # a call inside a class body to a method of the same class (not `AscendC::SyncAll()` inside the class's
    # own SyncAll(): the qualified name is the vendor API the method wraps)
    this = lw.frame.this
    found = this.find_method(name) if this is not None and len(parts) == 1 and not explicit_ascendc else None
    if found is not None:
        return _inline_method(lw, e, found, name, targs)
    if len(parts) == 1:
        local = lw.lookup(name)
        if isinstance(local, Instance) and local.find_method("operator()") is not None:
            return lw._operator_call(local, "operator()", e, e.args)  # `matmul(params)`: a function object
        called = code_pointer.call(lw, e, local, lambda: _lower_args(lw, e.args))
        if called is not None:
            return called  # `caller(func)`: the functions the pointer may hold (code_pointer.py)
        if local is not None:
            element = _tensor_element(lw, e, callee)
            if element is not None:
                return element
            raise Unsupported(f"call of '{name}', which is a variable", e)
    if name in lw.scope.functions and not explicit_ascendc:
        args = _lower_args(lw, e.args)
        # C++ drops a function template whose deduction fails; with none of the program's left, `min`/`max` are
        # the builtins (tla's `min(C<t>, C<u>)` seen through `using namespace tla` for two uint32_t)
        fns = [f for f in lw.scope.functions[name] if not _deduction_fails(lw, f, args)]
        if not fns and name in ("min", "max") and len(args) == 2:
            return _min_max(lw, e, name, args)
        fn = pick_overload(fns or lw.scope.functions[name], len(args), e, name, lw, args)
        if _copies_tiling(args):
            return _tiling_copy(lw, e, args)
        return lw.inline_function(fn, args, None, e, explicit_types(lw, fn, targs, args))
    if name in lw.scope.prototypes and name not in lw.scope.functions and not explicit_ascendc:
        # declared here, defined in another translation unit (separate compilation): what it does is not seen
        _opaque(lw, e, name, _lower_args(lw, e.args, tolerant=True))
        t = lw.resolve_type(lw.scope.prototypes[name][0].return_type)
        if isinstance(t, Scalar):
            return Val(t, lw.undef(t, e))
        return Val(t if isinstance(t, C.VoidT) else C.UnknownT(name))
    if name in ("pipe_barrier", "set_flag", "wait_flag"):
        return _intrinsic_sync(lw, e, name)
    if len(parts) == 1 and is_mask_intrinsic(name, len(e.args)):
        return lower_mask_intrinsic(lw, e, name, expected)
    if len(parts) == 1 and is_vector_intrinsic(name):
        lowered = lower_pointer_intrinsic(lw, e, name, expected)
        if lowered is not None:
            return lowered
        return _opaque(lw, e, name, _lower_args(lw, e.args, tolerant=True))
    if name == "GetTPipePtr" and not e.args:
        pipe = lw.visible_pipe()
        if pipe is None:
            raise Unsupported("GetTPipePtr() before any TPipe is declared", e)
        return Val(C.Pointer(C.PipeT()), pipe)
    if name in ("min", "max") and len(e.args) == 2 and not lw.catalog.has_api(name):
        return _min_max(lw, e, name)
    if name in _SCALAR_MATH and len(e.args) == _SCALAR_MATH[name][1]:
        return _scalar_math(lw, e, name)
    if name in softmax_tiling_impl.FUNCTIONS and (explicit_ascendc or len(parts) == 1):
        return softmax_tiling_impl.call(lw, e, name)  # the SoftMaxTiling a kernel computes itself
    t = lw.named_type(name, targs)
    if not isinstance(t, C.UnknownT):
        return lw.init_list(t, e.args, e)  # `DataCopyParams(1, n, 0, 0)`, `half(0)`
    if lw.catalog.has_api(name):
        return api_call(lw, e, name, None, None, targs, expected)
    if lw.catalog.vendor_declared(name) or ("matmul" in lw.scope.libraries and name in matmul_library_functions()):
        # an API the catalog does not model (or a helper of the included Matmul library): what it does is unknown
        return _opaque(lw, e, name, _lower_args(lw, e.args, tolerant=True))
    if name.startswith("asc_") or name in _SIMT_TYPES:
        # the vendor's C-style and SIMT API (asc_vf_call, asc_shfl, asc_get_block_idx ...; dim3(n)): lower-case,
        # outside the AscendC namespace and not modelled
        return _opaque(lw, e, name, _lower_args(lw, e.args, tolerant=True))
    if len(parts) == 1 and not explicit_ascendc and (lw.catalog.compiler_intrinsic(name) or _clang_builtin(name)):
        # the device compiler's own functions (trap(), set_atomic_none(), __builtin_inff()): not modelled
        value = _opaque(lw, e, name, _lower_args(lw, e.args, tolerant=True))
        return Val(C.F32, lw.undef(C.F32, e)) if name in _FLOAT_BUILTINS else value
    args = _lower_args(lw, e.args, tolerant=True)
    if len(parts) == 1 and any(isinstance(a.ctype, C.RegisterApiT) for a in args):
        # `FusedMulDstAdd(x, scale, shift, preg)` on registers after `using namespace AscendC::MicroAPI`
        # (ops-nn ada_layer_norm): a function of the register API, which is not modelled
        lw.report.register_api(e)
        return _opaque(lw, e, name, args)
    if explicit_ascendc or (name[:1].isupper() and lw.catalog.closest(name)):
        lw.report.unknown_api(name, e, lw.catalog.closest(name))
        return _opaque(lw, e, name, args)
    # what the device compiler says: `sqrtf` is undeclared; `sqrt` is the overload it offers instead
    libm = _LIBM_HINTS.get(name.removeprefix("__builtin_"))
    hint = [libm] if libm else lw.catalog.closest(name)
    lw.report.undeclared(name, e.callee, hint)
    return _opaque(lw, e, name, args)


# std::numeric_limits of the floating types: (epsilon, min, max); lowest is -max
_FLOAT_LIMITS = {
    "half": (2.0**-10, 2.0**-14, 65504.0),
    "bfloat16_t": (2.0**-7, 2.0**-126, 3.3895313892515355e38),
    "float": (2.0**-23, 2.0**-126, 3.4028234663852886e38),
    "double": (2.0**-52, 2.0**-1022, 1.7976931348623157e308),
}


def _numeric_limit(lw: FunctionLowerer, e: A.Call, targ: A.TemplateArg, member: str) -> Val:
    """`std::numeric_limits<T>::epsilon()`, `max()`, `lowest()` ...: a constant of T (ops-math
    sim_thread_exponential: `constexpr float EPSILON_ = std::numeric_limits<float>::epsilon();`)."""
    t = lw._template_arg_value(targ)
    if not isinstance(t, Scalar):
        return Val(C.UnknownT(f"numeric_limits::{member}"))
    value: int | float | None = None
    if t.is_float and t.name in _FLOAT_LIMITS:
        epsilon, smallest, largest = _FLOAT_LIMITS[t.name]
        value = {"epsilon": epsilon, "min": smallest, "max": largest, "lowest": -largest,
                 "infinity": float("inf"), "quiet_NaN": float("nan"), "round_error": 0.5}.get(member)
    elif t.kind in ("int", "uint", "bool"):
        low, high = C.integer_range(t)
        value = {"min": low, "lowest": low, "max": high, "epsilon": 0, "round_error": 0}.get(member)
    if value is None:
        return Val(t, lw.undef(t, e))  # denorm_min, signaling_NaN ...: a value of T, not followed
    return Val(t, const=value)


def static_method_of_type(lw: FunctionLowerer, parts: Sequence[A.NamePart]) -> tuple[Instance, list[object]] | None:
    """`LayoutCInL0::MakeLayoutInL0C(shape)`, `LayoutA::template MakeLayout<T>(r, c)`: a static method of the
    class that the qualifier names through an alias or a template parameter (the class template's arguments
    bound), called on a part that holds no members. None when the qualifier is no such class, or names a
    class directly (`K<T>::Init` inside K's methods runs on this object: see the caller)."""
    head = parts[:-1]
    qualifier = A.TypeRef(head[0].span, A.QualifiedName(head[0].span, list(head)))
    try:
        t = lw.resolve_type(qualifier)
    except Unsupported:
        return None
    if not isinstance(t, C.ClassT) or t.name not in lw.scope.classes:
        return None
    found = _type_holder(lw, t, 0).find_method(parts[-1].name)
    if found is None:
        return None
    if any("static" not in getattr(fn, "specifiers", ()) for fn in found[1]):
        return None  # a member function named through the type: the caller's own handling (base parts)
    return found


def _type_holder(lw: FunctionLowerer, t: C.ClassT, depth: int) -> Instance:
    """An object of class `t` without members, with base parts alike: what a static method called through the
    type (`MatrixCoord::Min`, declared by its base Coord<2>) runs on."""
    info = lw.scope.classes[t.name]
    types = {p.name: v for p, v in zip(info.scope_params or [], t.args) if p.name}
    holder = Instance(info, t, types, {}, f"<{t.name}>")
    if depth < 8:
        for ref in info.decl.bases:
            with lw._class_template_frame(info, t.args):
                base = lw.resolve_type(ref)
            if isinstance(base, C.ClassT) and base.name in lw.scope.classes and base.name != t.name:
                holder.bases.append(_type_holder(lw, base, depth + 1))
    return holder


def _unmodelled_vendor_class(lw: FunctionLowerer, name: str) -> bool:
    """A class or struct the vendor's headers declare, the catalog does not model and the program does not
    declare itself: `X::F(...)` calls its static member, not the free API F."""
    return (lw.catalog.vendor_type(name) and name not in lw.scope.classes  # type: ignore[attr-defined]
            and lw.catalog_type_kind(name) is None and lw.catalog.catalog.class_def(name) is None)  # type: ignore[attr-defined]


def _copies_tiling(args: Sequence[Val]) -> bool:
    """`CopyTiling(&tilingStruct, tilingGM)`: a helper that copies the tiling words from GM into a local
    struct through an int pointer. Byte-level copies into a struct are not modelled; the effect is."""
    has_struct = any(isinstance(a.ctype, C.Pointer) and isinstance(a.ctype.pointee, C.TilingT)
                     and isinstance(a.obj, Cell) and isinstance(a.obj.ctype, C.TilingT) for a in args)
    has_gm = any(isinstance(a.ctype, C.Pointer) and a.ctype.gm for a in args)
    return has_struct and has_gm and len(args) == 2


def _tiling_copy(lw: FunctionLowerer, e: A.Call, args: Sequence[Val]) -> Val:
    cell = next(a.obj for a in args if isinstance(a.obj, Cell) and isinstance(a.obj.ctype, C.TilingT))
    ptr = next(a for a in args if isinstance(a.ctype, C.Pointer) and a.ctype.gm)
    assert isinstance(cell, Cell) and isinstance(cell.ctype, C.TilingT)
    op = asc.GetTilingDataOp.create(operands=[lw.ssa(ptr, e)], result_types=[asc.TilingType(cell.ctype.name)])
    lw.store(cell, Val(cell.ctype, lw.emit(op, e).results[0]), e)
    return Val(C.VoidT())


def pick_overload(fns: Sequence[A.FunctionDecl], n: int, node: A.Node, name: str,
                  lw: FunctionLowerer | None = None, args: Sequence[Val] = (),
                  owner: Instance | None = None) -> A.FunctionDecl:
    """The overload of a user function to inline: the first that takes `n` arguments, and among several such,
    the first whose struct and class parameters name the types of the arguments passed
    (`Process(PARAM_LONG_SEQ_EXP p, ...)` beside `Process(PARAM_MEDIUM_SEQ_EXP p, ...)`)."""
    with_body = [f for f in fns if f.body is not None] or list(fns)
    viable = [f for f in with_body
              if sum(1 for p in f.params if p.default is None and p.name is not None and not p.variadic) <= n
              <= len(f.params) or any(p.variadic for p in f.params)]
    if len(viable) > 1 and lw is not None and owner is not None and args:
        # a method's overloads, by the kinds their parameters take in the class's terms (`Coord operator+(Coord
        # const &)` beside `Coord operator+(Index)`, for a MatrixCoord argument)
        kinds = [f for f in viable if lw._frame_takes(owner, f, args)]
        if kinds and len(kinds) < len(viable):
            viable = kinds
    if len(viable) > 1 and lw is not None:
        typed = [f for f in viable if not _record_type_mismatch(lw, f, args)]
        # C++ prefers a plain function to a template when both take the arguments as they are
        # (`GMToUB(GlobalTensor<float>&)` beside `template <class C> GMToUB(GlobalTensor<C>&)` for a float tensor)
        plain = next((f for f in typed if id(f) not in lw.scope.function_templates
                      and not _scalar_conversion(f, args)), None)
        if plain is not None:
            return plain
        if typed:
            return typed[0]
    if viable:
        return viable[0]
    if len(with_body) == 1:
        return with_body[0]
    raise Unsupported(f"no overload of '{name}' takes {n} arguments", node)


def _record_type_mismatch(lw: FunctionLowerer, fn: A.FunctionDecl, args: Sequence[Val]) -> bool:
    """Whether a parameter of `fn` names a user struct or class other than the one its argument has, or a
    tensor its argument is not: a LocalTensor for a GlobalTensor (`CopyIn(const LocalTensor<T>&, const
    GlobalTensor<T>&)` beside `CopyOut(const GlobalTensor<T>&, const LocalTensor<T>&)` overloads), or a tensor of
    a named element type other than the argument's (`Compute(LocalTensor<half>)` beside `Compute(LocalTensor<float>)`)."""
    records = lw.scope.classes.keys() | lw.scope.tiling_structs.keys()
    host_mismatch = getattr(lw, "host_param_mismatch", None)  # the host lowering's library objects
    for param, arg in zip(fn.params, args):
        if host_mismatch is not None and host_mismatch(param, arg):
            return True
        base = param.type.base
        if isinstance(base, str) or not base.parts:
            continue
        wanted = base.parts[-1].name
        if wanted in _TENSOR_CLASSES and isinstance(arg.ctype, C.LocalTensorT | C.GlobalTensorT):
            if _TENSOR_CLASSES[wanted] is not type(arg.ctype):
                return True
            targs = base.parts[-1].template_args
            elem = targs[0].value if targs else None
            if isinstance(elem, A.TypeRef) and not elem.pointers and arg.ctype.elem is not None:
                spelt = elem.base if isinstance(elem.base, str) else (
                    elem.base.parts[0].name if len(elem.base.parts) == 1 and not elem.base.parts[0].template_args
                    else None)
                named = C.scalar_named(spelt) if spelt is not None else None  # a type parameter (T) is no scalar
                if named is not None and named != arg.ctype.elem:
                    return True
            continue
        given = arg.ctype.name if isinstance(arg.ctype, C.TilingT | C.StructT | C.ClassT) else None
        if given is not None and wanted in records and wanted != given.partition("<")[0]:
            return True
    return False


def _scalar_conversion(fn: A.FunctionDecl, args: Sequence[Val]) -> bool:
    """Whether a by-value scalar parameter of `fn` names another scalar type than its argument has (a
    template taking T would match that argument exactly, and C++ prefers it)."""
    for param, arg in zip(fn.params, args):
        base = param.type.base
        spelt = base if isinstance(base, str) else (
            base.parts[-1].name if base.parts and not base.parts[-1].template_args else None)
        named = C.scalar_named(spelt) if spelt is not None and not param.type.pointers else None
        if named is not None and isinstance(arg.ctype, Scalar) and named != arg.ctype:
            return True
    return False


_TENSOR_CLASSES: dict[str, type] = {"LocalTensor": C.LocalTensorT, "GlobalTensor": C.GlobalTensorT}


def explicit_types(lw: FunctionLowerer, fn: A.FunctionDecl, targs: list[A.TemplateArg] | None,
                   args: Sequence[Val]) -> dict[str, object]:
    """Template bindings of a function template: explicit arguments, then deduction from the arguments."""
    params = lw.scope.function_templates.get(id(fn)) or []
    bound: dict[str, object] = {}
    for i, p in enumerate(params):
        if p.name is None:
            continue
        if p.variadic and targs and i <= len(targs):
            # `GetCoordByAxis<0, 1>()` for `template <int... Is>`: the pack of the remaining explicit arguments
            bound[p.name] = Pack(tuple(lw._template_arg_value(a) for a in targs[i:]))
            break
        if targs and i < len(targs):
            bound[p.name] = lw._template_arg_value(targs[i])
    names = {p.name for p in params if p.name}
    for i, (param, arg) in enumerate(zip(fn.params, args)):
        if param.variadic and isinstance(param.type.base, A.QualifiedName):
            # `Ts const &... values`: the pack of the remaining arguments' types
            pack = param.type.base.parts[-1].name
            if pack in names and pack not in bound:
                bound[pack] = Pack(tuple(a.ctype for a in args[i:]))
            break
        _deduce(param.type, arg.ctype, names, bound)
    for p in params:
        if p.name and p.name not in bound and p.default is not None:
            bound[p.name] = lw._default_template_value(p)
    return bound


def _deduce(t: A.TypeRef, actual: CType, names: set[str], bound: dict[str, object]) -> None:
    if isinstance(t.base, str):
        return
    last = t.base.parts[-1]
    if last.name in names and last.name not in bound and not last.template_args:
        if isinstance(actual, C.Pointer) and t.pointers and "*" in t.pointers:
            actual = actual.pointee
        bound[last.name] = actual
        return
    if last.template_args and isinstance(actual, C.ClassT) and actual.name.partition("<")[0] == last.name:
        # `CrossCoreFlagWithReverse<DEPTH> &flag` given a CrossCoreFlagWithReverse<16>: DEPTH is 16
        for targ, value in zip(last.template_args, actual.args):
            inner = targ.value.type if isinstance(targ.value, A.TypeArgExpr) else targ.value
            n = (inner.base.parts[-1].name if isinstance(inner, A.TypeRef) and isinstance(inner.base, A.QualifiedName)
                 and len(inner.base.parts) == 1 and not inner.base.parts[0].template_args else
                 inner.qname.parts[0].name if isinstance(inner, A.Name) and len(inner.qname.parts) == 1 else None)
            if n is not None and n in names and n not in bound:
                bound[n] = value
        return
    if last.template_args and isinstance(actual, C.LocalTensorT | C.GlobalTensorT):
        if last.name in names and last.name not in bound:  # `R<T>& x`: R is a template template parameter
            bound[last.name] = C.TemplateNameT("LocalTensor" if isinstance(actual, C.LocalTensorT) else "GlobalTensor")
        arg = last.template_args[0].value
        if isinstance(arg, A.TypeRef) and isinstance(arg.base, A.QualifiedName):
            n = arg.base.parts[-1].name
            if n in names and n not in bound and actual.elem is not None:
                bound[n] = actual.elem


def _deduction_fails(lw: FunctionLowerer, fn: A.FunctionDecl, args: Sequence[Val]) -> bool:
    """Whether `fn` is a function template with a parameter of a class template's type (`C<t>`, `Coord<N, T>`)
    given a scalar argument: deduction fails there (no conversion is considered), so C++ drops the candidate."""
    if id(fn) not in lw.scope.function_templates:
        return False
    for param, arg in zip(fn.params, args):
        base = param.type.base
        if isinstance(base, str) or not base.parts or param.variadic or param.type.pointers:
            continue
        last = base.parts[-1]
        if last.template_args and last.name in lw.scope.classes and isinstance(arg.ctype, Scalar):
            return True
    return False


def _min_max(lw: FunctionLowerer, e: A.Call, name: str, lowered: Sequence[Val] | None = None) -> Val:
    a, b = lowered if lowered is not None else (lw.expr(e.args[0]), lw.expr(e.args[1]))
    less = lw.compare("<", a, b, e)
    if isinstance(a.ctype, Scalar) and isinstance(b.ctype, Scalar):
        t = C.common_type(a.ctype, b.ctype)
        a, b = lw.convert(a, t, e), lw.convert(b, t, e)
        if less.const is not None:
            return (a if less.const else b) if name == "min" else (b if less.const else a)
        first, second = (a, b) if name == "min" else (b, a)
        op = arith.SelectOp(lw.ssa(less, e), lw.ssa(first, e), lw.ssa(second, e))
        return Val(t, lw.emit(op, e).results[0])
    raise Unsupported(f"{name} of non-arithmetic values", e)


# The device compiler's scalar math: the C++ overloads without the libm `f` suffix (`sqrtf` and friends
# are undeclared in device code, and stay undeclared here). Name -> (math op, argument count).
# Real build logs: `sqrtf` -> "did you mean 'sqrt'?", but `exp` -> "use of undeclared identifier 'exp'", so
# only the functions a log shows to exist are modelled; the rest stay undeclared, as on the device.
_SCALAR_MATH: dict[str, tuple[type, int]] = {
    "sqrt": (math.SqrtOp, 1), "abs": (math.AbsFOp, 1),
}  # fmt: skip
# the compiler's float constants: `-__builtin_inff()` is a float (its value is not followed)
_FLOAT_BUILTINS = frozenset({"__builtin_inff", "__builtin_nanf", "__builtin_huge_valf"})
# Clang's builtins that the compiler expands itself, with no call to a library: constants, bit counts, hints,
# overflow checks; and the device compiler's own __builtin_cce_* instructions. The C library's functions
# spelt __builtin_expf, __builtin_sqrtf ... are not among them: they compile to a call of expf, which the
# device has no library for (KernelHive conv2d_multiply_leaky_relu_gelu: "ld.lld: error: undefined symbol:
# expf"), and stay reported.
_CLANG_BUILTINS = frozenset(f"__builtin_{name}" for name in (
    "inf", "inff", "infl", "nan", "nanf", "nanl", "huge_val", "huge_valf", "huge_vall",
    "clz", "clzl", "clzll", "ctz", "ctzl", "ctzll", "popcount", "popcountl", "popcountll", "ffs", "ffsl", "ffsll",
    "parity", "parityl", "parityll", "bswap16", "bswap32", "bswap64",
    "expect", "expect_with_probability", "unreachable", "assume", "unpredictable", "constant_p",
    "types_compatible_p", "add_overflow", "sub_overflow", "mul_overflow", "prefetch", "offsetof",
))


def _clang_builtin(name: str) -> bool:
    return name in _CLANG_BUILTINS or name.startswith("__builtin_cce_")


_LIBM_HINTS = {"sqrtf": "sqrt", "fabsf": "abs", "fabs": "abs"}


def _scalar_math(lw: FunctionLowerer, e: A.Call, name: str) -> Val:
    args = [lw.expr(a) for a in e.args]
    if name == "abs" and isinstance(args[0].ctype, Scalar) and not args[0].ctype.is_float:
        t = C.promote(args[0].ctype)
        x = lw.convert(args[0], t, e)
        return Val(t, lw.emit(math.AbsIOp(lw.ssa(x, e)), e).results[0])
    t = C.F32
    for a in args:
        if isinstance(a.ctype, Scalar) and a.ctype.is_float and a.ctype.bits > t.bits:
            t = a.ctype
    operands = [lw.ssa(lw.convert(a, t, e), e) for a in args]
    op_cls = _SCALAR_MATH[name][0]
    return Val(t, lw.emit(op_cls(*operands), e).results[0])


def _intrinsic_sync(lw: FunctionLowerer, e: A.Call, name: str) -> Val:
    """The compiler intrinsics under the sync APIs: `pipe_barrier(PIPE_V)` is PipeBarrier<PIPE_V>(),
    `set_flag(PIPE_MTE2, PIPE_V, id)` is SetFlag<HardEvent::MTE2_V>(id)."""
    args = [lw.expr(a) for a in e.args]
    pipes = [str(a.const) for a in args if isinstance(a.ctype, C.EnumT) and isinstance(a.const, str)]
    if name == "pipe_barrier" and len(args) == 1 and pipes:
        api, targs, operands = "PipeBarrier", [StringAttr(pipes[0])], []
    elif name != "pipe_barrier" and len(args) == 3 and len(pipes) == 2:
        event = f"{pipes[0].removeprefix('PIPE_')}_{pipes[1].removeprefix('PIPE_')}"
        api, targs, operands = ("SetFlag" if name == "set_flag" else "WaitFlag"), [StringAttr(event)], [
            lw.ssa(lw.convert(args[2], C.I32, e), e)]
    else:
        raise Unsupported(f"'{name}' takes pipes and an event id", e)
    lw.emit(asc.SyncOp(api, operands, overload=lw.catalog.first_overload(api), template_args=targs), e)
    return Val(C.VoidT())


def _opaque(lw: FunctionLowerer, e: A.Call, name: str, args: Sequence[Val]) -> Val:
    operands = [a.ssa if a.ssa is not None else lw.ssa(a, e) for a in args
                if a.ssa is not None or (a.const is not None and isinstance(a.ctype, Scalar | C.EnumT))]
    op = asc.OpaqueCallOp.create(operands=operands, properties={"callee": StringAttr(name)})
    lw.emit(op, e)
    return Val(C.UnknownT(name))


def _lower_args(lw: FunctionLowerer, args: Sequence[A.Node], tolerant: bool = False) -> list[Val]:
    out: list[Val] = []
    for a in lw.expand_packs(args, args[0]) if args else ():
        if isinstance(a, A.TypeRef):
            t = lw.resolve_type(a)
            out.append(Val(t, obj=("type", t)))
            continue
        if isinstance(a, A.InitList):
            out.append(Val(C.UnknownT("init-list"), obj=("init", a)))
            continue
        if tolerant:
            try:
                out.append(lw.expr(a))
            except Unsupported:
                out.append(Val(C.UnknownT()))
        else:
            out.append(lw.expr(a))
    return out


# ----------------------------------------------------------------------------------------------------
# the kernel-entry macros
# ----------------------------------------------------------------------------------------------------


def _macro_name_arg(node: A.Node) -> str | None:
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    if isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName):
        return node.base.parts[-1].name
    if isinstance(node, A.TypeArgExpr):
        return _macro_name_arg(node.type)
    return None


def _get_tiling_data(lw: FunctionLowerer, e: A.Call) -> Val:
    """GET_TILING_DATA(td, tiling) and its WITH_STRUCT / PTR forms: declares `td`."""
    callee = e.callee
    assert isinstance(callee, A.Name)
    macro = callee.qname.parts[-1].name
    args = e.args
    struct: str | None = None
    if macro in ("GET_TILING_DATA_WITH_STRUCT", "GET_TILING_DATA_PTR_WITH_STRUCT") and len(args) == 3:
        struct = _macro_name_arg(args[0])
        args = args[1:]
    if len(args) < 2:
        raise Unsupported(f"{macro} needs a variable name and the tiling pointer", e)
    var = _macro_name_arg(args[0])
    if var is None:
        raise Unsupported(f"the first argument of {macro} must be a name", e)
    struct = struct or lw.options.tiling_struct or "TilingData"  # type: ignore[attr-defined]
    ptr = lw.expr(args[1])
    p = lw.ssa(ptr, e)
    if not isinstance(p.type, asc.GmPtrType):
        raise Unsupported(f"{macro} needs the kernel's tiling pointer", e)
    op = asc.GetTilingDataOp.create(operands=[p], result_types=[asc.TilingType(struct)])
    value = lw.emit(op, e).results[0]
    value.name_hint = var
    val = Val(C.TilingT(struct), value)
    if macro == "GET_TILING_DATA_PTR_WITH_STRUCT":
        lw.bind(var, Val(C.Pointer(C.TilingT(struct), gm=True), p))
    else:
        lw.bind(var, val)
    return Val(C.VoidT())


def _copy_tiling(lw: FunctionLowerer, e: A.Call) -> Val:
    """COPY_TILING_WITH_STRUCT(Struct, src, dst) (kernel_tiling.h): declares `dst`, a pointer to a local copy
    of the Struct that `src` points to: the kernel's tiling pointer, or a struct inside tiling data already
    read (`&tdp->mm0Tiling`, ops-nn fused_linear_cross_entropy_loss_grad). Reads through it are the tiling's."""
    if len(e.args) != 3:
        raise Unsupported("COPY_TILING_WITH_STRUCT takes a struct, a source pointer and a name", e)
    struct, var = _macro_name_arg(e.args[0]), _macro_name_arg(e.args[2])
    if struct is None or var is None:
        raise Unsupported("COPY_TILING_WITH_STRUCT needs a struct and a variable name", e)
    src = lw.expr(e.args[1])
    if isinstance(src.ctype, C.Pointer) and src.ctype.gm and not isinstance(src.ctype.pointee, C.TilingT):
        p = lw.ssa(src, e)
        if isinstance(p.type, asc.GmPtrType):  # the kernel's `GM_ADDR tiling`
            lw.bind(var, Val(C.Pointer(C.TilingT(struct), gm=True), p))
            return Val(C.VoidT())
    if not isinstance(src.ctype, C.Pointer):
        raise Unsupported("COPY_TILING_WITH_STRUCT needs a pointer to copy from", e)
    lw.bind(var, src)
    return Val(C.VoidT())


def _get_tiling_data_member(lw: FunctionLowerer, e: A.Call) -> Val:
    """GET_TILING_DATA_MEMBER(Struct, member, var, tiling): declares `var` as one field."""
    if len(e.args) != 4:
        raise Unsupported("GET_TILING_DATA_MEMBER takes four arguments", e)
    struct, member, var = (_macro_name_arg(a) for a in e.args[:3])
    if not (struct and member and var):
        raise Unsupported("GET_TILING_DATA_MEMBER needs names", e)
    p = lw.ssa(lw.expr(e.args[3]), e)
    tiling = Val(C.TilingT(struct), lw.emit(asc.GetTilingDataOp.create(operands=[p], result_types=[asc.TilingType(struct)]), e).results[0])
    lw.bind(var, lw.tiling_field(tiling, member, e))
    return Val(C.VoidT())


def _tiling_key_is(lw: FunctionLowerer, e: A.Call) -> Val:
    key = lw.const_eval(e.args[0]) if e.args else None
    if not isinstance(key, int):
        raise Unsupported("TILING_KEY_IS needs a constant key", e)
    if lw.tiling_key is not None:
        return Val(C.BOOL, const=int(key == lw.tiling_key))
    op = asc.TilingKeyIsOp.create(properties={"key": IntegerAttr(key, 64)}, result_types=[C.scalar_ir_type(C.BOOL)])
    return Val(C.BOOL, lw.emit(op, e).results[0])


def _kernel_task_type(lw: FunctionLowerer, e: A.Call) -> Val:
    if e.args:
        name = _macro_name_arg(e.args[-1])
        if name in _KERNEL_TYPES and (lw.kernel_type == "default" or e.callee.qname.parts[-1].name == "KERNEL_TASK_TYPE_DEFAULT"):  # type: ignore[union-attr]
            lw.kernel_type = _KERNEL_TYPES[name]
    return Val(C.VoidT())


def _branch_hint(lw: FunctionLowerer, e: A.Call) -> Val:
    """`likely(c)` / `unlikely(c)` (macros of the AscendC headers) and `__builtin_expect(c, v)`: the value of c."""
    if not e.args:
        raise Unsupported(f"'{e.callee.qname.parts[-1].name}' needs an argument", e)  # type: ignore[union-attr]
    return lw.expr(e.args[0])


# Compiler builtins older kernels call directly, and the AscendC API that wraps each.
_BUILTIN_ALIASES = {"get_block_idx": "GetBlockIdx", "get_block_num": "GetBlockNum"}

_MACROS = {
    "likely": _branch_hint,
    "unlikely": _branch_hint,
    "__builtin_expect": _branch_hint,
    "GET_TILING_DATA": _get_tiling_data,
    "GET_TILING_DATA_WITH_STRUCT": _get_tiling_data,
    "GET_TILING_DATA_PTR_WITH_STRUCT": _get_tiling_data,
    "GET_TILING_DATA_MEMBER": _get_tiling_data_member,
    "COPY_TILING_WITH_STRUCT": _copy_tiling,
    "TILING_KEY_IS": _tiling_key_is,
    "KERNEL_TASK_TYPE_DEFAULT": _kernel_task_type,
    "KERNEL_TASK_TYPE": _kernel_task_type,
}


# ----------------------------------------------------------------------------------------------------
# methods
# ----------------------------------------------------------------------------------------------------


def _method_call(lw: FunctionLowerer, e: A.Call, callee: A.Member, expected: CType | None) -> Val:
    name = callee.member
    targs = callee.template_args
    if isinstance(callee.obj, A.This):
        if lw.frame.this is None:
            raise Unsupported("'this' outside a member function", e)
        recv = Val(lw.frame.this.ctype, obj=lw.frame.this)
    else:
        recv = lw.expr(callee.obj)
    if isinstance(recv.ctype, C.Pointer) and isinstance(recv.obj, Instance):
        recv = Val(recv.obj.ctype, obj=recv.obj)
    elif code_pointer.is_pointer(recv):  # `ptr->Method()` with `Kernel *ptr = this`
        reached = code_pointer.objects_at(lw, recv, e)
        if len(reached) > 1 and not targs:  # one of several objects: the method of each, under a test of which
            return code_pointer.each_object(lw, recv, e, lambda held: lw._operator_call(held, name, e, e.args))
        recv = Val(reached[0][1].ctype, obj=reached[0][1])
    elif isinstance(recv.ctype, C.Pointer) and not isinstance(recv.ctype.pointee, Scalar | C.VoidT):
        recv = Val(recv.ctype.pointee, recv.ssa, obj=recv.obj)  # `pipe->InitBuffer(...)`: objects, not memory
    inst = recv.obj if isinstance(recv.obj, Instance) else None
    if inst is not None:
        found = inst.find_method(name)
        if found is None and inst.whole is not None:
            # a base-class part calling what only the derived class declares: the CRTP idiom
            # (`static_cast<Derived*>(this)->Compute(n)`) dispatches to the object it is part of
            found = inst.outermost().find_method(name)
        if found is None:
            member = inst.members.get(name)
            if isinstance(member, Instance) and member.find_method("operator()") is not None:
                return lw._operator_call(member, "operator()", e, e.args)  # `params.callback()`: a function object
            called = code_pointer.call(lw, e, member, lambda: _lower_args(lw, e.args))
            if called is not None:
                return called  # `hook.invoke(target)`: a function pointer member
            element = _tensor_element(lw, e, callee) if name in inst.members else None
            if element is not None:
                return element
            raise Unsupported(f"'{inst.info.name}' has no method '{name}'", e)
        return _inline_method(lw, e, found, name, targs)
    t = recv.ctype
    if isinstance(t, C.ObjectT) and t.name.startswith("LocalMemAllocator") and name == "Alloc":
        return _local_alloc(lw, e, recv, targs, expected)
    receiver = _receiver_name(t)
    if receiver is None:
        raise Unsupported(f"method '{name}' called on a value of type {t}", e)
    special = _DEDICATED.get((receiver, name))
    if special is not None:
        result = special(lw, e, recv, targs, expected)
        if result is not None:
            return result
    if not lw.catalog.has_api(name, receiver):
        closest = lw.catalog.closest(name, receiver)
        lw.report.unknown_api(f"{receiver}::{name}", e, closest)
        return _opaque(lw, e, f"{receiver}::{name}", [recv, *_lower_args(lw, e.args, tolerant=True)])
    return api_call(lw, e, name, receiver, recv, targs, expected)


_HARDWARE_POSITION = {"UB": "VECCALC", "L1": "A1", "L0A": "A2", "L0B": "B2", "L0C": "CO1", "BIAS": "C2"}


def _local_alloc(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                 expected: CType | None) -> Val:
    """`Alloc<T, N>()`, `Alloc<TPosition::X, T>(n)`, `Alloc<TPosition::X, T, N>()`."""
    values = [lw._template_arg_value(a) for a in targs or []]
    position = next((v for v in values if isinstance(v, str) and v in asc.POSITIONS), None)
    elem = next((v for v in values if isinstance(v, Scalar)), None)
    if elem is None and isinstance(expected, C.LocalTensorT):
        elem = expected.elem
    counts = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    args = _lower_args(lw, e.args)
    if args:
        count = lw.convert(args[0], C.U32, e)
    elif counts:
        count = Val(C.U32, const=counts[-1])
    else:
        raise Unsupported("LocalMemAllocator::Alloc needs an element count", e)
    assert isinstance(recv.ctype, C.ObjectT)
    hardware = recv.ctype.name.partition("<")[2].rstrip(">")
    t = C.LocalTensorT(elem, position or _HARDWARE_POSITION.get(hardware, asc.UNKNOWN_POSITION))
    op = asc.LocalAllocOp.create(operands=[lw.ssa(recv, e), lw.ssa(count, e)], result_types=[C.ir_type(t)])
    return Val(t, lw.emit(op, e).results[0])


def _receiver_name(t: CType) -> str | None:
    match t:
        case C.PipeT():
            return "TPipe"
        case C.QueueT():
            return "TQue"
        case C.BufT():
            return "TBuf"
        case C.GlobalTensorT():
            return "GlobalTensor"
        case C.LocalTensorT():
            return "LocalTensor"
        case C.ObjectT(name):
            return name
        case _:
            return None


def _elem_from(lw: FunctionLowerer, targs: list[A.TemplateArg] | None, expected: CType | None) -> Scalar | None:
    if targs:
        v = lw._template_arg_value(targs[0])
        if isinstance(v, Scalar):
            return v
    if isinstance(expected, C.LocalTensorT):
        return expected.elem
    return None


def _init_buffer(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = _lower_args(lw, e.args)
    if not args or not isinstance(args[0].ctype, C.QueueT | C.BufT):
        return None
    buf = args[0]
    if isinstance(buf.ctype, C.QueueT) and len(args) == 3:
        num, length = lw.convert(args[1], C.U32, e), lw.convert(args[2], C.U32, e)
        operands = [lw.ssa(recv, e), lw.ssa(buf, e), lw.ssa(num, e), lw.ssa(length, e)]
    elif isinstance(buf.ctype, C.BufT) and len(args) == 2:
        length = lw.convert(args[1], C.U32, e)
        operands = [lw.ssa(recv, e), lw.ssa(buf, e), lw.ssa(length, e)]
    else:
        return None
    # Op.create with the operands in order: the same op (one optional operand needs no segment sizes), built
    # without the IRDL constructor's argument checks, which cost ~40 us (the module is verified afterwards)
    op = asc.InitBufferOp.create(operands=operands)
    lw.emit(op, e)
    return Val(C.VoidT())


def _alloc_or_deque(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                    expected: CType | None) -> Val | None:
    if e.args:
        return None  # the in-place forms take a tensor: catalogued generic call
    q = recv.ctype
    assert isinstance(q, C.QueueT)
    elem = _elem_from(lw, targs, expected)
    t = C.LocalTensorT(elem, q.position)
    method = e.callee.member  # type: ignore[union-attr]
    cls = asc.AllocTensorOp if method == "AllocTensor" else asc.DeQueOp
    op = cls.create(operands=[lw.ssa(recv, e)], result_types=[C.ir_type(t)])
    return Val(t, lw.emit(op, e).results[0])


def _enque_or_free(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                   expected: object) -> Val | None:
    args = _lower_args(lw, e.args)
    if len(args) != 1 or not isinstance(args[0].ctype, C.LocalTensorT):
        return None
    method = e.callee.member  # type: ignore[union-attr]
    named = _elem_from(lw, targs, None)
    given = args[0].ctype.elem
    if isinstance(named, Scalar) and isinstance(given, Scalar) and named != given:
        # `EnQue<T>(const LocalTensor<T>&)` with T named: no conversion between tensors of two element types.
        # The op is still built, so the queue's protocol is followed as written.
        lw.report.no_match(method, e, f"no matching function for call to '{method}<{named}>': it takes a "
                                      f"LocalTensor<{named}>, the argument is a LocalTensor<{given}>", [])
    operands = [lw.ssa(recv, e), lw.ssa(args[0], e)]
    if method == "EnQue":
        op = asc.EnQueOp.create(operands=operands, result_types=[C.scalar_ir_type(C.BOOL)])
        return Val(C.BOOL, lw.emit(op, e).results[0])
    lw.emit(asc.FreeTensorOp.create(operands=operands), e)
    return Val(C.VoidT())


def _tbuf_get(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
              expected: CType | None) -> Val | None:
    b = recv.ctype
    assert isinstance(b, C.BufT)
    args = _lower_args(lw, e.args)
    method = e.callee.member  # type: ignore[union-attr]
    if method == "GetWithOffset" and len(args) != 2 or method == "Get" and len(args) > 1:
        return None
    elem = _elem_from(lw, targs, expected)
    t = C.LocalTensorT(elem, b.position)
    count = [lw.ssa(lw.convert(args[0], C.U32, e), e)] if args else []
    offset = [lw.ssa(lw.convert(args[1], C.U32, e), e)] if len(args) > 1 else []
    op = asc.TBufGetOp.create(operands=[lw.ssa(recv, e), *count, *offset], result_types=[C.ir_type(t)],
                              properties={"operandSegmentSizes": _segments(1, len(count), len(offset))})
    return Val(t, lw.emit(op, e).results[0])


def _set_global_buffer(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = _lower_args(lw, e.args)
    if not args or len(args) > 2:
        return None
    g = recv.ctype
    assert isinstance(g, C.GlobalTensorT)
    ptr = args[0]
    if not isinstance(ptr.ctype, C.Pointer) or ptr.ssa is None:
        return None
    ptr = lw.pointer_cast(ptr, C.Pointer(g.elem or C.U8, gm=True), e)
    count = [lw.ssa(lw.convert(args[1], C.U64, e), e)] if len(args) == 2 else []
    # Op.create, as in _init_buffer: the same op as the IRDL constructor's, several times cheaper
    lw.emit(asc.SetGlobalBufferOp.create(operands=[lw.ssa(recv, e), lw.ssa(ptr, e), *count]), e)
    return Val(C.VoidT())


def _get_value(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = _lower_args(lw, e.args)
    t = recv.ctype
    elem = t.elem if isinstance(t, C.LocalTensorT | C.GlobalTensorT) else None
    if len(args) != 1 or elem is None:
        return None
    op = asc.GetValueOp.create(operands=[lw.ssa(recv, e), lw.ssa(args[0], e)], result_types=[C.scalar_ir_type(elem)])
    return Val(elem, lw.emit(op, e).results[0])


def _tensor_element(lw: FunctionLowerer, e: A.Call, callee: A.Node) -> Val | None:
    """`xLocal(i)` / `this->reduceRes(0)`: a tensor's operator(), its element i as GetValue reads it; None
    when the callee is no tensor or the call has not one argument."""
    if len(e.args) != 1:
        return None
    tensor = lw.expr(callee)
    if not isinstance(tensor.ctype, C.LocalTensorT | C.GlobalTensorT):
        return None
    return _get_value(lw, e, tensor, None, None)


def _set_value(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = _lower_args(lw, e.args)
    t = recv.ctype
    elem = t.elem if isinstance(t, C.LocalTensorT | C.GlobalTensorT) else None
    if len(args) != 2 or elem is None:
        return None
    lw.set_tensor_element(recv, args[0], args[1], e)
    return Val(C.VoidT())


def _reinterpret_cast(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                      expected: CType | None) -> Val | None:
    t = recv.ctype
    assert isinstance(t, C.LocalTensorT)
    elem = _elem_from(lw, targs, expected)
    if elem is None or e.args:
        return None
    out = C.LocalTensorT(elem, t.position)
    op = asc.ReinterpretCastOp.create(operands=[lw.ssa(recv, e)], result_types=[C.ir_type(out)])
    return Val(out, lw.emit(op, e).results[0])


@lru_cache(maxsize=64)
def _segments(*sizes: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(sizes))


_DEDICATED = {
    ("TPipe", "InitBuffer"): _init_buffer,
    ("TQue", "AllocTensor"): _alloc_or_deque,
    ("TQue", "DeQue"): _alloc_or_deque,
    ("TQue", "EnQue"): _enque_or_free,
    ("TQue", "FreeTensor"): _enque_or_free,
    ("TBuf", "Get"): _tbuf_get,
    ("TBuf", "GetWithOffset"): _tbuf_get,
    ("GlobalTensor", "SetGlobalBuffer"): _set_global_buffer,
    ("GlobalTensor", "GetValue"): _get_value,
    ("LocalTensor", "GetValue"): _get_value,
    ("GlobalTensor", "SetValue"): _set_value,
    ("LocalTensor", "SetValue"): _set_value,
    ("LocalTensor", "ReinterpretCast"): _reinterpret_cast,
    **list_tensor.METHODS,
}


# ----------------------------------------------------------------------------------------------------
# catalogued API calls
# ----------------------------------------------------------------------------------------------------


def api_call(lw: FunctionLowerer, e: A.Call, name: str, receiver: str | None, recv: Val | None,
             targs: list[A.TemplateArg] | None, expected: CType | None) -> Val:
    """A call of a catalogued API: resolve the overload, lower the arguments, emit the family op."""
    args = _lower_args(lw, e.args)
    if any(isinstance(a.ctype, C.RegisterApiT) for a in args):
        # `Compares(maskReg, vReg, scalar, preg)` after `using namespace MicroAPI`: the register API's
        # function of that name, not the catalogued vector one
        lw.report.register_api(e)
        return _opaque(lw, e, name, args)
    template_values = [lw._template_arg_value(a) for a in targs or []]
    resolution = lw.catalog.resolve(name, [_arg_info(a) for a in args], [_targ_text(v) for v in template_values], receiver)
    if resolution.error is not None:
        lw.report.no_match(name, e, resolution.error, resolution.candidates)
    api = resolution.api
    # brace-initialised arguments take the type of the parameter they bind to
    for i, a in enumerate(args):
        if isinstance(a.obj, tuple) and a.obj[0] == "init":
            ptype = resolution.param_type(i)
            args[i] = lw.init_list(lw.named_type(ptype, None) if ptype else C.UnknownT(), a.obj[1].items, e)
    operands: list[SSAValue] = []
    if recv is not None:
        operands.append(lw.ssa(recv, e))
    written_cells = _output_cells(lw, e, resolution, args)
    for i, a in enumerate(args):
        if i in written_cells:
            operands.append(written_cells[i].ref)  # `T&`: the call stores into the variable's cell
            continue
        a = lw.tiling_argument(a, e)
        want = resolution.scalar_param_type(i)
        if want is not None and isinstance(a.ctype, Scalar) and const_fits(a.const, want):
            # (a constant that does not fit keeps the value as written: that is what checks need to see)
            a = lw.convert(a, want, e)
        if a.ssa is None and a.const is None and isinstance(a.obj, tuple) and a.obj[0] == "type":
            operands.append(lw.undef(C.UnknownT(), e))  # a type passed to a macro-style API: keeps arity
            continue
        operands.append(lw.ssa(a, e))
    result_t = resolution.result_type(lw, recv, template_values, expected)
    if not template_values:
        template_values = ub_pointer.pointee_template_args(args)
    family = api.family if api is not None else "system"
    op_cls = asc.FAMILY_OPS[family]
    op = op_cls(
        name,
        operands,
        overload=resolution.overload_id or "",
        template_args=[_targ_attr(v) for v in template_values],
        result_type=C.ir_type(result_t) if result_t is not None and not isinstance(result_t, C.VoidT) else None,
    )
    lw.emit(op, e)
    for i, arg in enumerate(e.args):
        written = written_root(arg) if resolution.is_output(i) and i not in written_cells else None
        if written is not None:
            lw.forget_scalar(written, e)  # GatherMask(..., rsvdCnt): the call writes the count it kept
    if result_t is None or isinstance(result_t, C.VoidT):
        return Val(C.VoidT())
    return Val(result_t, op.results[0])


def _output_cells(lw: FunctionLowerer, e: A.Call, resolution: object, args: list[Val]) -> dict[int, Cell]:
    """The scalar variables passed to `T&` parameters (GetReduceMaxMinCount's value and index), as cells the
    simulator's call writes. A variable never assigned in its own body is a constant binding: it gets a cell
    now, holding its current value, when it is declared in the block of the call (a cell made here for an
    outer block's variable would not dominate its later reads); others stay as they are (the call's write is
    then only forgotten, see api_call)."""
    cells: dict[int, Cell] = {}
    for i, (a, node) in enumerate(zip(args, e.args)):
        if not resolution.is_output(i) or not isinstance(a.ctype, Scalar):  # type: ignore[attr-defined]
            continue
        if isinstance(a.obj, Cell) and isinstance(a.obj.ctype, Scalar):
            if not a.obj.at:  # (a field of an element of an object array: the call's write is forgotten)
                cells[i] = a.obj
            continue
        if not isinstance(node, A.Name) or len(node.qname.parts) != 1:
            continue
        name = node.qname.parts[0].name
        scope = lw.frame.scopes[-1]
        bound = scope.get(name)
        if isinstance(bound, Val) and isinstance(bound.ctype, Scalar):
            cell = lw.new_cell(bound.ctype, name, e, bound)
            scope[name] = cell
            cells[i] = cell
    return cells


def _arg_info(v: Val) -> object:
    from ascendir.catalog.resolve import ArgInfo

    t = v.ctype
    if isinstance(v.obj, tuple) and v.obj[0] == "tiling_path":
        return ArgInfo("unknown")  # a field of tiling data without a layout: read as uint32_t, may be a struct
    if isinstance(v.obj, tuple) and v.obj[0] == "init":
        # `{1, len, 0, 0}` straight into a call: a parameter struct (a one-element list may be a scalar)
        return ArgInfo("struct") if len(v.obj[1].items) != 1 else ArgInfo("unknown")
    literal = v.ssa is None and v.const is not None and not isinstance(v.const, str)
    match t:
        case C.LocalTensorT(elem, position):
            return ArgInfo("local_tensor", dtype=elem.name if elem else None,
                           position=None if position == asc.UNKNOWN_POSITION else position)
        case C.GlobalTensorT(elem):
            return ArgInfo("global_tensor", dtype=elem.name if elem else None)
        case Scalar(name):
            return ArgInfo("scalar", dtype=name, is_literal=literal)
        case C.StructT(name):
            return ArgInfo("struct", type_name=name)
        case C.TilingT(name, path):
            # a struct inside the tiling data (`td->softmaxTilingData`): its own type is not always known
            # (tiling_view names the root struct), so it stands for any struct
            return ArgInfo("struct", type_name=None if path else name)
        case C.EnumT(name):
            return ArgInfo("enum", type_name=name)
        case C.Pointer(pointee, _):
            return ArgInfo("pointer", dtype=pointee.name if isinstance(pointee, Scalar) else None)
        case C.QueueT():
            return ArgInfo("object", type_name="TQue")
        case C.BufT():
            return ArgInfo("object", type_name="TBuf")
        case C.PipeT():
            return ArgInfo("object", type_name="TPipe")
        case C.ObjectT(name):
            return ArgInfo("object", type_name=name)
        case C.ArrayT(C.Pointer(pointee, ub=True), _) if isinstance(pointee, Scalar):
            # `__ubuf__ T *list[16]` (uint64 addresses to us: ub_pointer.py): T is the pointee's
            return ArgInfo("mask_array", dtype=pointee.name)
        case C.ArrayT(elem, _):
            return ArgInfo("mask_array", dtype=elem.name if isinstance(elem, Scalar) else None)
        case _:
            return ArgInfo("unknown")


def _targ_text(v: object) -> str:
    if isinstance(v, Scalar):
        return v.name
    return str(v)


def _targ_attr(v: object) -> Attribute:
    if isinstance(v, Scalar):
        return C.element_ir_type(v)
    if isinstance(v, bool):
        return IntAttr(int(v))
    if isinstance(v, int):
        return IntAttr(v)
    return StringAttr(str(v))


__all__ = ["api_call", "lower_call"]
