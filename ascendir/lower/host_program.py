"""A host program lowered as one kernel entry: its `main`, up to the kernel launch, with the launch a call.

The template library's examples (catlass) are host programs: main() parses the problem shape from argv, allocates
device memory with ACL, builds the kernel's parameter struct with the library's host-side adapter and launches
`KernelAdapter<Op><<<blockDim, nullptr, stream>>>(params)` from a header, a by-value struct holding the GM
addresses. No kernel of the program can be launched without what main computes, so main itself is the entry here:
its code is lowered as device code is (classes inlined, templates instantiated, constants folded) and every core
runs it; the launch is a call of the kernel function, and what main does after it is left out (it cannot change
what the kernel wrote) except the device-to-host copies, which say which buffers are the outputs.

The ACL runtime is modelled by what the launch needs of it:
- `aclrtMalloc(&ptr, size, policy)`: `ptr` becomes the next GM parameter of the entry, named after the variable
  (the run binds --input/--output to these, in allocation order or by name); its size is remembered;
- `aclrtMemcpy(dst, max, src, count, kind)`: host to device marks the device buffer an input, device to host an
  output, with the element type of the host array on the other side (`std::vector<fp16_t>`: half);
- every other `acl*` call (init, set device, streams, synchronise, free, finalise) succeeds and does nothing;
- the ACL enumerators the calls take (ACL_SUCCESS, ACL_ERROR_NONE, ACL_MEMCPY_*) have their values from acl.h;
- `std::atoi(argv[i])` reads the program arguments given to the run (`--args "256 512 128"`), and a std::string
  is the number of its text (host_program_args.py);
- `rand()` draws from glibc's generator, seeded 1 (`srand` reseeds it; `time()` is a fixed value): each call is the
  constant it draws, in the order main's code makes them (ascendir/lower/host_random.py); a call in a loop, whose
  body is lowered once for all its iterations, is a gap, and calls in host data code (left out, below) draw
  nothing, so a program filling host arrays before drawing a scalar gets other values than on the host. The
  draws are kept with the launch (`random`) and reported by the run.
Host data (variables of std:: container and stream types, and the statements that use them: filling inputs with
random numbers, the golden comparison) is not lowered: it never reaches the device. A vector of numbers whose
elements the code lists (an options struct's defaults) is configuration instead, lowered as the array of those
elements (host_program_vectors.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.host_random import HOST_TIME, RAND_MAX, HostRandom
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# acl.h (CANN's public runtime header): the enumerators host programs pass and compare with
ACL_CONSTANTS = {
    "ACL_SUCCESS": 0, "ACL_ERROR_NONE": 0, "RT_ERROR_NONE": 0,
    "ACL_MEMCPY_HOST_TO_HOST": 0, "ACL_MEMCPY_HOST_TO_DEVICE": 1, "ACL_MEMCPY_DEVICE_TO_HOST": 2,
    "ACL_MEMCPY_DEVICE_TO_DEVICE": 3,
    "ACL_MEM_MALLOC_HUGE_FIRST": 0, "ACL_MEM_MALLOC_HUGE_ONLY": 1, "ACL_MEM_MALLOC_NORMAL_ONLY": 2,
    "RAND_MAX": RAND_MAX,  # (stdlib.h's, glibc's value)
}
_HOST_TO_DEVICE, _DEVICE_TO_HOST = 1, 2
_RUNTIME_CALL = re.compile(r"^(acl(rt)?|rt)[A-Z]")  # the ACL runtime's functions (and the rt layer's)
# the host's types that never reach a device: their variables, and the statements using them, are left out
HOST_NAMESPACES = frozenset({"std"})
# element types of host arrays, as numpy names (helper headers' fp16_t is CANN's op::fp16_t, a half)
HOST_ELEMENT_DTYPES = {
    "fp16_t": "float16", "half": "float16", "aclFloat16": "float16", "float16_t": "float16",
    "bfloat16": "bfloat16", "bfloat16_t": "bfloat16", "float": "float32", "double": "float64",
    "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32",
    "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64", "int": "int32", "bool": "bool",
}
# the host's names of device element types (CANN's op::fp16_t / op::bfloat16 in opdev headers no build of ours
# reads): `sizeof(fp16_t)` in a buffer size, when the program does not define them itself
HOST_TYPE_ALIASES = {"fp16_t": "half", "bfloat16": "bfloat16_t", "aclError": "int32_t", "rtError_t": "int32_t"}
# what only prints: a statement naming one of these is left out (`std::cerr << ... << std::endl` in ACL_CHECK)
HOST_OUTPUT = frozenset({"cout", "cerr", "clog", "endl", "printf", "fprintf", "puts"})
KERNEL_ATTR = "ascendc.host_program"  # on the entry: its buffers and launch, as JSON (see HostProgram.describe)
# A buffer's size or the launch's blockDim that is not a constant while lowering (main's variables are cells
# until mem2reg) is kept as the operand of an opaque call of this name, `<MARK>size.<buffer>` or `<MARK>block_dim`;
# the run evaluates main's scalar code to read them and drops the calls before building (passes/sim/host_values.py).
MARK = "host_program."


@dataclass
class DeviceBuffer:
    """One aclrtMalloc: the GM parameter it became."""

    name: str
    size: int | None  # bytes, when the size is a constant while lowering (else see MARK)
    # "input" (copied to the device), "output" (copied back), "inplace" (both: catlass's matmul_add copies X into
    # the buffer the kernel writes D to, and D back from it), else "workspace"
    role: str = "workspace"
    dtype: str | None = None  # numpy name of the host array's elements it is copied from or into
    source: str | None = None  # the host variable main copies into it (host_program_buffers.py names it)


@dataclass
class HostProgram:
    """What lowering main found: the program's arguments, its device buffers and its launch."""

    args: tuple[str, ...]
    buffers: list[DeviceBuffer] = field(default_factory=list)
    # the blocks the launches were lowered into: one per path through main (`if (m > n)` choosing the swizzle of
    # the kernel launched, decided at run time here: each branch launches its own instance)
    launch_blocks: list[object] = field(default_factory=list)
    block_dim: int | None = None  # the launch's blockDim, when a constant while lowering (else see MARK)
    kernel: str | None = None  # the launched kernel's name
    host_arrays: dict[str, str] = field(default_factory=dict)  # host variable -> its element type's text
    # host variable -> the frames declaring one of that name: only their statements naming it are host
    # code; the kernel inlined into main may have a variable of the same name (catlass's grouped matmul kernels
    # call their GlobalTensor `groupList`, as 02_grouped_matmul_slice_m's main calls its host vector)
    host_frames: dict[str, list[object]] = field(default_factory=dict)
    variables: dict[str, int] = field(default_factory=dict)  # pointer variable -> the buffer it was last given
    random: HostRandom = field(default_factory=HostRandom)
    draws: list[dict[str, object]] = field(default_factory=list)  # each rand() call's value and where it is
    # host code main runs that the lowering could not follow and whose effect the launch may depend on (a listed
    # vector grown: host_program_vectors.py): each an error of the run at its place, as {"why", "span"}
    gaps: list[dict[str, object]] = field(default_factory=list)
    # calls through a table of functions left out until the run evaluates their keys (function_tables.py): main
    # may launch its kernel there, so a lowering with such calls and no launch is no failure yet
    awaiting_keys: int = 0
    # from an earlier lowering and evaluation (host_program_vectors.py): vectors of objects' counts by declarator
    # place, and host vectors given by the run, by name: (C element type, values)
    counts: dict[str, int] = field(default_factory=dict)
    given: dict[str, tuple[str, tuple[int | float, ...]]] = field(default_factory=dict)
    # whether main's source has `using namespace std` (its std types may be named unqualified), and the texts of
    # its strings by number (host_program_args.py)
    std_visible: bool = False
    strings: dict[str, int] = field(default_factory=dict)
    # host buffers main reads from files that the run was not given, as {"buffer", "reader", "span"}
    # (host_program_buffers.py)
    files: list[dict[str, object]] = field(default_factory=list)
    # the file of main, and the pointer types its functions cast each variable to (host_program_buffers.py)
    main_file: str | None = None
    casts: dict[str, list[A.TypeRef]] | None = None

    @property
    def launched(self) -> bool:
        return bool(self.launch_blocks)

    def describe(self) -> dict[str, object]:
        described: dict[str, object] = {
            "kernel": self.kernel, "block_dim": self.block_dim,
            "buffers": [{"name": b.name, "size": b.size, "role": b.role, "dtype": b.dtype}
                        | ({"source": b.source} if b.source else {}) for b in self.buffers]}
        if self.draws:
            described["random"] = self.draws
        if self.gaps:
            described["gaps"] = self.gaps
        if self.files:
            described["files"] = self.files
        return described


