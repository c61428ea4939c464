"""SIMT launches on the Ascend 950's vector unit: `asc_vf_call<F>(dim3(x[, y[, z]]), args...)` and
`Simt::VF_CALL<F>(Simt::Dim3(...), args...)`, and what F's threads read of themselves.

What asc-devkit says (facts only):
- a `__simt_vf__` function runs once per thread of the launch's dim3; `threadIdx.{x,y,z}` lies in
  [0, blockDim.{x,y,z}), blockDim is the launch's dim3, a thread's linear index is
  x + y * blockDim.x + z * blockDim.x * blockDim.y; blockIdx.x is the block (the core's index, GetBlockIdx),
  gridDim.x the block count (y and z 1) and warpSize 32 (docs/zh/api/SIMT-API/SIMD与SIMT混合编程简介/扩展语法/:
  内置变量-145.md, and 核函数配置-147.md: gridDim is one-dimensional in the mixed SIMD / SIMT model);
- Simt::GetThreadIdx<d>() / GetThreadNum<d>() are threadIdx / blockDim of dimension d (0 x, 1 y, 2 z),
  GetBlockIdx() blockIdx.x, GetBlockNum() gridDim.x, GetWarpSize() 32
  (impl/simt_api/cpp/dav_3510/kernel_simt_common_impl.h);
- Simt::VF_CALL<f>(Dim3, args...) is `cce::async_invoke<f>(threadNums, args...)` on a vector-core build
  (include/simt_api/cpp/kernel_simt_utils.h; SPLIT_CORE_VEC is defined for __DAV_VEC__ on 3510,
  impl/utils/sys_macros.h), and AscendC::VF_CALL<f>(args...) without a Dim3 is `__VEC_SCOPE__ { f(args...); }`
  there (impl/basic_api/utils/kernel_utils_ceil_oom_que.h): the SIMD launch, as asc_vf_call<f>(args...) is.

The model: the threads run one after another in the order of their linear index, each F's whole body. That is
deterministic, and it is what any interleaving gives while no thread reads what another writes within the launch.
Threads that wait for each other depend on running together: when F (or a function it calls) calls
asc_syncthreads or a warp function (asc_shfl / _up / _down / _xor, asc_all / asc_any / asc_ballot /
asc_activemask, asc_reduce_add / _max / _min, and the compiler builtins __shfl, __syncthreads, ... that
asc-devkit's impl/simt_api/device_warp_functions_impl.h calls them by), those calls are ascendc.simt_sync /
ascendc.simt_warp; the loop over the threads is marked SIMT_LAUNCH_ATTR, and the simulator runs the threads each
with its own registers, switching at those points, a warp's threads meeting at a warp function and all threads at
the barrier, wherever the calls are (in loops, branches, called functions; rust_sim/src/simt.rs). The cooperative
groups (tiled_partition, binary_partition) and __syncwarp stay a named gap. A thread's atomics (asc_atomic_add,
..., docs/zh/api/SIMT-API/原子操作/, and their C++ forms _CPP_ATOMICS) on an element of GM or UB are
ascendc.simt_atomic (one read-modify-write);
its fences and data-cache maintenance (asc_threadfence, __builtin_cce_dcci, ...) change nothing the simulator
holds (_MEMORY_ORDER).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Block

from ascendir.dialects.ascendc_simt import ATOMIC_KINDS, SIMT_LAUNCH_ATTR, SimtAtomicOp, SimtSyncOp, SimtWarpOp
from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

LAUNCHES = frozenset({"asc_vf_call", "VF_CALL"})
_DIM3 = frozenset({"dim3", "Dim3"})
# the SIMT calls whose threads must run together and that are not modelled (the docs' 协作组; __syncwarp)
_TOGETHER_PREFIXES = ("__syncwarp", "tiled_partition", "binary_partition")
# those that are (the docs' 同步接口 and Warp-Shfl / -Vote / -Reduce), each under its asc_ name and the compiler
# builtin's (device_warp_functions_impl.h: asc_shfl is __shfl, asc_all __all, ...): the warp kind, or "sync"
_MEETING = {"asc_syncthreads": "sync", "__syncthreads": "sync"}
# what orders or publishes memory and nothing else: the fences (asc_threadfence.md: 不会阻塞线程, only the order
# in which other threads see the writes) and the data cache's clean-and-invalidate (访存函数/asc_dcci_entire.md,
# asc_dcci_single.md; __builtin_cce_dcci the compiler's builtin under them). The simulator's threads and cores
# read and write memory itself, each access seen at once in program order, and have no data cache: nothing to do
_MEMORY_ORDER = frozenset({"asc_threadfence", "__threadfence", "asc_threadfence_block", "__threadfence_block",
                           "asc_dcci_entire", "asc_dcci_single", "__builtin_cce_dcci"})
# the atomics' C++ forms, by name: AscendC::Simt::AtomicAdd / ... on a UB or GM element
# (include/simt_api/cpp/kernel_simt_atomic_intf.h) and the basic API's scalar GM atomics AscendC::AtomicAdd / Max /
# Min / Cas / Exch (docs/zh/api/SIMD-API/基础API/原子操作/AtomicAdd.md ...: the 950's, from SIMD code too;
# AtomicCas(address, value1, value2) writes value2 where the element equals value1, as asc_atomic_cas does)
_CPP_ATOMICS = {"AtomicAdd": "add", "AtomicSub": "sub", "AtomicMax": "max", "AtomicMin": "min", "AtomicExch": "exch",
                "AtomicCas": "cas", "AtomicInc": "inc", "AtomicDec": "dec", "AtomicAnd": "and", "AtomicOr": "or",
                "AtomicXor": "xor"}
for _kind in ("shfl", "shfl_up", "shfl_down", "shfl_xor", "all", "any", "ballot", "activemask", "reduce_add",
              "reduce_max", "reduce_min"):
    _MEETING[f"asc_{_kind}"] = _MEETING[f"__{_kind}"] = _kind
# Simt:: functions of a thread (kernel_simt_common_impl.h), by name: the builtin and its member by dimension
_THREAD_CALLS = {"GetThreadIdx": "threadIdx", "GetThreadNum": "blockDim", "GetBlockIdx": "blockIdx",
                 "GetBlockNum": "gridDim"}
WARP_SIZE = 32


def thread_of(lw: object) -> Thread | None:
    """The SIMT thread whose code `lw` is lowering, None outside a launch."""
    return getattr(lw, "_simt_thread", None)


@dataclass
class Thread:
    """The thread whose code is being lowered: its index and the launch's extents (u32 values)."""

    index: tuple[Val, Val, Val]
    dims: tuple[Val, Val, Val]


