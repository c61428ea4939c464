"""Host memory of a host program's main: aclrtMallocHost buffers, and the functions that read files into them.

catlass's attention examples (19_mla, 23_flash_attention_infer) read their sizes and data from the files their
gen_data.py writes:

    void *qNtokens = nullptr;
    aclrtMallocHost(&qNtokens, 1 * sizeof(int32_t));
    ReadFile(dataPath + "/q_ntokens.bin", qNtokens, 1 * sizeof(int32_t));     // a std::ifstream
    int32_t numTokens = static_cast<int32_t *>(qNtokens)[0];                   // sizes every buffer
    AllocMem(&qHost, &qDevice, qoSize);                                        // aclrtMallocHost + aclrtMalloc
    ReadFile(dataPath + "/q.bin", qHost, qoSize);
    aclrtMemcpy(qDevice, qoSize, qHost, qoSize, ACL_MEMCPY_HOST_TO_DEVICE);

The run reads no host files. A function of the program that opens one (declares a file stream, or calls fopen) is
not followed: a call of it is left out (it returns true), and the host buffers passed to it hold what the run is
given by their names (allocated in main's code or through a helper taking `uint8_t **`), as host vectors are (`--input qNtokens=n.npy`, host_program_vectors.py): aclrtMallocHost of
a given buffer makes its variable the array of those values, so main's reads of it (`numTokens`, the tiling's
`qSeqLen[i]`) have them and the sizes they make fold. A buffer not given is listed with the launch (`files`):
the run names it in an error when main reads it, and in a warning where main copies it to a device buffer, whose
bytes are then drawn at random unless that buffer is given (`--input qDevice=q.npy`; a large buffer is best given
so: a given host buffer is lowered as an array of its values).

Host memory main computes into and reads as numbers of one type (19_mla's `void *tilingHost`, allocated with
aclrtMallocHost, filled by `GetMLATilingParam(mlaInfo, blockDim, (uint32_t *)tilingHost)`, read back as
`*((uint32_t *)tilingHost + TILING_KVCORENUM)` and copied to the device) is an array of that type: the type main's
source casts the variable's pointer to (one type only; a buffer it never casts, such as the data read from files
and only copied, is not followed), its length the size allocated, evaluated and lowered again when not a constant
here (the counts of host_program_vectors.py, `count.host.<place>`).

aclrtMalloc / aclrtMallocHost through a pointer to the variable (AllocMem's `reinterpret_cast<void **>(device)`,
`device` a `uint8_t **` parameter bound to `&qDevice`) set the variable pointed to, and a device buffer is named
after it (qDevice), as one allocated in main is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# what opens a host file: the std file streams a reader declares, and C's calls
_FILE_STREAMS = frozenset({"ifstream", "fstream", "ofstream", "filebuf", "FILE"})
_FILE_CALLS = frozenset({"fopen", "freopen", "open"})
_READERS: dict[int, bool] = {}  # id of a function's declaration -> whether it opens a file


def _opens_file(fn: A.FunctionDecl) -> bool:
    hit = _READERS.get(id(fn))
    if hit is None:
        from ascendir.lower.astwalk import walk

        hit = False
        for n in walk(fn.body) if fn.body is not None else ():
            if isinstance(n, A.VarDecl) and n.declarators and isinstance(n.declarators[0].type.base, A.QualifiedName) \
                    and n.declarators[0].type.base.parts[-1].name in _FILE_STREAMS:
                hit = True
            elif isinstance(n, A.Call) and isinstance(n.callee, A.Name) \
                    and n.callee.qname.parts[-1].name in _FILE_CALLS:
                hit = True
            if hit:
                break
        _READERS[id(fn)] = hit
    return hit


def _strip(e: A.Node) -> A.Node:
    while isinstance(e, A.Cast) and e.expr is not None:
        e = e.expr
    return e


def pointer_target(lw: FunctionLowerer, target: A.Node) -> tuple[str, Cell] | None:
    """The variable `aclrtMalloc(target, ...)` sets when `target` is a pointer to it held in a variable (a
    `uint8_t **device` parameter bound to `&qDevice`): its name and cell; None for `&var` and anything else."""
    e = _strip(target)
    if not (isinstance(e, A.Name) and len(e.qname.parts) == 1):
        return None
    b = lw.lookup(e.qname.parts[0].name)
    if not isinstance(b, Val) and not isinstance(b, Cell):
        return None
    v = lw.expr(e)
    if isinstance(v.ctype, C.Pointer) and isinstance(v.ctype.pointee, C.Pointer) and isinstance(v.obj, Cell) \
            and v.obj.name:
        return v.obj.name, v.obj
    return None


def malloc_host(lw: FunctionLowerer, e: A.Call) -> Val:
    """`aclrtMallocHost(&p, size)`: `p` becomes the array of the values the run gives for it, when it gives them;
    else nothing changes (the buffer is host memory main fills)."""
    hp = lw.host_program
    assert hp is not None
    if not e.args:
        return Val(C.I32, const=0)
    via = pointer_target(lw, e.args[0])
    target = _strip(e.args[0])
    if isinstance(target, A.Unary) and target.op == "&":
        target = target.operand
    name = via[0] if via is not None else (target.qname.parts[-1].name if isinstance(target, A.Name) else None)
    if name is None:
        return Val(C.I32, const=0)
    cell = via[1] if via is not None else None
    if name not in hp.given:
        if len(e.args) >= 2:
            _host_array(lw, name, cell, e)
        return Val(C.I32, const=0)
    from ascendir.lower import host_program_vectors

    if not _rebind(lw, name, cell, host_program_vectors.given_array(lw, name, e)):
        from ascendir.lower.host_program import gap

        raise gap(lw, f"host buffer '{name}' is given (--input), but the variable this aclrtMallocHost sets is not "
                  "found", e)
    return Val(C.I32, const=0)


def _host_array(lw: FunctionLowerer, name: str, cell: Cell | None, e: A.Call) -> None:
    """Makes host memory `name` main reads as numbers of one type the array of them (see the module's
    docstring); nothing when main's source casts it to no one number type."""
    hp = lw.host_program
    assert hp is not None
    elem = _read_as(lw, name)
    if elem is None:
        return
    size = lw.expr(e.args[1])
    from frontend.diagnostics import as_span

    span = as_span(e.span)
    key = f"host.{span.file}:{span.line}:{span.col}"
    count = size.const if isinstance(size.const, int) else hp.counts.get(key)
    if count is None:
        from ascendir.lower.host_program import mark

        mark(lw, f"count.{key}", size, e)  # known once main's code is evaluated; lowered again with it
        return
    if count // elem.size > 0:
        _rebind(lw, name, cell, lw.new_array(C.ArrayT(elem, count // elem.size), name, e, None))


def _read_as(lw: FunctionLowerer, name: str) -> C.Scalar | None:
    """The one number type main's source casts pointer variable `name` to (`(uint32_t *)tilingHost`,
    `static_cast<int32_t *>(qSeq)`), in the functions of main's file; None when none or several."""
    hp = lw.host_program
    assert hp is not None
    if hp.casts is None:
        from ascendir.lower.astwalk import walk

        hp.casts = {}
        for fns in lw.scope.functions.values():
            for fn in fns:
                if fn.body is None or fn.span is None or fn.span.file != hp.main_file:
                    continue
                for n in walk(fn.body):
                    if isinstance(n, A.Cast) and n.type.pointers == ["*"] and isinstance(n.expr, A.Name) \
                            and len(n.expr.qname.parts) == 1:
                        hp.casts.setdefault(n.expr.qname.parts[0].name, []).append(n.type)
    found = set()
    for t in hp.casts.get(name, []):
        from dataclasses import replace

        elem = lw.resolve_type(replace(t, pointers=[]))
        found.add(elem if isinstance(elem, C.Scalar) else None)
    return found.pop() if len(found) == 1 else None  # type: ignore[return-value]


def _rebind(lw: FunctionLowerer, name: str, cell: Cell | None, value: object) -> bool:
    """Binds `name` to `value` in the scope that declares it: of this frame (not the block of a `do { } while (0)`
    the call is in: ACL_CHECK), or, set through a pointer (`cell`, AllocMem's `uint8_t **host` bound to &qSeqHost),
    of the frame whose variable that is."""
    frames = reversed(lw.frames) if cell is not None else [lw.frame]
    for frame in frames:
        for scope in reversed(frame.scopes):
            if name in scope and (cell is None or scope[name] is cell):
                scope[name] = value  # type: ignore[assignment]
                return True
    return False


def file_read(lw: FunctionLowerer, e: A.Call, name: str) -> Val | None:
    """A call of a function of the program that opens a file (ReadFile): left out, returning true, its pointer
    arguments recorded as host buffers read from files unless the run gives them; None for any other call."""
    hp = lw.host_program
    assert hp is not None
    found = [f for f in lw.scope.functions.get(name, []) if f.body is not None]
    if not found or not all(_opens_file(f) for f in found):
        return None
    from frontend.diagnostics import as_span

    span = as_span(e.span)
    for arg in e.args:
        a = _strip(arg)
        if not (isinstance(a, A.Name) and len(a.qname.parts) == 1):
            continue
        buffer = a.qname.parts[0].name
        b = lw.lookup(buffer)
        held = b.ctype if isinstance(b, Cell | Val) else None
        if buffer in hp.given or not isinstance(held, C.Pointer | C.ArrayT):
            continue
        hp.files.append({"buffer": buffer, "reader": name,
                         "span": [span.file, span.line, span.col, span.end_line, span.end_col]})
    return Val(C.BOOL, const=1)