def _base_name(t: A.TypeRef) -> tuple[list[str], str]:
    if isinstance(t.base, A.QualifiedName):
        parts = [p.name for p in t.base.parts]
        return parts[:-1], parts[-1]
    return [], ""


def is_host_type(t: A.TypeRef, std_visible: bool = False) -> bool:
    """A type only the host has: std::vector, std::string, iostreams (written std:: qualified, or unqualified where
    `using namespace std` makes them visible: `std_visible`)."""
    from ascendir.lower.host_program_args import STD_TYPES

    qualifiers, name = _base_name(t)
    return bool(qualifiers) and qualifiers[0] in HOST_NAMESPACES or (std_visible and not qualifiers
                                                                       and name in STD_TYPES)


def is_runtime_handle(t: A.TypeRef) -> bool:
    """An ACL runtime handle (aclrtStream, aclrtContext, aclrtEvent): opaque to the program, and to the device."""
    _, name = _base_name(t)
    return name.startswith("aclrt") and not t.pointers


def _element_text(t: A.TypeRef) -> str | None:
    """`std::vector<fp16_t>` -> 'fp16_t'."""
    if isinstance(t.base, A.QualifiedName):
        targs = t.base.parts[-1].template_args
        if targs:
            value = targs[0].value
            ref = value.type if isinstance(value, A.TypeArgExpr) else value
            if isinstance(ref, A.TypeRef) and isinstance(ref.base, A.QualifiedName):
                return ref.base.parts[-1].name
            if isinstance(ref, A.TypeRef) and isinstance(ref.base, str):
                return ref.base  # a builtin type: float
            if isinstance(ref, A.Name):
                return ref.qname.parts[-1].name  # a type the parser read as a name: fp16_t
    return None