def _dim3_args(node: A.Node | None) -> list[A.Expr] | None:
    """The extents of `dim3(x, y)` / `Simt::Dim3(n)` / `Dim3{n}`, or None when `node` is no dim3 made in place."""
    if isinstance(node, A.Call) and isinstance(node.callee, A.Name) and node.callee.qname.parts[-1].name in _DIM3:
        return list(node.args)
    if isinstance(node, A.Cast) and isinstance(node.type.base, A.QualifiedName) \
            and node.type.base.parts[-1].name in _DIM3:
        if isinstance(node.expr, A.InitList):
            return list(node.expr.items)
        return list(node.args or ([node.expr] if node.expr is not None else []))
    return None


def is_simt_launch(e: A.Call) -> bool:
    return bool(e.args) and _dim3_args(e.args[0]) is not None


def call(lw: FunctionLowerer, e: A.Call, all_parts: list[A.NamePart], name: str,
         targs: list[A.TemplateArg] | None) -> Val | None:
    """A SIMT launch, a VF_CALL without Dim3 (the SIMD launch), or a Simt:: thread query inside a launch; None
    for anything else, and on chips without the SIMT model (the register API's chips are the 950's, where
    `report.api_uncatalogued` holds; elsewhere these calls stay the unmodelled ones they were)."""
    if not lw.report.api_uncatalogued:
        return None
    if name in LAUNCHES and targs and len(targs) == 1:
        target = targs[0].value
        qname = target.qname if isinstance(target, A.Name) else target.base if isinstance(target, A.TypeRef) else None
        if not isinstance(qname, A.QualifiedName):
            return None
        from ascendir.lower.calls import lower_call

        if is_simt_launch(e):
            return _launch(lw, e, qname)
        if name == "VF_CALL":  # `__VEC_SCOPE__ { f(args...); }`: f called once on this core
            return lower_call(lw, A.Call(e.span, A.Name(e.span, qname), e.args), None)
        return None
    if name in _CPP_ATOMICS and name not in lw.scope.functions \
            and len(e.args) == 1 + ATOMIC_KINDS[_CPP_ATOMICS[name]]:
        return _atomic(lw, e, name, _CPP_ATOMICS[name])
    thread = thread_of(lw)
    if thread is not None and name in _MEETING and name not in lw.scope.functions:
        return _meeting(lw, e, name, _MEETING[name])
    if thread is not None and name in _MEMORY_ORDER and name not in lw.scope.functions:
        return Val(C.VoidT())  # (its arguments, an address and constants, have no effects of their own)
    if thread is not None and name.removeprefix("asc_atomic_") in ATOMIC_KINDS and name.startswith("asc_atomic_") \
            and name not in lw.scope.functions:
        return _atomic(lw, e, name, name.removeprefix("asc_atomic_"))
    if thread is None or name not in _THREAD_CALLS and name != "GetWarpSize":
        return None
    if not any(p.name == "Simt" for p in all_parts[:-1]):
        return None
    if name == "GetWarpSize":
        return Val(C.I32, const=WARP_SIZE)
    dim = 0
    if targs:
        value = lw._template_arg_value(targs[0])
        if not isinstance(value, int) or not 0 <= value <= 2:
            raise Unsupported(f"Simt::{name} of dimension {value}: the dimensions are 0, 1 and 2", e)
        dim = value
    return member(lw, _THREAD_CALLS[name], "xyz"[dim], e)


