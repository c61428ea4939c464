"""Lowering of calls: user functions and methods (inlined), AscendC APIs (resolved against the catalog),
and the macros of the kernel entry (GET_TILING_DATA, TILING_KEY_IS, KERNEL_TASK_TYPE_DEFAULT).

This module dispatches a call (lower_call) and lowers calls of free functions, static members and names
(_named_call); the rest lives by purpose in:

- calls_inline.py: user methods inlined (explicit specialisations per core type, static methods through a
  type);
- calls_overloads.py: which overload of a user function a call picks, and its template arguments
  (pick_overload, explicit_types);
- calls_builtins.py: the C++ library's and the compiler's functions (numeric_limits, min/max, scalar math,
  pipe_barrier / set_flag / wait_flag, clang builtins);
- calls_macros.py: the kernel-entry macros (GET_TILING_DATA, TILING_KEY_IS, KERNEL_TASK_TYPE_DEFAULT, likely)
  and CopyTiling-style copies of the tiling into a local struct;
- calls_methods.py: method calls (user objects' inlined; TPipe, TQue, TBuf and tensor methods lowered to their
  own ops);
- calls_api.py: catalogued AscendC API calls (api_call), opaque calls and the arguments' lowering.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ascendir.catalog import matmul_library_functions
from ascendir.lower import ctypes as C
from ascendir.lower import code_pointer, enable_if, function_tables, host_program, lambdas, matmul_config
from ascendir.lower import register_api
from ascendir.lower import ops_base_kernel, simt_launch, simt_math, softmax_tiling_impl
from ascendir.lower.calls_api import api_call as api_call, lower_args, opaque_call
from ascendir.lower.calls_builtins import (
    FLOAT_BUILTINS,
    LIBM_HINTS,
    SCALAR_MATH,
    clang_builtin,
    intrinsic_sync,
    min_max,
    declval,
    numeric_limit,
    scalar_math,
)
from ascendir.lower.calls_inline import inline_method, static_method_of_type as static_method_of_type
from ascendir.lower.calls_macros import MACROS, copies_tiling, tiling_copy
from ascendir.lower.calls_methods import method_call, tensor_element
from ascendir.lower.calls_overloads import (
    deduction_fails,
    explicit_types as explicit_types,
    in_written_namespace,
    pick_overload as pick_overload,
    takes,
    without_user_conversions,
)
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.function import REGISTER_API_FUNCTIONS, Unsupported, in_register_api
from ascendir.lower.header_names import TRANSPARENT_NAMESPACES
from ascendir.lower.values import FunctionRef, Instance, Val
from ascendir.lower.vector_intrinsics import is_vector_intrinsic, lower_pointer_intrinsic
from ascendir.lower.vector_intrinsics import is_mask_intrinsic, lower_mask_intrinsic
from ascendir.lower.impl_calls import is_impl_call, lower_impl_call
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


# Calls that only matter to the CPU-debug build or to the build system.
_IGNORED_CALLS = {
    "assert", "ASSERT", "static_assert", "KERNEL_LOG", "REGISTER_TILING_FOR_TILINGKEY",
    "ASCENDC_TPL_SEL_PARAM", "ICPU_SET_TILING_KEY", "AscendCUtils", "TRACE_START", "ascendc_assert",
    "TRACE_STOP", "SetKernelMode", "ICPU_RUN_KF", "ENABLE_DETERMINISTIC", "CHECK_ACL", "printf", "PRINTF",
    "DumpTensor", "DumpAccChkPoint", "AscendCDumpTensor",
    # loads instructions from GM into the instruction cache (asc-devkit docs ICachePreLoad(ISASI).md): a speed hint,
    # no data changes (catlass's grouped per-token-dequant kernels call it first)
    "ICachePreLoad",
    # the CCE compiler's builtins behind it (`preload(pc, len)` in asc-devkit dav_c220/kernel_operator_cache_impl.h),
    # which kernels also call directly (catlass's 19_mla: `icache_preload(1)`): the same hint
    "icache_preload", "preload",
    # the FFTS base address of the cross-core flags (asc-devkit dav_c220 kernel_operator_sync_impl.h:
    # set_ffts_base_addr; the 950's is empty): the simulator keeps the flags itself (catlass 19_mla sets it first)
    "SetSyncBaseAddr", "set_ffts_base_addr",
}  # fmt: skip

# vendor classes whose static methods the catalog holds as free APIs of the same name
# (AscendCUtils::SetMask<T>(n), SetMaskCount<T>(), SetMaskNorm<T>(): system.toml's mask control)
_CATALOGUED_STATICS = frozenset({"AscendCUtils"})

# the SIMT model's launch extent types (`dim3(THREAD_DIM)`, asc-devkit's `Dim3` alias)
_SIMT_TYPES = frozenset({"dim3", "Dim3"})


def lower_call(lw: FunctionLowerer, e: A.Call, expected: CType | None) -> Val:
    callee = e.callee
    if isinstance(callee, A.Member):
        return method_call(lw, e, callee, expected)
    if isinstance(callee, A.Name):
        return _named_call(lw, e, callee, expected)
    if isinstance(callee, A.Binary) and callee.op in ("->*", ".*"):
        return _member_pointer_call(lw, e, callee)
    if isinstance(callee, A.Unary) and callee.op == "*":
        # `(*static_cast<Func const *>(func))()`: the function object a pointer holds, or `(*f)(x)`
        pointer = lw.expr(callee.operand)
        if code_pointer.holds_functions(lw, pointer):
            return code_pointer.call(lw, e, pointer, lambda: lower_args(lw, e.args))  # type: ignore[return-value]
        if code_pointer.is_pointer(pointer):  # each object it may reach, under a test of which
            return code_pointer.each_object(lw, pointer, e,
                                            lambda held: lw._operator_call(held, "operator()", e, e.args))
        target = pointer.obj
        if isinstance(target, Instance) and target.find_method("operator()") is not None:
            return lw._operator_call(target, "operator()", e, e.args)
    else:  # `list[1]()`, `make()()`, `Product{}(x)` (tla): a function object
        through_table = function_tables.call(lw, e)
        if through_table is not None:
            return through_table  # `launchMap[key](args)`: a namespace-scope table of functions
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
    return inline_method(lw, e, found, method.ctype.name, None)


def _library_overload(lw: FunctionLowerer, name: str, args: Sequence[A.Expr]) -> bool:
    """Whether a call of a name the program defines is the library's function of that name: no function of the
    program takes that many arguments and the library has one. C++ sees both through `using namespace AscendC`
    and its overload resolution drops what cannot take the arguments: ops-nn mat_mul_nd2nz_util.h defines
    `Copy(dst, src, count)`, and its ND-to-NZ transposition calls the library's 5-argument UB-to-UB
    `Copy(dst, src, mask, repeatTime, CopyRepeatParams)` beside it (that call, inlined as the 3-argument helper,
    left the rows as they were and the Matmul read A and B in the wrong layout)."""
    if any(isinstance(a, A.PackExpansion) for a in args) or not lw.catalog.has_api(name):
        return False
    return not any(takes(f, len(args)) for f in lw.scope.functions[name])


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
    if lw.host_program is not None:
        value = host_program.call(lw, e, name)  # ACL runtime calls and std::atoi(argv[i]) of a host program
        if value is not None:
            return value
    if name in _BUILTIN_ALIASES and not e.args:
        name = _BUILTIN_ALIASES[name]  # the compiler builtin behind the AscendC call: get_block_idx()
    if (len(parts) >= 2 and _unmodelled_vendor_class(lw, parts[-2].name)
            and not (parts[-2].name in _CATALOGUED_STATICS and lw.catalog.has_api(name))):
        # static members of a vendor class the catalog does not model (`AscendCUtils::GetRsvdCnt()` after
        # GatherMask, `NumericLimits<T>::Lowest(dst, n)`): not the free API of that name, results unknown here
        return opaque_call(lw, e, f"{parts[-2].name}::{name}", lower_args(lw, e.args, tolerant=True))
    if len(parts) == 2 and parts[0].name == "numeric_limits" and parts[0].template_args and not e.args:
        return numeric_limit(lw, e, parts[0].template_args[0], name)
    if name == "declval" and targs and len(targs) == 1 and not e.args and name not in lw.scope.functions:
        return declval(lw, e, targs[0])
    if lw.host_program is None and ops_base_kernel.names_ops_base(lw, all_parts):
        # `Ops::Base::CeilDiv(n, f)`, `Ops::Base::GetUbBlockSize()`: ops-base's kernel helpers, out of an op
        # folder's reach (their GetVRegSize is not the register API's own: 256 off the register-API chips)
        return ops_base_kernel.call(lw, e, name, targs)
    if lw.host_program is None and (launched := simt_launch.call(lw, e, all_parts, name, targs)) is not None:
        return launched  # a SIMT launch (threads one after another), VF_CALL's SIMD form, a Simt:: thread query
    if lw.host_program is None and (value := simt_math.call(lw, e, all_parts, name, targs)) is not None:
        return value  # __umulhi, Simt::UintDiv, ...: a SIMT thread's index arithmetic
    if in_register_api(callee.qname) or name in REGISTER_API_FUNCTIONS:
        if lw.report.api_uncatalogued:  # the chips that have the register API (arch35): the modelled slice
            if name in ("GetVRegSize", "GetVecLen"):  # GetVecLen() is VECTOR_REG_WIDTH (sys_var_intf.h:75-82)
                return register_api.vreg_size(lw, e)
            value = register_api.call(lw, e, name, targs)
            if value is not None:
                return value
        lw.report.register_api(e)
        return opaque_call(lw, e, name, lower_args(lw, e.args, tolerant=True))
    macro = MACROS.get(name)
    if macro is not None:
        return macro(lw, e)
    aliased = (lw.aliased_part(*(p.name for p in parts[:-1])) if len(parts) >= 2 and parts[0].name not in lw.scope.classes
               else None)
    if aliased is not None and aliased.info.methods.get(name):
        # `Base::Init(tiling)` with `using Base = KernelBase<T>;`: the base part's method, on this object
        args = lower_args(lw, e.args)
        return lw.inline_function(pick_overload(aliased.info.methods[name], len(args), e, name, lw, args), args,
                                  aliased, e)
    inherited = aliased.find_method(name) if aliased is not None else None
    if inherited is not None:
        return inline_method(lw, e, inherited, name, targs)  # `Base::GetTensorAddr(i, p)`, declared by Base's base
    static = static_method_of_type(lw, parts) if len(parts) >= 2 and not explicit_ascendc else None
    if static is not None:
        return inline_method(lw, e, static, name, targs)
    if len(parts) == 2 and parts[0].name in lw.scope.classes:
        info = lw.scope.classes[parts[0].name]
        methods = info.methods.get(name)
        if methods:
            args = lower_args(lw, e.args)
            # `Base<T>::InitGlobal(...)` inside a method of a derived object runs on that object's Base part
            owner = lw.frame.this.part_named(info.name) if lw.frame.this is not None else None
            fn = pick_overload(methods, len(args), e, name, lw, args)
            # `LayerNormGradV3Base::GammaBetaPrologueCommon<PD_GAMMA_TYPE>(td_, ...)`: a member function template
            # called by its class's name binds its template arguments as any function template's call does
            return lw.inline_function(fn, args, owner, e, explicit_types(lw, fn, targs, args))
    # a call inside a class body to a method of the same class (not `AscendC::SyncAll()` inside the class's
    # own SyncAll(): the qualified name is the vendor API the method wraps)
    this = lw.frame.this
    found = this.find_method(name) if this is not None and len(parts) == 1 and not explicit_ascendc else None
    if found is not None:
        return inline_method(lw, e, found, name, targs)
    if len(parts) == 1:
        local = lw.lookup(name)
        if isinstance(local, Instance) and local.find_method("operator()") is not None:
            return lw._operator_call(local, "operator()", e, e.args)  # `matmul(params)`: a function object
        closure = lambdas.closure_of(local)
        if closure is not None:
            return lambdas.call(lw, closure, lower_args(lw, e.args), e)  # `split(2)`: a local lambda
        called = code_pointer.call(lw, e, local, lambda: lower_args(lw, e.args))
        if called is not None:
            return called  # `caller(func)`: the functions the pointer may hold (code_pointer.py)
        if isinstance(local, Val) and isinstance(local.obj, tuple) and local.obj[:1] == ("function",) \
                and isinstance(local.obj[-1], A.Name):
            # `func(dst, src0, src1, n, r, params)` with `func` a function pointer parameter given `Sub` (ops-nn
            # layer_norm_grad_v3): a call of the function the argument named, as written there ([expr.call]/1);
            # its arguments pick the overload the pointer's type picked, since they convert to its parameters
            return lower_call(lw, A.Call(e.span, local.obj[-1], e.args), expected)
        if local is not None:
            element = tensor_element(lw, e, callee)
            if element is not None:
                return element
            raise Unsupported(f"call of '{name}', which is a variable", e)
    if name in lw.scope.functions and not explicit_ascendc and not _library_overload(lw, name, e.args):
        args = lower_args(lw, e.args)
        # C++ drops a function template whose deduction fails; with none of the program's left, `min`/`max` are
        # the builtins (tla's `min(C<t>, C<u>)` seen through `using namespace tla` for two uint32_t)
        written = in_written_namespace(lw, all_parts[:-1], lw.scope.functions[name])
        fns = [f for f in written if not deduction_fails(lw, f, args, targs)]
        if not fns and name in ("min", "max") and len(args) == 2:
            return min_max(lw, e, name, args)
        fns = enable_if.enabled(lw, fns or written, None, targs)
        fns = without_user_conversions(lw, [f for f in fns if takes(f, len(args))] or fns, targs, args)
        fn = pick_overload(fns, len(args), e, name, lw, args)
        if copies_tiling(args):
            return tiling_copy(lw, e, args)
        return lw.inline_function(fn, args, None, e, explicit_types(lw, fn, targs, args))
    if name in lw.scope.prototypes and name not in lw.scope.functions and not explicit_ascendc:
        # declared here, defined in another translation unit (separate compilation): what it does is not seen
        opaque_call(lw, e, name, lower_args(lw, e.args, tolerant=True))
        t = lw.resolve_type(lw.scope.prototypes[name][0].return_type)
        if isinstance(t, Scalar):
            return Val(t, lw.undef(t, e))
        return Val(t if isinstance(t, C.VoidT) else C.UnknownT(name))
    if name in ("pipe_barrier", "set_flag", "wait_flag"):
        return intrinsic_sync(lw, e, name)
    if len(parts) == 1 and is_mask_intrinsic(name, len(e.args)):
        return lower_mask_intrinsic(lw, e, name, expected)
    if len(parts) == 1 and is_vector_intrinsic(name):
        lowered = lower_pointer_intrinsic(lw, e, name, expected)
        if lowered is not None:
            return lowered
        return opaque_call(lw, e, name, lower_args(lw, e.args, tolerant=True))
    if len(parts) == 1 and is_impl_call(name, len(e.args)):
        lowered = lower_impl_call(lw, e, name, expected)
        if lowered is not None:
            return lowered
    if name == "GetTPipePtr" and not e.args:
        pipe = lw.visible_pipe()
        if pipe is None:
            raise Unsupported("GetTPipePtr() before any TPipe is declared", e)
        return Val(C.Pointer(C.PipeT()), pipe)
    if name in ("min", "max") and len(e.args) == 2 and not lw.catalog.has_api(name):
        return min_max(lw, e, name)
    if name in SCALAR_MATH and len(e.args) == SCALAR_MATH[name][1]:
        return scalar_math(lw, e, name)
    if name in softmax_tiling_impl.FUNCTIONS and (explicit_ascendc or len(parts) == 1):
        return softmax_tiling_impl.call(lw, e, name)  # the SoftMaxTiling a kernel computes itself
    t = lw.named_type(name, targs)
    if not isinstance(t, C.UnknownT):
        return lw.init_list(t, e.args, e)  # `DataCopyParams(1, n, 0, 0)`, `half(0)`
    if len(parts) == 1 and lw.report.api_uncatalogued and name in register_api.REGISTER_ONLY_NAMES:
        # `pregLoop = UpdateMask<float>(n)` after `using namespace MicroAPI`: a name only the register API has
        value = register_api.call(lw, e, name, targs)
        if value is not None:
            return value
    if lw.catalog.has_api(name):
        return api_call(lw, e, name, None, None, targs, expected)
    if name in matmul_config.BUILDERS or name == "GetMMConfig":
        config = matmul_config.call(lw, e, name, targs)
        if config is not None:
            return config  # `GetMDLConfig(false, false, 0, ...)`: the constexpr MatmulConfig it makes
    if len(parts) == 1 and lw.report.api_uncatalogued and lw.catalog.vendor_declared(name):
        # `Reduce<ReduceType::SUM>(dst, src, mask)` / `Move(dst, src, mask)` after `using namespace MicroAPI` on
        # registers: the register API's function (a vendor-declared name the tensor catalog does not model, so
        # api_call's own register routing is not reached)
        mark = lw._mark()
        if any(isinstance(a.ctype, C.RegisterApiT) for a in lower_args(lw, e.args, tolerant=True)):
            lw._rollback(mark)
            value = register_api.call(lw, e, name, targs)
            if value is not None:
                return value
            lw.report.register_api(e)
            return opaque_call(lw, e, name, lower_args(lw, e.args, tolerant=True))
        lw._rollback(mark)
    if lw.catalog.vendor_declared(name) or ("matmul" in lw.scope.libraries and name in matmul_library_functions()):
        # an API the catalog does not model (or a helper of the included Matmul library): what it does is unknown
        return opaque_call(lw, e, name, lower_args(lw, e.args, tolerant=True))
    if name.startswith("asc_") or name in _SIMT_TYPES:
        # the vendor's C-style and SIMT API (asc_vf_call, asc_shfl, asc_get_block_idx ...; dim3(n)): lower-case,
        # outside the AscendC namespace and not modelled
        return opaque_call(lw, e, name, lower_args(lw, e.args, tolerant=True))
    if len(parts) == 1 and not explicit_ascendc and (lw.catalog.compiler_intrinsic(name) or clang_builtin(name)):
        # the device compiler's own functions (trap(), set_atomic_none(), __builtin_inff()): not modelled
        value = opaque_call(lw, e, name, lower_args(lw, e.args, tolerant=True))
        return Val(C.F32, lw.undef(C.F32, e)) if name in FLOAT_BUILTINS else value
    args = lower_args(lw, e.args, tolerant=True)
    if len(parts) == 1 and any(isinstance(a.ctype, C.RegisterApiT) for a in args):
        # `FusedMulDstAdd(x, scale, shift, preg)` on registers after `using namespace AscendC::MicroAPI`
        # (ops-nn ada_layer_norm): a function of the register API, which is not modelled
        lw.report.register_api(e)
        return opaque_call(lw, e, name, args)
    if explicit_ascendc or (name[:1].isupper() and lw.catalog.closest(name)):
        lw.report.unknown_api(name, e, lw.catalog.closest(name))
        return opaque_call(lw, e, name, args)
    # what the device compiler says: `sqrtf` is undeclared; `sqrt` is the overload it offers instead
    libm = LIBM_HINTS.get(name.removeprefix("__builtin_"))
    hint = [libm] if libm else lw.catalog.closest(name)
    lw.report.undeclared(name, e.callee, hint)
    return opaque_call(lw, e, name, args)


def _unmodelled_vendor_class(lw: FunctionLowerer, name: str) -> bool:
    """A class or struct the vendor's headers declare, the catalog does not model and the program does not
    declare itself: `X::F(...)` calls its static member, not the free API F."""
    return (lw.catalog.vendor_type(name) and name not in lw.scope.classes  # type: ignore[attr-defined]
            and lw.catalog_type_kind(name) is None and lw.catalog.catalog.class_def(name) is None)  # type: ignore[attr-defined]


# Compiler builtins older kernels call directly, and the AscendC API that wraps each.
_BUILTIN_ALIASES = {"get_block_idx": "GetBlockIdx", "get_block_num": "GetBlockNum"}

__all__ = ["api_call", "lower_call"]