def _element_name(lw: FunctionLowerer, t: A.TypeRef) -> str:
    """The element type's name of host array type `t` (`std::vector<fp16_t>`: 'fp16_t'), an alias of the program's
    resolved to the number type it names (16_group_gemm's `using ScalarType = float;`: 'float')."""
    text = _element_text(t) or ""
    targs = t.base.parts[-1].template_args if isinstance(t.base, A.QualifiedName) else None
    if text in HOST_ELEMENT_DTYPES or not targs:
        return text
    try:
        resolved = lw._template_arg_value(targs[0])
    except Unsupported:
        return text
    return resolved.name if isinstance(resolved, C.Scalar) else text


def _names_in(node: A.Node) -> set[str]:
    from ascendir.lower.astwalk import walk

    return {n.qname.parts[-1].name for n in walk(node) if isinstance(n, A.Name) and len(n.qname.parts) == 1}


def _prints(lw: FunctionLowerer, st: A.Node) -> bool:
    """An expression statement that writes to a host stream or the console (its control flow is kept)."""
    from ascendir.lower.astwalk import walk

    if not isinstance(st, A.ExprStmt):
        return False
    return any(isinstance(n, A.Name) and n.qname.parts[-1].name in HOST_OUTPUT and _names_the_library(lw, n.qname)
               for n in walk(st))