def member(lw: FunctionLowerer, builtin: str, axis: str, node: A.Node) -> Val | None:
    """`threadIdx.x`, `blockDim.y`, `blockIdx.x`, `gridDim.x` in the thread being lowered; None outside a launch."""
    thread = thread_of(lw)
    if thread is None:
        return None
    k = "xyz".index(axis)
    if builtin == "threadIdx":
        return thread.index[k]
    if builtin == "blockDim":
        return thread.dims[k]
    if k > 0:
        return Val(C.U32, const=0 if builtin == "blockIdx" else 1)  # blockIdx.y/z 0, gridDim.y/z 1 (one-dimensional)
    from ascendir.lower.calls import lower_call

    query = "GetBlockIdx" if builtin == "blockIdx" else "GetBlockNum"
    value = lower_call(lw, A.Call(node.span, A.Name(node.span, A.QualifiedName(node.span, [
        A.NamePart(node.span, "AscendC"), A.NamePart(node.span, query)])), []), None)
    return lw.convert(value, C.U32, node)


def _meeting(lw: FunctionLowerer, e: A.Call, name: str, kind: str) -> Val:
    """asc_syncthreads() as ascendc.simt_sync; a warp function as ascendc.simt_warp of its operands: the value
    (its own type; the vote's predicate an int32_t), then the lane / delta / mask and the width (warpSize when
    not given) as int64 values (a negative lane stays negative)."""
    if kind == "sync":
        lw.emit(SimtSyncOp(), e)
        return Val(C.VoidT())
    args = [lw.expr(a) for a in e.args]
    want = 3 if kind.startswith("shfl") else 0 if kind == "activemask" else 1
    if not (want == 3 and len(args) in (2, 3) or len(args) == want):
        raise Unsupported(f"{name} with {len(args)} arguments: the SIMT API's takes {want}", e)
    if kind in ("all", "any", "ballot"):
        args[0] = lw.convert(args[0], C.I32, e)
    if args and not isinstance(args[0].ctype, C.Scalar):
        raise Unsupported(f"{name} of a {args[0].ctype}: the simulator exchanges scalars", e)
    if want == 3:
        args = [args[0], *(lw.convert(lw.convert(a, C.I32, e), C.I64, e) for a in args[1:])]
        if len(args) == 2:
            args.append(Val(C.I64, const=WARP_SIZE))
    if kind in ("reduce_max", "reduce_min") and not args[0].ctype.is_signed:
        kind = kind.replace("_m", "_um")  # uint32_t's order
    result = C.U32 if kind in ("ballot", "activemask") else C.I32 if kind in ("all", "any") else args[0].ctype
    op = lw.emit(SimtWarpOp(kind, [lw.ssa(a, e) for a in args], C.scalar_ir_type(result)), e)
    return Val(result, op.result)


def _atomic(lw: FunctionLowerer, e: A.Call, name: str, kind: str) -> Val:
    """asc_atomic_<kind>(address, values...): the element's value before (of the pointee's type)."""
    from ascendir.lower import ub_pointer

    if len(e.args) != 1 + ATOMIC_KINDS[kind]:
        raise Unsupported(f"{name} takes {1 + ATOMIC_KINDS[kind]} arguments, not {len(e.args)}", e)
    p = lw.expr(e.args[0])
    t = p.ctype
    if not isinstance(t, C.Pointer) or not isinstance(t.pointee, C.Scalar):
        raise Unsupported(f"{name} on a {t}: the address of a UB or GM scalar is modelled", e.args[0])
    if t.gm:
        target = lw.ssa(p, e)
    elif ub_pointer.is_ub_pointer(t):
        target = lw.ssa(ub_pointer.element_tensor(lw, p, e)[0], e)
    else:
        raise Unsupported(f"{name} on a pointer of no known memory ({t})", e.args[0])
    values = [lw.ssa(lw.convert(lw.expr(a), t.pointee, e), e) for a in e.args[1:]]
    op = lw.emit(SimtAtomicOp(kind, target, values, C.scalar_ir_type(t.pointee)), e)
    return Val(t.pointee, op.result)


