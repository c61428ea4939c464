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
Threads that wait for each other (asc_syncthreads) or exchange registers within a warp (shuffles, votes, warp
reductions) depend on running together: such a launch is not modelled, and says which call stops it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import Block

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

LAUNCHES = frozenset({"asc_vf_call", "VF_CALL"})
_DIM3 = frozenset({"dim3", "Dim3"})
# the SIMT calls whose threads must run together (the docs' 同步接口, Warp-Shfl / -Vote / -Reduce, 协作组)
_TOGETHER_PREFIXES = ("asc_syncthreads", "__syncthreads", "__syncwarp", "asc_shfl", "__shfl", "asc_all", "asc_any",
                      "asc_ballot", "asc_activemask", "asc_reduce_", "__ballot", "__any", "__all", "tiled_partition",
                      "binary_partition")
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
    thread = thread_of(lw)
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


def _together_call(lw: FunctionLowerer, qname: A.QualifiedName) -> str | None:
    """The first call in F (or a function of the program it calls) whose threads must run together, or None."""
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
    total = lw.convert(lw.arith("*", xy, dims[2], e), C.I64, e)
    body = Block(arg_types=[C.scalar_ir_type(C.I64)])
    body.args[0].name_hint = "simt_thread"
    for_op = lw.emit(scf.ForOp(lw.const_ssa(0, C.I64, e), lw.ssa(total, e), lw.const_ssa(1, C.I64, e), [], body), e)
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