def _names_the_library(lw: FunctionLowerer, qname: A.QualifiedName) -> bool:
    """Whether `cout` / `printf` ... names the C++ library's: written `std::cout`, or unqualified where no local,
    parameter or member of that name hides it (unqualified lookup stops at the innermost declaration,
    [basic.lookup.unqual]/1). catlass's Conv2dParams constructor has a parameter `cout` (output channels):
    `postIm2colShape = MakeCoord(batch, ho, wo, cout, ...)` is no print, and leaving it out left the shape 0."""
    if len(qname.parts) > 1:
        return qname.parts[0].name == "std"
    return lw.lookup(qname.parts[0].name) is None


def _calls_named(node: A.Node, name: str) -> bool:
    from ascendir.lower.astwalk import walk

    return any(isinstance(n, A.Call) and isinstance(n.callee, A.Name) and n.callee.qname.parts[-1].name == name
               for n in walk(node))


def skips(lw: FunctionLowerer, st: A.Node) -> bool:
    """Whether statement `st` of a host program is left out (host data, or after the launch), recording the
    host arrays it declares."""
    hp = lw.host_program
    assert hp is not None
    if isinstance(st, A.VarDecl) and st.declarators and not _after_launch(lw):
        from ascendir.lower import host_program_vectors

        if host_program_vectors.lowers(lw, st):
            return True  # lowered here: a vector the run gives, or one of objects (host_program_vectors.py)
        from ascendir.lower import host_program_args

        if host_program_args.declare(lw, st):
            return True  # lowered here: a string, as the number of its text (host_program_args.py)
    if isinstance(st, A.VarDecl) and st.declarators and is_host_type(st.declarators[0].type, hp.std_visible):
        if not _after_launch(lw) and _declares_listed_vectors(lw, st):
            return True  # lowered here: arrays of the elements listed (host_program_vectors.py)
        for d in st.declarators:
            hp.host_arrays[d.name] = _element_name(lw, d.type)
            hp.host_frames.setdefault(d.name, []).append(lw.frame)
        return True
    host_made = _host_typed_init(lw, st)
    if host_made is not None:
        hp.host_arrays[host_made[0]] = host_made[1]
        hp.host_frames.setdefault(host_made[0], []).append(lw.frame)
        return True
    if isinstance(st, A.VarDecl) and st.declarators and is_runtime_handle(st.declarators[0].type):
        for d in st.declarators:  # `aclrtStream stream{nullptr};`: passed along to the launch, which ignores it
            lw.bind(d.name, Val(C.I64, const=0))
        return True
    copies = _calls_named(st, "aclrtMemcpy")
    if not copies and _prints(lw, st):
        return True
    if _after_launch(lw):
        return not copies  # after the launch only the copies back matter: they name the outputs
    if copies:
        return False
    return any(f is lw.frame for name in _names_in(st) for f in hp.host_frames.get(name, ()))


def _declares_listed_vectors(lw: FunctionLowerer, st: A.VarDecl) -> bool:
    """Lowers `std::vector<uint32_t> pads = {0, 0, 0};` as the array of its elements (host_program_vectors.py);
    False, lowering nothing, when a declarator of `st` declares anything else."""
    from ascendir.lower import host_program_vectors

    if not all(host_program_vectors.listed_elements(d) is not None for d in st.declarators):
        return False
    mark = lw._mark()
    for d in st.declarators:
        held = host_program_vectors.declare(lw, d, d.name)
        if held is None:
            lw._rollback(mark)
            return False
        lw.bind(d.name, held)  # type: ignore[arg-type]
    return True


