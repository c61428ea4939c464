"""Calls in the host lowering: the host's free functions (std::min/max, <cmath>, strcmp, memset / memcpy of
a tiling struct, the tiling library's temporary-size queries), methods of handles through the method
tables, and the index arguments of tensor queries.

Separate because calls are where the runtime's API enters: each one becomes a `host` op or a value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from xdsl.dialects import arith
from xdsl.dialects import math as xmath
from xdsl.ir import SSAValue

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower import host_accumulate, host_pair
from ascendir.lower import host_init_list, host_iterators, host_smart_ptr, host_std, host_vector, host_tiling_api, \
    host_vector_table
from ascendir.lower import host_json, host_math_util, host_memcpy, host_streams, tpl_tiling_key
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.diagnostics import UNKNOWN_API, span_of
from ascendir.lower.function import Unsupported
from ascendir.lower.host_context_methods import (
    KNOWN_UNMODELLED_CONTEXT,
    KNOWN_UNMODELLED_INFER_CONTEXT,
    KNOWN_UNMODELLED_PLATFORM,
    METHODS,
)
from ascendir.lower.host_handles import HANDLE_TYPES, HostError, VectorItems, handle_kind, is_host, unbound_shape
from ascendir.lower.host_matmul_methods import MATMUL_CLASSES, MATMUL_METHODS, MULTI_CORE_ONLY
from ascendir.lower.values import Instance, Val
from frontend import ast as A
from frontend.diagnostics import error


# Library free functions that the host lowering does not model (their namespace may be omitted).
_LIBRARY_FUNCS = {
    "GetSoftMaxMinTmpSize", "GetSoftMaxMaxTmpSize", "SoftMaxTilingFunc", "SoftMaxFlashV2TilingFunc",
    "GetLayerNormMaxMinTmpSize",
    "GetLayerNormNDTilingInfo", "GetRmsNormMaxMinTmpSize", "GetRmsNormTilingInfo", "copy_n", "copy", "fill",
    "fill_n", "accumulate", "to_string", "snprintf", "sprintf", "strlen", "strncmp", "log2", "round",
    "CeilDiv", "CeilAlign", "FloorAlign", "FloorDiv", "GetSortTmpSize",
    "ToString",  # ops-nn's shape-to-text for log messages (op_host/util: Ops::Base::ToString)
}  # fmt: skip

# The SoftMax / LogSoftMax temporary-space queries of the tiling library (HostLowerer._softmax_tmp_size).
_SOFTMAX_TMP_SIZE = {"GetSoftMaxMinTmpSize", "GetSoftMaxMaxTmpSize", "GetLogSoftMaxMinTmpSize", "GetLogSoftMaxMaxTmpSize"}

# Namespaces of libraries: a call qualified with one of these that is not modelled is a warning.
_LIBRARY_NAMESPACES = {"std", "ge", "gert", "platform_ascendc", "matmul_tiling", "AscendC", "fe", "ops", "optiling"}

# Logging and checking macros of the host headers: they do not change the tiling.
_IGNORED_CALLS = {
    "OP_LOGD", "OP_LOGI", "OP_LOGW", "OP_LOGE", "OP_LOGE_IF", "OPS_LOG_D", "OPS_LOG_I", "OPS_LOG_W", "OPS_LOG_E",
    "OPS_REPORT_VECTOR_INNER_ERR", "VECTOR_INNER_ERR_REPORT_TILIING", "printf", "fprintf", "puts",
    "assert", "static_assert", "ASCENDC_ASSERT", "GE_ASSERT", "OP_TILING_LOG",
}  # fmt: skip

# The ops repositories' logging macros come in many spellings (OP_LOGE_FOR_INVALID_SHAPEDIM,
# OP_LOGE_WITHOUT_REPORT, ...): a call of one of these prefixes logs only (the conditional _IF forms may return:
# host_check_macros.py writes out those it knows).
# Ops::Base::GetUbBlockSize(context) / GetVRegSize(context) / GetCacheLineSize(context): the chip's UB block,
# vector register width and GM cache line, in bytes (host.chip_fact); a program that defines a function of that name
# calls its own
_CHIP_FACT_CALLS = {"GetUbBlockSize": "ub_block", "GetVRegSize": "vreg", "GetCacheLineSize": "cache_line"}
# __builtin_clz (unsigned int), __builtin_clzl (unsigned long: 64 bits on the LP64 hosts), __builtin_clzll
_CLZ_WIDTHS = {"__builtin_clz": C.U32, "__builtin_clzl": C.U64, "__builtin_clzll": C.U64}
# (ops-nn's error_util.h: CUBE_INNER_ERR_REPORT / VECTOR_INNER_ERR_REPORT_TILIING log an error and report it)
_LOG_PREFIXES = ("OP_LOG", "OPS_LOG", "OPS_REPORT_", "VECTOR_INNER_ERR", "CUBE_INNER_ERR")

# Services of the ops repositories' framework libraries that a simulated launch has none of, with the result each
# gives there, for the tiling to go on as it does on a machine without them: op_cache_tiling.h's
# TilingPrepareForOpCache (the legacy library's compile-information cache, prepared: true) and runtime_kb_api.h's
# QueryBank (the tuning knowledge bank, which holds no tiling for the case: a nonzero status, its out parameter
# left null). Their arguments are not evaluated: the result does not depend on them.
_FRAMEWORK_SERVICES: dict[str, tuple[Scalar, int]] = {"TilingPrepareForOpCache": (C.BOOL, 1), "QueryBank": (C.U32, 1)}

# <cmath> functions the evaluator can run, by name (the `f` forms of libm map to the same op).
_MATH_OPS: dict[str, Callable[..., Any]] = {
    "ceil": xmath.CeilOp, "floor": xmath.FloorOp, "abs": xmath.AbsFOp, "fabs": xmath.AbsFOp,
    "pow": xmath.PowFOp, "sqrt": xmath.SqrtOp, "exp": xmath.ExpOp, "log": xmath.LogOp,
}  # fmt: skip


class HostCalls:
    """Calls: methods of HostLowerer (host.py), which inherits them."""

    def expr_Call(self, e: A.Call, expected: CType | None = None) -> Val:
        callee = e.callee
        if isinstance(callee, A.Name):
            handled = self._free_call(e, callee, expected)
            return handled if handled is not None else super().expr_Call(e, expected)
        if isinstance(callee, A.Member) and callee.member in ("GetStorageFormat", "GetOriginFormat") and \
                isinstance(callee.obj, A.Call) and callee.obj.callee_name == "GetFormat" and not e.args:
            # `desc->GetFormat().GetStorageFormat()`: GetFormat's gert::StorageFormat, whose storage and origin
            # formats are both the one format the tensors have here (ND, host_context_methods._nd_format)
            return self.expr(callee.obj)
        if isinstance(callee, A.Member) and not isinstance(callee.obj, A.This):
            recv = self.expr(callee.obj)
            if is_host(recv.ctype):
                return self._method(e, callee, recv)
            if host_init_list.is_list(recv):
                return host_init_list.method(self, e, callee.member, recv)
            stand_in = replace(e, callee=replace(callee, obj=self._stand_in(recv, callee.obj)))
            return super().expr_Call(stand_in, expected)
        return super().expr_Call(e, expected)

    def _free_call(self, e: A.Call, callee: A.Name, expected: CType | None) -> Val | None:
        """Host free functions; None hands the call to the base lowering (user functions and types)."""
        parts = [p.name for p in callee.qname.parts]
        name = parts[-1]
        qualified = "::".join(parts)
        if name in _IGNORED_CALLS or (name.startswith(_LOG_PREFIXES) and "_IF" not in name
                                      and name not in self.scope.functions):
            return Val(C.VoidT())
        if len(parts) == 1 and self.lookup(name) is not None:
            return None
        if name in _FRAMEWORK_SERVICES and name not in self.scope.functions:
            ctype, result = _FRAMEWORK_SERVICES[name]
            return Val(ctype, const=result)
        this = self.frame.this
        if name in host_math_util.FUNCTIONS and parts[0] == "Ops" and not self._declared_in(name, parts[:-1]):
            # `Ops::Base::CeilAlign(a, b)` inside the program's own `ops::CeilAlign` (ops-nn matmul's
            # math_util.h wraps ops-base's helpers under their names): another namespace's function, not a
            # recursive call of the program's
            return host_math_util.call(self, e, name, callee.qname.parts[-1].template_args)
        if name in self.scope.functions or name in self.scope.classes or (
                len(parts) >= 2 and parts[-2] in self.scope.classes) or (
                this is not None and len(parts) == 1 and this.find_method(name) is not None):
            # user code: helper functions, constructors, methods of the enclosing class or of a base of it
            # (PpMatMulDefault::GetHardwareInfo() called in its derived tiling class's DoTiling)
            return None
        if name == "EnsureNotScalar" and len(e.args) == 1:
            return self._ensure_not_scalar(e)
        if len(parts) >= 2 and parts[-2] == "numeric_limits":
            return None  # `std::numeric_limits<int64_t>::max()`: the base lowering's constant (not std::max)
        if name in ("min", "max"):
            return self._min_max(e, name, callee.qname.parts[-1].template_args)
        if name == "getenv" and parts[:-1] in ([], ["std"]) and len(e.args) == 1:
            # the tiling runs as the benchmarks launch an op: with none of its tuning variables set in the
            # environment (ops-nn transpose_batch_mat_mul's CLOSE_MATMUL_K_SHIFT), so getenv gives nullptr
            self.expr(e.args[0])
            return Val(C.Pointer(C.Scalar("int8_t")), const=0)
        if name == "CheckLogLevel" and len(e.args) == 2:
            # the CANN log's level query (slog), which the ops repositories' tiling_base.h calls before dumping
            # the tiling data at DEBUG (ops-math circular_pad's DumpTilingInfo): the benchmarks launch an op at
            # the default log level, so it answers 0, not enabled. Its arguments (the OP module, DLOG_DEBUG) are
            # slog's enumerators, which no op folder declares: not evaluated
            return Val(C.I32, const=0)
        if name in host_smart_ptr.MAKERS and parts[0] == "std" and \
                host_json.is_json_type(callee.qname.parts[-1].template_args, self) and len(e.args) == 1:
            return self.expr(e.args[0])  # `std::make_unique<nlohmann::json>(j)`: the handle is its own pointer
        if name == "parse" and parts[-2:-1] == ["json"] and "json" not in self.scope.classes:
            return host_json.parse(self, e)  # nlohmann::json::parse(text)
        if name in host_smart_ptr.MAKERS and parts[0] == "std":
            return host_smart_ptr.make(self, e, name, callee.qname.parts[-1].template_args)
        if name == "IsRegbaseSocVersion" and len(e.args) == 1 and name not in self.scope.functions:
            # ops-nn's op_host/tiling_util.h: the chip is a register-based (arch35) one, DAV_3510 / DAV_5102,
            # which of the simulator's chips only the 950 family is
            soc = self.emit(hd.SocVersionOp(self.ssa(self._platform(e), e)), e).results[0]
            regbase = self.emit(arith.CmpiOp(soc, self.const_ssa(hd.SOC_VERSIONS["ASCEND950"], C.I64, e), "eq"), e)
            return Val(C.BOOL, regbase.results[0])
        if name in _CHIP_FACT_CALLS and len(e.args) == 1:
            # the ops repositories' Ops::Base host utilities (op_common's platform helpers) on a tiling context
            self.expr(e.args[0])
            fact = self.emit(hd.ChipFactOp(self.ssa(self._platform(e), e), _CHIP_FACT_CALLS[name]), e)
            return Val(C.I64, fact.results[0])
        if name == "GET_TPL_TILING_KEY":
            # the ops repositories' template tiling key (asc-devkit template_argument.h), out of reach
            return tpl_tiling_key.lower_get_key(self, e)
        if name == "ASCENDC_TPL_SEL_PARAM" and e.args:
            # `do { uint64_t key = GET_TPL_TILING_KEY(...); context->SetTilingKey(key); } while (0)`
            key = A.Call(e.span, A.Name(e.span, A.QualifiedName(e.span, [A.NamePart(e.span, "GET_TPL_TILING_KEY")])),
                         e.args[1:])
            set_key = A.Call(e.span, A.Member(e.span, e.args[0], "SetTilingKey", True), [key])  # type: ignore[arg-type]
            return self.expr(set_key)
        if name in _CLZ_WIDTHS and len(e.args) == 1:
            # GCC's count-leading-zeros builtins (add_rms_norm's tiling: the largest power of two <= n)
            operand = self.ssa(self.convert(self.expr(e.args[0]), _CLZ_WIDTHS[name], e), e)
            clz = Val(_CLZ_WIDTHS[name], self.emit(xmath.CountLeadingZerosOp(operand), e).results[0])
            return self.convert(clz, C.I32, e)  # they return int
        if name == "GetPrimaryFormat" and parts[:-1] in ([], ["ge"]) and len(e.args) == 1:
            # graph/types.h: a format's primary format is its low byte (sub-format and C0 bits above it)
            fmt = self.convert(self.expr(e.args[0]), C.I32, e)
            return self.arith("&", fmt, Val(C.I32, const=0xFF), e)
        if name in ("__builtin_expect", "likely", "unlikely") and e.args:
            for a in e.args[1:]:
                self.expr(a)
            return self.expr(e.args[0])  # a branch hint: the value of its first argument
        if name in MATMUL_CLASSES and not (len(parts) == 1 and name in self.scope.classes):
            return self._construct(HANDLE_TYPES[name], e.args, e)  # type: ignore[arg-type]
        if name == "PlatformAscendC" or (name == "GetInstance" and "PlatformAscendCManager" in parts):
            for a in e.args:
                self.expr(a)
            return self._platform(e)
        if name == "string" and len(e.args) == 1:
            return self._as_string(self.expr(e.args[0]), e)
        if name == "strcmp" and len(e.args) == 2:
            return self._strcmp(e)
        if name in ("tolower", "toupper") and parts[:-1] in ([], ["std"]) and len(e.args) == 1:
            return self._change_case(name == "tolower", e)
        if name in ("memset", "memset_s"):
            return self._memset(e)
        if name in ("memcpy", "memcpy_s"):
            return self._memcpy(e)
        if name == "GetDataTypeLength" and len(e.args) == 2:
            return self._dtype_length(e)
        if name == "GetSizeByDataType" and len(e.args) == 1:
            dtype = self.ssa(self.convert(self.expr(e.args[0]), C.I32, e), e)
            size = Val(C.I64, self.emit(hd.DtypeSizeOp(dtype), e).results[0])
            return self.convert(size, C.I32, e)  # ge::GetSizeByDataType returns int
        if name in _SOFTMAX_TMP_SIZE and len(e.args) == 3:
            return self._softmax_tmp_size(e, per_row=name in ("GetSoftMaxMaxTmpSize", "GetLogSoftMaxMaxTmpSize"))
        if name in ("SoftMaxTilingFunc", "LogSoftMaxTilingFunc") and len(e.args) == 4:
            return self._softmax_tiling_func(e, 3)
        if name == "SoftMaxFlashV2TilingFunc" and 6 <= len(e.args) <= 8:
            return self._softmax_tiling_func(e, 4)
        if name in host_tiling_api.FUNCTIONS:
            return host_tiling_api.call(self, e, name)
        if name in host_math_util.FUNCTIONS and parts[0] in ("Ops", name):
            # ops-base's Ops::Base helpers (another namespace's CeilDiv stays "not modelled", below)
            return host_math_util.call(self, e, name, callee.qname.parts[-1].template_args)
        if name in host_iterators.ALGORITHMS and parts[0] == "std" and name not in self.scope.functions:
            return host_iterators.algorithm(self, e, name)  # std::find over a constant vector: host_std.find
        if name == "accumulate" and parts[0] == "std" and len(e.args) in (3, 4):
            return host_accumulate.accumulate(self, e)
        if name == "GetCumSumMaxMinTmpSize" and len(e.args) == 6:
            return self._cumsum_tmp_size(e)
        if name in ("isfinite", "isnan", "isinf") and parts[0] in ("std", name) and len(e.args) == 1:
            return self._float_class(name, e)
        math_name = name[:-1] if name.endswith("f") and name[:-1] in _MATH_OPS else name  # sqrtf -> sqrt
        if math_name in _MATH_OPS and parts[0] in ("std", name):
            return self._math(e, math_name)
        if name in _LIBRARY_FUNCS or parts[0] in _LIBRARY_NAMESPACES:
            raise Unsupported(f"'{qualified}' is not modelled by the host lowering", e)
        if not isinstance(self.named_type(name, callee.qname.parts[-1].template_args), C.UnknownT):
            return None  # a constructor-style cast: `uint32_t(x)`, `DtypeInfo(...)`
        self.report.undeclared(qualified, callee)
        raise HostError(qualified)

    def _declared_in(self, name: str, qualifier: list[str]) -> bool:
        """Whether the program declares a function `name` in the namespace `qualifier` names (`Ops::Base`), or
        in one ending with it."""
        written = "::".join(qualifier)
        return any(ns == written or ns.endswith("::" + written)
                   for ns in (self.scope.declared_in.get(id(d), "") for d in self.scope.functions.get(name, ())))

    def _softmax_tmp_size(self, e: A.Call, per_row: bool) -> Val:
        """`AscendC::Get[Log]SoftMax{Min,Max}TmpSize(srcShape, dataTypeSize, isReuseSource)`: the bytes of
        temporary space the kernel's SoftMax / LogSoftMax needs for `srcShape` read as [M, K] (K the last
        dim, M the product of the others). The vendor's tiling library (asc-devkit softmax_tiling.cpp,
        logsoftmax_tiling.cpp) computes, in float words, for the 220x chips: the minimum, one row at a time,
        32 / dataTypeSize + K + 64 (a block of the row's max/sum, the row, a 64-word reduction unit); the
        maximum, all M rows at once, M times that; times 4 bytes. isReuseSource does not change either.
        (The 3510 chips' larger formula is not modelled: the simulator's chips are 220x.)"""
        shape = self.expr(e.args[0])
        if handle_kind(shape) not in ("shape", "shape_buffer"):
            raise Unsupported(f"a SoftMax tiling shape of {shape.ctype} is not modelled", e.args[0])
        value = self._shape_value(shape, e.args[0])
        type_size = self.convert(self.expr(e.args[1]), C.U32, e)
        self.expr(e.args[2])
        rank = self.ssa(self.arith("-", Val(C.U64, self.emit(hd.ShapeDimNumOp(value), e).results[0]),
                                   Val(C.U64, const=1), e), e)
        cols = self.convert(Val(C.I64, self.emit(hd.ShapeDimOp(value, rank), e).results[0]), C.U32, e)
        words = self.arith("+", self.arith("/", Val(C.U32, const=32), type_size, e), cols, e)
        words = self.arith("+", words, Val(C.U32, const=64), e)
        if per_row:
            size = self.convert(Val(C.I64, self.emit(hd.ShapeSizeOp(value), e).results[0]), C.U32, e)
            words = self.arith("*", self.arith("/", size, cols, e), words, e)
        return self.arith("*", words, Val(C.U32, const=4), e)

    def _cumsum_tmp_size(self, e: A.Call) -> Val:
        """`AscendC::GetCumSumMaxMinTmpSize(srcShape, typeSize, isLastAxis, isReuseSource, maxValue, minValue)`: the
        tiling library's sizes (asc-devkit cumsum_tiling.cpp) for srcShape [outter, inner] into the two references.
        Along the last axis CumSum transposes 16 rows at a time, twice: at least 2 * 16 * inner * typeSize bytes, at
        most 2 * align16(outter) * inner * typeSize, and for half a cast buffer of 16 (at most align16(outter)) rows
        of inner halves as well; along the first axis outter * inner floats for half, nothing for float.
        (rust_sim/src/vector/cumsum.rs checks the kernel's buffer against the same minimum.)"""
        shape = self.expr(e.args[0])
        if handle_kind(shape) not in ("shape", "shape_buffer"):
            raise Unsupported(f"a CumSum tiling shape of {shape.ctype} is not modelled", e.args[0])
        value = self._shape_value(shape, e.args[0])
        type_size, last_axis = self.expr(e.args[1]), self.expr(e.args[2])
        self.expr(e.args[3])
        if not isinstance(type_size.const, int) or last_axis.const is None:
            raise Unsupported("GetCumSumMaxMinTmpSize with a type size or an axis known only at run time", e)

        def dim(i: int) -> Val:
            index = self.ssa(Val(C.U64, const=i), e)
            return self.convert(Val(C.I64, self.emit(hd.ShapeDimOp(value, index), e).results[0]), C.U32, e)

        def times(a: Val, n: int) -> Val:
            return self.arith("*", a, Val(C.U32, const=n), e)

        outter, inner = dim(0), dim(1)
        half = type_size.const == 2
        if last_axis.const:
            rows = times(self.arith("/", self.arith("+", outter, Val(C.U32, const=15), e), Val(C.U32, const=16), e), 16)
            least = times(inner, 16 * type_size.const * 2 + (16 * 2 if half else 0))
            most = times(self.arith("*", rows, inner, e), type_size.const * 2 + (2 if half else 0))
        else:
            least = most = times(self.arith("*", outter, inner, e), 4) if half else Val(C.U32, const=0)
        self.assign(e.args[4], most, e)
        self.assign(e.args[5], least, e)
        return Val(C.VoidT())

    def _softmax_tiling_func(self, e: A.Call, tiling_at: int) -> Val:
        """`AscendC::[Log]SoftMaxTilingFunc(srcShape, dataTypeSize, workSize, tiling.softmaxTiling)` and
        `AscendC::SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, workSize, tiling.softmaxTiling,
        isUpdate[, isBasicBlock[, isFlashOutputBrc]])` (`tiling_at`: where the SoftMaxTiling is): the arguments
        run; the SoftMaxTiling block it fills is not written. The simulator's SoftMax / LogSoftMax /
        SoftmaxFlashV2 take their rows and columns from the SoftMaxShapeInfo or the source tensor's ShapeInfo, not
        from this block (a SoftMaxTiling the kernel computes itself with SoftMaxFlashV2TilingFuncImpl has its
        fields: softmax_tiling_impl.py), so nothing the simulation reads is left unset."""
        shape = self.expr(e.args[0])
        if handle_kind(shape) not in ("shape", "shape_buffer"):
            raise Unsupported(f"a SoftMax tiling shape of {shape.ctype} is not modelled", e.args[0])
        self._shape_value(shape, e.args[0])
        for i, a in enumerate(e.args[1:], 1):
            if i != tiling_at:
                self.expr(a)
        target = self.expr(e.args[tiling_at])
        if handle_kind(target) != "unmodelled" or not str(target.ctype.detail).split()[0].endswith("SoftMaxTiling"):
            raise Unsupported(f"SoftMax tiling into {target.ctype} is not modelled", e.args[tiling_at])
        return Val(C.VoidT())

    def _dtype_length(self, e: A.Call) -> Val:
        """`ge::TypeUtils::GetDataTypeLength(dtype, length)`: the bytes per element into `length` (a reference),
        true; the evaluator fails the run for a dtype without a size, where the call would return false."""
        dtype = self.ssa(self.convert(self.expr(e.args[0]), C.I32, e), e)
        size = Val(C.I64, self.emit(hd.DtypeSizeOp(dtype), e).results[0])
        self.assign(e.args[1], self.convert(size, C.U32, e), e)
        return Val(C.BOOL, const=1)

    def _ensure_not_scalar(self, e: A.Call) -> Val:
        """`Ops::NN::OpTiling::EnsureNotScalar(shape)` (ops-nn op_host/tiling_util.h; ops-math's
        tiling_base/tiling_util.h the same): the shape, or the one-dim shape {1} where the shape is a scalar's
        (rank 0), so that a tiling reads dim 0 of a scalar input (apply_adam_w_v2's step). A program that defines a
        function of that name calls its own (the user-code check above comes first)."""
        shape = self._shape_value(self.expr(e.args[0]), e)
        rank = Val(C.U64, self.emit(hd.ShapeDimNumOp(shape), e).results[0])
        scalar = self.compare("==", rank, Val(C.U64, const=0), e)
        one = self.emit(hd.MakeShapeOp([self.const_ssa(1, C.I64, e)]), e).results[0]
        chosen = self.emit(arith.SelectOp(self.ssa(scalar, e), one, shape), e).results[0]
        return Val(HANDLE_TYPES["Shape"], chosen)

    def _min_max(self, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val:
        items: Sequence[A.Node] = e.args
        if len(e.args) == 1 and isinstance(e.args[0], A.InitList):
            items = e.args[0].items  # std::min({a, b, c})
        values = [self.expr(a) for a in items]
        if not values or not all(isinstance(v.ctype, Scalar) for v in values):
            raise Unsupported(f"std::{name} of non-arithmetic values", e)
        t: Scalar | None = None
        if targs:
            try:
                explicit = self._template_arg_value(targs[0])
                t = explicit if isinstance(explicit, Scalar) else None
            except (Unsupported, HostError):
                t = None  # `std::min<decltype(v)::size_type>`: fall back to the arguments' common type
        if t is None:
            t = values[0].ctype  # type: ignore[assignment]
            for v in values[1:]:
                t = C.common_type(t, v.ctype)  # type: ignore[arg-type]
        assert t is not None
        result = self.convert(values[0], t, e)
        for v in values[1:]:
            v = self.convert(v, t, e)
            # std::min(a, b) is (b < a) ? b : a; std::max(a, b) is (a < b) ? b : a
            take = self.compare("<", v, result, e) if name == "min" else self.compare("<", result, v, e)
            if take.const is not None:
                result = v if take.const else result
            else:
                op = arith.SelectOp(self.ssa(take, e), self.ssa(v, e), self.ssa(result, e))
                result = Val(t, self.emit(op, e).results[0])
        return result

    def _math(self, e: A.Call, name: str) -> Val:
        """`std::ceil`, `floor`, `abs` / `fabs`, `pow`, `sqrt`, `exp`, `log` (and the libm `f` forms)."""
        args = [self.expr(a) for a in e.args]
        if len(args) != (2 if name == "pow" else 1) or not all(isinstance(a.ctype, Scalar) for a in args):
            raise Unsupported(f"'{name}' of these arguments is not modelled", e)
        t = args[0].ctype
        assert isinstance(t, Scalar)
        if name == "abs" and not t.is_float:
            v = self.convert(args[0], C.promote(t), e)
            return Val(v.ctype, self.emit(xmath.AbsIOp(self.ssa(v, e)), e).results[0])
        ft = t if t.is_float else C.F64  # the integer overloads compute in double
        xs = [self.ssa(self.convert(a, ft, e), e) for a in args]
        op = _MATH_OPS[name](*xs)
        return Val(ft, self.emit(op, e).results[0])

    def _float_class(self, name: str, e: A.Call) -> Val:
        """`std::isfinite` / `isnan` / `isinf` (a tiling falling back to a default for an attribute that is no
        number): compares of the value, |x| with infinity; an integer is converted to double, as its overloads do."""
        x = self.expr(e.args[0])
        if not isinstance(x.ctype, Scalar):
            raise Unsupported(f"'{name}' of a {x.ctype} is not modelled", e)
        ft = x.ctype if x.ctype.is_float else C.F64
        v = self.ssa(self.convert(x, ft, e), e)
        if name == "isnan":
            return Val(C.BOOL, self.emit(arith.CmpfOp(v, v, "uno"), e).results[0])
        size = self.emit(xmath.AbsFOp(v), e).results[0]
        inf = self.const_ssa(float("inf"), ft, e)
        return Val(C.BOOL, self.emit(arith.CmpfOp(size, inf, "olt" if name == "isfinite" else "oeq"), e).results[0])

    def _strcmp(self, e: A.Call) -> Val:
        """`strcmp(s, "lit")`: 0 when equal, 1 otherwise (only equality is modelled, not the order)."""
        a, b = (self.expr(x) for x in e.args)
        if all(isinstance(v.const, str) and not is_host(v.ctype) for v in (a, b)):
            # two known C strings (GetNodeType()'s op type against a literal): std::string's model is not needed
            return Val(C.I32, const=int(a.const != b.const))
        literal, other = (b, a) if isinstance(b.const, str) else (a, b)
        if not isinstance(literal.const, str) or is_host(literal.ctype):
            raise Unsupported("strcmp is modelled against a string literal only", e)
        eq = self._host_compare("==", self._as_string(other, e), literal, e)
        zero, one = self.const_ssa(0, C.I32, e), self.const_ssa(1, C.I32, e)
        return Val(C.I32, self.emit(arith.SelectOp(self.ssa(eq, e), zero, one), e).results[0])

    def _change_case(self, lower: bool, e: A.Call) -> Val:
        """`std::tolower(c)` / `std::toupper(c)` of <cctype> in the C locale (a tiling matching an attribute's text
        without regard to case): an ASCII letter of the other case moved by 32, any other value as it is."""
        c = self.convert(self.expr(e.args[0]), C.I32, e)
        first, last = ("A", "Z") if lower else ("a", "z")
        letter = self.arith("&", self.compare(">=", c, Val(C.I32, const=ord(first)), e),
                            self.compare("<=", c, Val(C.I32, const=ord(last)), e), e)
        moved = self.arith("+" if lower else "-", c, Val(C.I32, const=32), e)
        if letter.const is not None:
            return moved if letter.const else c
        chosen = arith.SelectOp(self.ssa(self.to_bool(letter, e), e), self.ssa(moved, e), self.ssa(c, e))
        return Val(C.I32, self.emit(chosen, e).results[0])

    def _memset(self, e: A.Call) -> Val:
        """`memset(tiling, 0, sizeof(S))` / `memset_s(tiling, max, 0, n)`: the struct value-initialised."""
        value_at = 2 if e.callee.qname.parts[-1].name == "memset_s" else 1  # type: ignore[union-attr]
        dest = self.expr(e.args[0]) if len(e.args) > value_at else None
        if dest is None or handle_kind(dest) != "tiling" or self.const_eval(e.args[value_at]) != 0:
            raise Unsupported("memset is modelled only for zeroing a tiling struct", e)
        self._tiling_fill(dest, [], e)
        return Val(C.I32, const=0) if value_at == 2 else Val(C.VoidT())  # memset_s returns EOK (securec)

    def _memcpy(self, e: A.Call) -> Val:
        """`memcpy(raw->GetData(), &tiling, n)` (or memcpy_s): a POD tiling struct saved to the context."""
        src_at = 2 if e.callee.qname.parts[-1].name == "memcpy_s" else 1  # type: ignore[union-attr]
        copied = host_memcpy.scalar_copy(self, e, checked=src_at == 2)  # `memcpy_s(&u32, 4, &f32, 4)`
        if copied is not None:
            return copied
        if len(e.args) > src_at:
            dest, src = self.expr(e.args[0]), self.expr(e.args[src_at])
            if handle_kind(dest) == "raw_data" and handle_kind(src) == "tiling":
                self._save(src, e)
                return Val(C.I32, const=0) if src_at == 2 else Val(C.VoidT())  # memcpy_s returns EOK (securec)
            record = src.obj.pointee if isinstance(src.obj, Val) else src.obj  # `&tiling` or a cast of it
            if handle_kind(dest) == "raw_data" and isinstance(record, Instance) and \
                    record.info.name in self.scope.tiling_structs:
                # `memcpy_s(raw->GetData(), raw->GetCapacity(), &tilingData, sizeof(S))` of a local struct
                # object (ops-nn transpose_batch_mat_mul's PpMatmulTilingData): its fields as that tiling struct
                self._save(self._record_as_tiling(record, e), e)
                return Val(C.I32, const=0) if src_at == 2 else Val(C.VoidT())  # memcpy_s returns EOK
        raise Unsupported("memcpy is modelled only for copying a tiling struct into the raw tiling data", e)

    def _method(self, e: A.Call, callee: A.Member, recv: Val) -> Val:
        kind = handle_kind(recv)
        name = callee.member
        if host_std.is_model(recv):
            return host_std.method(self, e, name, recv)
        if host_vector_table.is_table(recv):
            return host_vector_table.method(self, e, name, recv)
        if (position := host_pair.array_method(e, name, recv)) is not None:
            return position  # begin(), end() of a `std::array<std::pair<A, B>, N>` of constants
        if isinstance(recv.obj, VectorItems) and \
                (position := host_iterators.items_method(self, e, name, recv)) is not None:
            return position  # begin(), end() of a `const std::vector<T> v = {a, b};`
        if host_vector.is_vector(recv):
            position = host_iterators.vector_method(self, e, name, recv)  # begin(), end()
            return position if position is not None else host_vector.method(self, e, name, recv)
        if kind == host_streams.KIND:
            return host_streams.method(self, e, name, recv)
        if kind in ("unmodelled", "opaque", "poison"):
            what = f"'{recv.ctype}'" if kind == "unmodelled" else str(recv.ctype)
            raise Unsupported(f"'{name}' on {what} is not modelled by the host lowering", e)
        if kind == "tiling":
            return self._tiling_method(e, name, recv)
        if kind == "matmul_tiling":
            return self._matmul_method(e, name, recv, callee)
        if self.shape_objects and kind in ("shape", "shape_buffer") and unbound_shape(recv):
            raise Unsupported(f"'{name}' on a gert::Shape the host lowering did not see set (a class member, "
                              "or one set under control flow) is not modelled", e)
        table = METHODS.get(kind or "", {})
        handler = table.get(name)
        if handler is None:
            if kind == "context" and name in KNOWN_UNMODELLED_CONTEXT:
                raise Unsupported(f"TilingContext::{name} is not modelled by the host lowering", e)
            if kind == "infer_context" and name in KNOWN_UNMODELLED_INFER_CONTEXT:
                raise Unsupported(f"InferShapeContext::{name} is not modelled by the host lowering", e)
            if kind == "shape" and name in METHODS["shape_buffer"] and self.shape_objects:
                # an input's shape, or a const copy: C++ rejects the write
                self.report.add(error(UNKNOWN_API, f"'{name}' writes a const gert::Shape", span_of(e)))
                raise HostError(name)
            if kind == "platform" and name in KNOWN_UNMODELLED_PLATFORM:
                raise Unsupported(f"PlatformAscendC::{name} is not modelled by the host lowering", e)
            self._no_member(name, str(recv.ctype), list(table), e)
        return handler(self, e, recv, callee)

    def _matmul_method(self, e: A.Call, name: str, recv: Val, callee: A.Member) -> Val:
        """A call on a matmul tiling object; one the lowering leaves out makes the object's state unknown."""
        owner = str(recv.ctype)
        if recv.ssa is None:  # a class member or a copy the lowering did not see constructed
            raise Unsupported(f"{owner}::{name} on an object built where the host lowering does not see it", e)
        handler = MATMUL_METHODS.get(name)
        try:
            if handler is None or (name in MULTI_CORE_ONLY and owner != "MultiCoreMatmulTiling"):
                raise Unsupported(f"{owner}::{name} is not modelled by the host lowering", e)
            return handler(self, e, recv, callee)
        except Unsupported:
            self.emit(hd.MatmulUnknownOp(self.ssa(recv, e), name), e)
            raise

    def _tensor_index(self, e: A.Call, what: str) -> tuple[int, SSAValue | None]:
        """The index argument of a tensor or attribute query: a constant, or a value known only at run time (a
        loop over the inputs, an attribute counter `idx++`) as `(0, its i64 value)`; the evaluator rejects a
        negative one."""
        if not e.args:
            raise Unsupported(f"the {what} index is missing", e)
        value = self.const_eval(e.args[0])
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 0:
                raise Unsupported(f"the {what} index {value} is negative", e)
            return value, None
        index = self.expr(e.args[0])
        if not isinstance(index.ctype, Scalar) or index.ctype.is_float:
            raise Unsupported(f"the {what} index must be an integer", e)
        if isinstance(index.const, int) and not isinstance(index.const, bool):
            if index.const < 0:
                raise Unsupported(f"the {what} index {index.const} is negative", e)
            return index.const, None
        return 0, self.ssa(self.convert(index, C.I64, e), e)
