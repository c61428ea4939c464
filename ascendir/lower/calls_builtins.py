"""Calls of the C++ library's and the device compiler's functions: std::numeric_limits, min / max, the scalar
math the device compiler declares, the sync intrinsics under the AscendC sync APIs (pipe_barrier, set_flag,
wait_flag), and which clang builtins need no library.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import StringAttr

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


# std::numeric_limits of the floating types: (epsilon, min, max); lowest is -max
_FLOAT_LIMITS = {
    "half": (2.0**-10, 2.0**-14, 65504.0),
    "bfloat16_t": (2.0**-7, 2.0**-126, 3.3895313892515355e38),
    "float": (2.0**-23, 2.0**-126, 3.4028234663852886e38),
    "double": (2.0**-52, 2.0**-1022, 1.7976931348623157e308),
}


def declval(lw: FunctionLowerer, e: A.Call, targ: A.TemplateArg) -> Val:
    """`std::declval<T>()`, written only where its type is asked (`decltype(depth(std::declval<Tuple>()))` of
    catlass's tla): a value of T, an object of a class made without running a constructor, whose use a
    decltype then follows."""
    t = lw._template_arg_value(targ)
    if isinstance(t, C.ClassT) and t.name in lw.scope.classes:
        return Val(t, obj=lw.instantiate(t, "declval", e, construct=False))
    if isinstance(t, Scalar):
        return Val(t, lw.undef(t, e))
    raise Unsupported(f"std::declval of {t}, which is no class of the program nor a number", e)


def numeric_limit(lw: FunctionLowerer, e: A.Call, targ: A.TemplateArg, member: str) -> Val:
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


def min_max(lw: FunctionLowerer, e: A.Call, name: str, lowered: Sequence[Val] | None = None) -> Val:
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
SCALAR_MATH: dict[str, tuple[type, int]] = {
    "sqrt": (math.SqrtOp, 1), "abs": (math.AbsFOp, 1),
}  # fmt: skip
# the compiler's float constants: `-__builtin_inff()` is a float (its value is not followed)
FLOAT_BUILTINS = frozenset({"__builtin_inff", "__builtin_nanf", "__builtin_huge_valf"})
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


def clang_builtin(name: str) -> bool:
    return name in _CLANG_BUILTINS or name.startswith("__builtin_cce_")


LIBM_HINTS = {"sqrtf": "sqrt", "fabsf": "abs", "fabs": "abs"}


def scalar_math(lw: FunctionLowerer, e: A.Call, name: str) -> Val:
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
    op_cls = SCALAR_MATH[name][0]
    return Val(t, lw.emit(op_cls(*operands), e).results[0])


def intrinsic_sync(lw: FunctionLowerer, e: A.Call, name: str) -> Val:
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