def _host_typed_init(lw: FunctionLowerer, st: A.Node) -> tuple[str, str] | None:
    """`auto groupList = golden::GenerateGroupList<int64_t>(m, count);`, a variable deduced from a call of a
    function returning a host type (std::vector<T>): host data as a variable declared with that type is. Its name
    and element type, T bound to the call's template argument; None for any other statement."""
    if not isinstance(st, A.VarDecl) or len(st.declarators) != 1:
        return None
    d = st.declarators[0]
    if not (isinstance(d.type.base, A.QualifiedName) and [p.name for p in d.type.base.parts] == ["auto"]
            or d.type.base == "auto") or not isinstance(d.init, A.Call) or not isinstance(d.init.callee, A.Name):
        return None
    last = d.init.callee.qname.parts[-1]
    found = [f for f in lw.scope.functions.get(last.name, []) if f.return_type is not None and f.body is not None]
    hp = lw.host_program
    assert hp is not None
    if not found or not is_host_type(found[0].return_type, hp.std_visible):  # type: ignore[arg-type]
        return None
    fn = found[0]
    element = _element_text(fn.return_type) or ""  # type: ignore[arg-type]
    params = [p.name for p in fn.template_params or []]
    if element in params and last.template_args and params.index(element) < len(last.template_args):
        value = last.template_args[params.index(element)].value
        ref = value.type if isinstance(value, A.TypeArgExpr) else value
        if isinstance(ref, A.TypeRef):
            element = ref.base if isinstance(ref.base, str) else ref.base.parts[-1].name
        elif isinstance(ref, A.Name):
            element = ref.qname.parts[-1].name
    return d.name, element


def constant(name: str) -> Val | None:
    value = ACL_CONSTANTS.get(name)
    return None if value is None else Val(C.I32, const=value)


def call(lw: FunctionLowerer, e: A.Call, name: str) -> Val | None:
    """The ACL runtime and argv calls of a host program; None for any other call."""
    if name == "aclrtMalloc":
        return _malloc(lw, e)
    if name == "aclrtMemcpy":
        return _memcpy(lw, e)
    from ascendir.lower import host_program_buffers

    if name == "aclrtMallocHost":
        return host_program_buffers.malloc_host(lw, e)  # host memory: a given buffer's values
    read = host_program_buffers.file_read(lw, e, name)  # ReadFile(path, buffer, size): the run reads no files
    if read is not None:
        return read
    if _RUNTIME_CALL.match(name):
        # aclInit, aclrtSetDevice, aclrtCreateStream, aclrtFree, rtGetC2cCtrlAddr, ...: succeed, and leave what they
        # would write as it was (an fftsAddr of 0 takes the adapter's launch without one)
        return Val(C.I32, const=0)
    if name in ("rand", "srand", "time"):
        return _random(lw, e, name)
    from ascendir.lower import host_program_args, host_program_math

    held = host_program_math.call(lw, e, name)  # std::ceil, std::log2, ...: the host's libm
    if held is not None:
        return held
    return host_program_args.call(lw, e, name)  # atoi(argv[i]), string(argv[i])


def _random(lw: FunctionLowerer, e: A.Call, name: str) -> Val:
    """rand() as the constant it draws, srand(seed) reseeding, time() the fixed HOST_TIME (host_random.py)."""
    hp = lw.host_program
    assert hp is not None
    if name == "time":
        return Val(C.I64, const=HOST_TIME)
    from frontend.diagnostics import as_span

    span = as_span(e.span)
    where = [span.file, span.line, span.col, span.end_line, span.end_col]
    if _in_loop(lw):
        why = (f"{name}() in a loop: main's loops are lowered once for all their iterations, so the values drawn "
               "in each cannot be told apart here")
        hp.draws.append({"value": None, "span": where, "why": why})  # (the run reports it: the statement is a gap)
        raise Unsupported(why, e)
    if name == "srand":
        seed = lw.expr(e.args[0]).const if e.args else None
        if not isinstance(seed, int):
            raise Unsupported("srand() of a seed that is not a constant here", e)
        hp.random.seed(seed)
        return Val(C.VoidT())
    value = hp.random.rand()
    hp.draws.append({"value": value, "span": where})
    return Val(C.I32, const=value)