def _together_call(lw: FunctionLowerer, qname: A.QualifiedName) -> str | None:
    """The first call in F (or a function of the program it calls) whose threads must run together and that is
    not modelled (_TOGETHER_PREFIXES), or None."""
    from ascendir.lower.astwalk import walk

    seen: set[str] = set()
    todo = [qname.parts[-1].name]
    while todo:
        fname = todo.pop()
        if fname in seen:
            continue
        seen.add(fname)
        for fn in lw.scope.functions.get(fname, ()):
            for n in walk(fn.body) if fn.body is not None else ():
                if isinstance(n, A.Call) and isinstance(n.callee, A.Name):
                    called = n.callee.qname.parts[-1].name
                    if called.startswith(_TOGETHER_PREFIXES) and called not in lw.scope.functions:
                        return called
                    if called in lw.scope.functions:
                        todo.append(called)
    return None


def _launch(lw: FunctionLowerer, e: A.Call, qname: A.QualifiedName) -> Val:
    """F's code once per thread, in the order of the threads' linear index (an scf.for over them)."""
    from ascendir.lower.calls import lower_call
    from ascendir.lower.calls_api import opaque_call

    fname = qname.parts[-1].name
    together = _together_call(lw, qname)
    if together is not None:
        # not lowered, and left as a call the program cannot run (ASC958 when a core reaches it, and a gap the
        # sweeps count), rather than left out
        lw.report.unsupported(f"the SIMT launch of {fname}: its threads call {together}, which makes them run "
                              "together (the simulator runs a launch's threads one after another)", e)
        return opaque_call(lw, e, f"asc_vf_call<{fname}> (its threads call {together})", [])
    extents = _dim3_args(e.args[0]) or []
    if not 1 <= len(extents) <= 3:
        raise Unsupported(f"a dim3 of {len(extents)} extents", e.args[0])
    dims = [lw.convert(lw.expr(x), C.U32, e) for x in extents] + [Val(C.U32, const=1)] * (3 - len(extents))
    xy = lw.arith("*", dims[0], dims[1], e)
    total = _thread_count(lw, dims, e)
    body = Block(arg_types=[C.scalar_ir_type(C.I64)])
    body.args[0].name_hint = "simt_thread"
    for_op = lw.emit(scf.ForOp(lw.const_ssa(0, C.I64, e), lw.ssa(total, e), lw.const_ssa(1, C.I64, e), [], body), e)
    # the simulator's launch: threads that meet wherever F reaches asc_syncthreads or a warp function from, and the
    # launch ordered as the vector function it is (rust_sim/src/simt.rs)
    for_op.attributes[SIMT_LAUNCH_ATTR] = UnitAttr()
    saved = thread_of(lw)
    with lw.at_end_of(for_op.body.block):
        linear = lw.convert(Val(C.I64, for_op.body.block.args[0]), C.U32, e)
        x = lw.arith("%", linear, dims[0], e)
        y = lw.arith("%", lw.arith("/", linear, dims[0], e), dims[1], e)
        z = lw.arith("/", linear, xy, e)
        lw._simt_thread = Thread((x, y, z), (dims[0], dims[1], dims[2]))  # type: ignore[attr-defined]
        try:
            lower_call(lw, A.Call(e.span, A.Name(e.span, qname), e.args[1:]), None)
        finally:
            lw._simt_thread = saved  # type: ignore[attr-defined]
        lw.emit(scf.YieldOp(), e)
    return Val(C.VoidT())


# the widest extent whose product of three still fits the simulator's i64 count: (2^21 - 1)^3 < 2^63
_EXACT_EXTENT = (1 << 21) - 1


def _thread_count(lw: FunctionLowerer, dims: list[Val], e: A.Call) -> Val:
    """The launch's thread count x * y * z as an i64, not wrapped. The extents are unsigned ints, whose product as
    an unsigned int is reduced modulo 2^32 ([basic.fundamental]/2, [expr.mul]): dim3(65536, 65536) was 0 threads, a
    launch silently skipped, where it asks for 2^32 (the docs' limit is on blockDim.x * blockDim.y * blockDim.z
    itself), and the simulator's limit (simt.rs begin: more than 2048 threads is ASC959, at the launch's
    line) would never see the count asked for. Constant extents multiply as Python ints; extents known at run
    time are widened to i64, each capped at _EXACT_EXTENT first, so the product cannot overflow: exact while
    every extent is below that, and past it still more than the limit (the others being at least 1)."""
    consts = [d.const for d in dims]
    if all(isinstance(c, int) for c in consts):
        count = 1
        for c in consts:
            count *= int(c) & 0xFFFFFFFF
        return Val(C.I64, const=min(count, (1 << 63) - 1))
    from ascendir.lower.calls_builtins import min_max

    wide = [min_max(lw, e, "min", (lw.convert(d, C.I64, e), Val(C.I64, const=_EXACT_EXTENT))) for d in dims]
    return lw.arith("*", lw.arith("*", wide[0], wide[1], e), wide[2], e)