def gap(lw: FunctionLowerer, why: str, node: A.Node) -> Unsupported:
    """Host code the run depends on and the lowering cannot follow: kept for the run to report as an error at
    `node` (a gap alone is a warning of the lowering, which a run does not show), and the exception to raise."""
    from frontend.diagnostics import as_span

    hp = lw.host_program
    assert hp is not None
    span = as_span(node.span)
    hp.gaps.append({"why": why, "span": [span.file, span.line, span.col, span.end_line, span.end_col]})
    return Unsupported(why, node)


def _in_loop(lw: FunctionLowerer) -> bool:
    """Whether the code being lowered is in a loop's body, in main or in a function inlined from one."""
    return any(frame.loop_flags for frame in lw.frames)


def mark(lw: FunctionLowerer, what: str, value: Val, node: A.Node) -> None:
    """A value the run reads by evaluating main's code (see MARK)."""
    _mark(lw, what, value, node)


def _mark(lw: FunctionLowerer, what: str, value: Val, node: A.Node) -> None:
    from xdsl.dialects.builtin import StringAttr

    from ascendir.dialects import ascendc as asc

    op = asc.OpaqueCallOp.create(operands=[lw.ssa(value, node)], properties={"callee": StringAttr(MARK + what)})
    lw.emit(op, node)


def _strip(e: A.Node) -> A.Node:
    """`reinterpret_cast<void **>(&deviceA)` -> `deviceA`."""
    while True:
        if isinstance(e, A.Cast) and e.expr is not None:
            e = e.expr
        elif isinstance(e, A.Unary) and e.op == "&":
            e = e.operand
        else:
            return e


def _malloc(lw: FunctionLowerer, e: A.Call) -> Val:
    hp = lw.host_program
    assert hp is not None and lw.kernel_block is not None
    if len(e.args) < 2:
        raise Unsupported("aclrtMalloc with fewer than two arguments", e)
    from ascendir.lower import host_program_buffers

    # (through a pointer to the variable, `uint8_t **device` bound to &qDevice: that variable)
    via = host_program_buffers.pointer_target(lw, e.args[0])
    target = _strip(e.args[0])
    size = lw.expr(e.args[1])
    name = via[0] if via is not None else target.qname.parts[-1].name if isinstance(target, A.Name) \
        else f"buffer{len(hp.buffers)}"
    taken = {b.name for b in hp.buffers}
    unique, n = name, 1
    while unique in taken:
        n += 1
        unique = f"{name}_{n}"
    t = C.Pointer(C.U8, gm=True)
    arg = lw.kernel_block.insert_arg(C.ir_type(t), len(lw.kernel_block.args))
    arg.name_hint = unique
    if via is not None or isinstance(target, A.Name):
        hp.variables[name] = len(hp.buffers)
    hp.buffers.append(DeviceBuffer(unique, size.const if isinstance(size.const, int) else None))
    if hp.buffers[-1].size is None:
        _mark(lw, f"size.{len(hp.buffers) - 1}", size, e)
    if via is not None:
        lw.store(via[1], Val(t, arg), e)
    else:
        lw.assign(target, Val(t, arg), e)
    return Val(C.I32, const=0)


def _memcpy(lw: FunctionLowerer, e: A.Call) -> Val:
    hp = lw.host_program
    assert hp is not None
    if len(e.args) < 5:
        raise Unsupported("aclrtMemcpy with fewer than five arguments", e)
    kind = lw.expr(e.args[4]).const
    if kind not in (_HOST_TO_DEVICE, _DEVICE_TO_HOST):
        return Val(C.I32, const=0)  # host to host, device to device: no buffer changes role
    device, host = (e.args[0], e.args[2]) if kind == _HOST_TO_DEVICE else (e.args[2], e.args[0])
    pointer = _strip(device)
    index = hp.variables.get(pointer.qname.parts[-1].name) if isinstance(pointer, A.Name) else None
    if index is None:
        raise Unsupported("aclrtMemcpy of device memory no aclrtMalloc of this program returned", e)
    buffer = hp.buffers[index]
    copied_in = kind == _HOST_TO_DEVICE or buffer.role in ("input", "inplace")
    copied_back = kind == _DEVICE_TO_HOST or buffer.role in ("output", "inplace")
    buffer.role = "inplace" if copied_in and copied_back else "input" if copied_in else "output"
    array = _host_array_name(host)
    if kind == _HOST_TO_DEVICE and array not in hp.host_arrays:
        buffer.source = array  # (host memory main fills: host_program_buffers.py; not host data, left out)
    if array is not None and hp.host_arrays.get(array):
        buffer.dtype = HOST_ELEMENT_DTYPES.get(hp.host_arrays[array], buffer.dtype)
    if kind == _HOST_TO_DEVICE and array is not None and array not in hp.host_arrays:
        from ascendir.lower import host_program_vectors

        # main copies an array it computes (a vector of problem shapes): the buffer holds those bytes
        host_program_vectors.mark_content(lw, index, host, e)
    return Val(C.I32, const=0)


def _host_array_name(e: A.Node) -> str | None:
    """`hostA.data()`, `hostA`, `&hostA[0]` -> 'hostA'."""
    e = _strip(e)
    if isinstance(e, A.Call) and isinstance(e.callee, A.Member):
        e = e.callee.obj
    if isinstance(e, A.Index):
        e = e.base
    return e.qname.parts[-1].name if isinstance(e, A.Name) else None


def _encloses(lw: FunctionLowerer, outer: object, inner: object) -> bool:
    """Whether IR block `inner` is `outer` or lies in a region of an op of `outer` (a body being built apart counts
    as in the block its op will be added to)."""
    block = inner
    for _ in range(10_000):
        if block is None:
            return False
        if block is outer:
            return True
        op = block.parent_op()  # type: ignore[attr-defined]
        block = op.parent_block() if op is not None else lw.attach_to.get(id(block))
    return False


def _after_launch(lw: FunctionLowerer) -> bool:
    """Whether a launch was lowered on the path being lowered: in this block or a region nested in it."""
    hp = lw.host_program
    assert hp is not None
    here = lw.builder.insertion_point.block
    return any(_encloses(lw, here, b) for b in hp.launch_blocks)


def launch(lw: FunctionLowerer, e: A.KernelLaunch) -> Val:
    """`k<T><<<blockDim, l2ctrl, stream>>>(args)` in a host program: blockDim remembered, k called."""
    hp = lw.host_program
    assert hp is not None
    if _after_launch(lw):
        raise Unsupported("a second kernel launch on one path (a host program is run up to its first)", e)
    if e.config:
        dim = lw.expr(e.config[0])
        if hp.block_dim is None and not hp.launch_blocks and isinstance(dim.const, int):
            hp.block_dim = dim.const
        _mark(lw, "block_dim", dim, e)  # (read on the path main takes, where each branch launches its own)
    if isinstance(e.kernel, A.Name):
        hp.kernel = hp.kernel or e.kernel.qname.parts[-1].name
    lw.expr(A.Call(e.span, e.kernel, e.args))
    hp.launch_blocks.append(lw.builder.insertion_point.block)
    return Val(C.VoidT())


def find_main(scope: object) -> A.FunctionDecl | None:
    found = [d for d in getattr(scope, "functions", {}).get("main", []) if d.body is not None]
    return found[0] if found else None


def lower_entry(lw: FunctionLowerer, main: A.FunctionDecl, args: tuple[str, ...],
                counts: dict[str, int] | None = None,
                given: dict[str, tuple[str, tuple[int | float, ...]]] | None = None,
                std_visible: bool = False) -> object:
    """main's body as a kernel entry whose parameters are the buffers its aclrtMalloc calls allocate (`counts`,
    `given` and `std_visible`: see HostProgram)."""
    import json

    from xdsl.builder import Builder, InsertPoint
    from xdsl.dialects.builtin import StringAttr
    from xdsl.ir import Block, Region

    from ascendir.dialects import ascendc as asc
    from ascendir.lower.frame import Frame

    for fn, _ in lw.scope.kernels:  # the launch calls them
        lw.scope.functions.setdefault(fn.name.parts[-1].name, []).append(fn)
    for name, target in HOST_TYPE_ALIASES.items():
        if name not in lw.scope.classes and (name not in lw.scope.aliases
                                             or _names_external(lw, lw.scope.aliases[name], name)):
            lw.scope.aliases[name] = A.TypeRef(main.span, target)
    from ascendir.lower import host_program_math

    host_program_math.declare(lw)  # std::gcd, std::lcm
    hp = HostProgram(tuple(args), counts=dict(counts or {}), given=dict(given or {}), std_visible=std_visible,
                     main_file=main.span.file if main.span is not None else None)
    lw.host_program = hp
    assert main.body is not None
    frame = Frame("main", [{}], None, {}, lw.written_names(main.body))
    lw.frames.append(frame)
    block = Block()
    lw.builder = Builder(InsertPoint.at_end(block))
    lw.kernel_block = block
    lw.bind("argc", Val(C.I32, const=len(args) + 1))
    lw.bind("argv", Val(C.UnknownT("argv")))
    lw.begin_function_body(main.body.body, main)
    lw.lower_stmts(main.body.body, top="function")
    lw.frames.pop()
    lw.builder.insert(asc.ReturnOp.create())
    block.last_op.location = lw.loc(main.body)  # type: ignore[union-attr]
    if not hp.launched and not hp.awaiting_keys:
        raise Unsupported("main launches no kernel the lowering could follow", main)
    kernel = asc.KernelOp(hp.kernel or "main", [a.type for a in block.args], Region(block), lw.kernel_type)
    kernel.location = lw.loc(main)
    kernel.attributes[KERNEL_ATTR] = StringAttr(json.dumps(hp.describe()))
    return kernel


def _names_external(lw: FunctionLowerer, t: A.TypeRef, name: str) -> bool:
    """Whether alias `name` of the program is `using fp16_t = op::fp16_t;` (catlass 102's do_tiling_b16.h): the type
    of that name in a namespace the program does not declare, from a CANN header the run does not read (opdev's).
    The alias then stands for the host type HOST_TYPE_ALIASES gives that name; read as written, the name would
    resolve to the alias again, without end."""
    if not isinstance(t.base, A.QualifiedName) or t.pointers or t.array_dims or len(t.base.parts) < 2:
        return False
    parts = t.base.parts
    return parts[-1].name == name and not parts[-1].template_args and parts[-2].name not in lw.scope.namespaces


_CORE_COUNTS = {"GetCoreNumAic": "aic_cores", "GetCoreNumAiv": "aiv_cores", "GetCoreNum": "aiv_cores"}


def method(lw: FunctionLowerer, e: A.Call, callee: A.Member) -> Val | None:
    """`PlatformAscendCManager::GetInstance()->GetCoreNumAic()` (and a platform object's GetCoreNum*): the cores of
    the chip the program runs on; None for any other method call."""
    from ascendir.chips import load_chip
    from ascendir.lower.astwalk import walk

    field_name = _CORE_COUNTS.get(callee.member)
    if field_name is None or e.args:
        return None
    names = [p.name for n in walk(callee.obj) if isinstance(n, A.Name) for p in n.qname.parts]
    if not any("platform" in n.lower() for n in names):
        return None
    return Val(C.U32, const=int(getattr(load_chip(lw.options.chip), field_name)))  # type: ignore[attr-defined]
