"""Binding a launch's arrays to the kernel's parameters: one (name, role, bytes) buffer per parameter (inputs,
outputs, in-place and ref tensors, tensor lists' descriptors, namespace-scope GM arrays, the workspace and the
tiling data), and each tensor's memory padded to the allocation the framework would make.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from passes.sim.launch_tensors import INT4, SimError, _input, dtype_name, numpy_dtype, packed_int4_bytes
from passes.sim.tensor_list import descriptor

_WORKSPACE_PARAMS = ("workspace", "usrworkspace", "userworkspace")


def _param_kind(name: str) -> str:
    """What a kernel's GM parameter holds by its name: "workspace" (workspace, workspaceGM, usrWorkspace, ...),
    "tiling" (tiling, tilingGm, tiling_gm, tiling_data, ...) or "tensor"."""
    lname = name.lower()
    # workspaceGM / workspace_gm / usrWorkspace: the same buffer by the names vendor kernels give its GM address
    # (ops-nn mat_mul_v3's `GM_ADDR workspaceGM`, read as a tensor it was a 0-byte buffer: ASC950 at its ND2NZ copy)
    if lname in _WORKSPACE_PARAMS or lname.replace("_", "").removesuffix("gm") in _WORKSPACE_PARAMS:
        return "workspace"
    if lname.replace("_", "").startswith("tiling"):
        return "tiling"
    return "tensor"


def _tensor_params(prog: Any) -> list[Any]:
    """The kernel's GM parameters that take a tensor (not the workspace, the tiling or a namespace-scope array)."""
    return [p for p in prog.params if p.dtype == "gm" and _param_kind(p.name) == "tensor"
            and p.name not in prog.statics]


def unbound_by_name(prog: Any, named: Any, outputs: Mapping[str, Any]) -> list[str]:
    """For a kernel with no op description given its inputs by name: the tensor parameters no input and no output
    names, when every name given is a parameter's. Such a launch binds each tensor to the parameter of its name
    (_buffers), so a parameter left out has nothing to take; in order the tensors would slide onto the wrong
    parameters ({"x": ...} for add(x, y, z): x, then 'y' an output). Names that are not all parameters' keep
    the positional rule (inputs, then outputs): []."""
    params = [p.name for p in _tensor_params(prog)]
    if not isinstance(named, Mapping) or not named or not all(k in params for k in [*named, *outputs]):
        return []
    return [p for p in params if p not in named and p not in outputs]


def _buffers(prog: Any, arrays: list[np.ndarray | None], in_names: list[str], outputs: dict[str, Any],
             out_names: list[str], workspace: int, outputs_initialised: bool, named: Any = None,
             tiling_data: bytes | None = None, inplace: set[str] | frozenset[str] = frozenset(),
             need_atomic: bool = False, init_values: Mapping[str, Any] | None = None
             ) -> tuple[list[tuple[str, str, Any]], dict[str, np.ndarray]]:
    """One (name, role, uint8 view) per kernel parameter: the op's inputs, then its outputs, by position among
    the kernel's tensor parameters (or by the parameters' names, when every tensor is given by one); then the
    workspace and the tiling data (the bytes the host saved, for a kernel that reads them from GM itself). An
    input named in `inplace` (the op's name for it, or the kernel parameter's) has the role inplace: the
    simulator reports a write into any other input (ASC963). A ref tensor's output (the op lists an input and
    an output of one name: one memory on the device) is (name, "alias", the index of its input's buffer); that
    buffer is the output's array, starting as a copy of the input's (the caller's input stays as it was). The
    returned outputs end with each other in-place input, under its name: the array the kernel's writes come back
    into (the caller's own, as bench's correctness stage reads an in-place task's result back from its inputs),
    so an op that declares no outputs and updates its inputs (ops-nn apply_adam_w_v2's var, m, v) returns them.
    `need_atomic` (the host tiling set SetNeedAtomic(true)): the runtime fills the outputs before the launch with
    their OpDef's InitValue (asc-devkit OpParamDef/InitValue.md: it takes effect only with SetNeedAtomic(true)),
    `init_values` by output name (the op description's "init_value", frontend/opdef_init_value.py; 0 where it
    says none), so each starts with that value (a caller's array too) and counts as written; without it an
    output the kernel leaves unwritten is a finding (ASC961)."""
    tensor_params = _tensor_params(prog)
    out_arrays: dict[str, Any] = {}
    updated: dict[str, Any] = {}  # an in-place input's name -> the array its buffer is written back into
    made: list[Any] = []

    def output_array(spec: Any, name: str) -> np.ndarray:
        if isinstance(spec, np.ndarray):
            arr, dtype = np.ascontiguousarray(spec), _array_dtype(spec)
        elif spec.dtype == INT4:
            arr, dtype = np.zeros(packed_int4_bytes(spec.shape), dtype=np.uint8), INT4
        else:
            arr, dtype = np.zeros(spec.shape, dtype=numpy_dtype(spec.dtype)), str(spec.dtype)
        if need_atomic and name not in in_names:  # (a ref output holds its input's data)
            # the runtime's fill before the launch; the kernel's writes come back into this array
            initial_fill(arr, dtype, (init_values or {}).get(name))
        return arr

    for name, spec in outputs.items():
        made.append([output_array(s, name) for s in spec] if isinstance(spec, list) else output_array(spec, name))
        out_arrays[name] = made[-1]
    given: list[Any] = [*arrays, *made]
    roles = ["inplace" if i < len(in_names) and in_names[i] in inplace else "input" for i in range(len(arrays))]
    # a ref output (named like an input) holds the input's data from the start: written, as on the device
    roles += ["inplace" if name in inplace and name in in_names else "output" for name in outputs]
    refs: dict[int, int] = {}  # a ref tensor: its output's position among the tensors -> its input's
    by_name = {**(dict(named) if isinstance(named, Mapping) else {}), **out_arrays}
    if by_name and all(p.name in by_name for p in tensor_params) and len(by_name) == len(tensor_params):
        given = [_input(by_name[p.name]) for p in tensor_params]  # a kernel-only answer: names are its parameters'
        roles = ["output" if p.name in out_arrays else "inplace" if p.name in inplace else "input"
                 for p in tensor_params]
        input_names = {i: p.name for i, p in enumerate(tensor_params) if p.name not in out_arrays}
    else:
        refs = _ref_pairs(given, in_names, list(outputs), len(arrays))
        # the op's name for an input; without an op description, the caller's (given by name) or the parameter's
        keys = in_names or (list(named) if isinstance(named, Mapping) else [])
        input_names = {i: keys[i] if i < len(keys) else None for i in range(len(arrays))}

    def keep_updated(position: int, param: str, role: str, arr: Any) -> None:
        """Notes an in-place input's array (not an output's: one the caller filled is in place too)."""
        if role == "inplace" and arr is not None and position in input_names:
            updated[input_names[position] or param] = arr

    buffers: list[tuple[str, str, Any]] = []
    lists: list[tuple[int, str, str, list[np.ndarray]]] = []  # (parameter's buffer, name, role, tensors)
    placed: dict[int, int] = {}  # a tensor's position -> its parameter's buffer
    k = 0
    for p in prog.params:
        if p.dtype != "gm":
            buffers.append((p.name, "input", None))
            continue
        if p.name in prog.statics:
            # a namespace-scope __gm__ array: its own memory, holding its initialiser, shared by the cores
            buffers.append((p.name, "inplace", np.frombuffer(prog.statics[p.name], dtype=np.uint8).copy()))
            continue
        kind = _param_kind(p.name)
        if kind == "workspace":
            buffers.append((p.name, "workspace", np.zeros(max(workspace, 0), dtype=np.uint8)))
            continue
        if kind == "tiling":
            data = np.frombuffer(tiling_data, dtype=np.uint8).copy() if tiling_data else np.zeros(0, dtype=np.uint8)
            buffers.append((p.name, "tiling", data))
            continue
        arr = given[k] if k < len(given) else None
        role = roles[k] if k < len(roles) else "output"
        if role == "input" and p.name in inplace:
            role = "inplace"
        if role == "output" and (outputs_initialised or need_atomic) and arr is not None:
            role = "inplace"  # the caller's data (or the runtime's fill) counts as written; the kernel updates it
        k += 1
        if k - 1 in refs and refs[k - 1] in placed:
            buffers.append((p.name, "alias", placed[refs[k - 1]]))  # the ref input's buffer
            continue
        placed[k - 1] = len(buffers)
        if isinstance(arr, list):
            lists.append((len(buffers), p.name, role, arr))
            buffers.append((p.name, "input", None))  # the descriptor, once its tensors have buffers
            keep_updated(k - 1, p.name, role, arr)
            continue
        if arr is not None and any(isinstance(b, np.ndarray) and np.shares_memory(arr, b)
                                   for _, _, b in buffers):
            arr = arr.copy()  # one array passed twice: each parameter gets its own memory, as on the device
        buffers.append((p.name, role, None if arr is None else arr.reshape(-1).view(np.uint8)))
        keep_updated(k - 1, p.name, role, arr)
    if k < len(given):
        raise SimError(f"{len(given)} tensors given for a kernel with {len(tensor_params)} tensor parameters")
    for at, name, role, tensors in lists:
        first = len(buffers)
        for j, t in enumerate(tensors):
            if any(isinstance(b, np.ndarray) and np.shares_memory(t, b) for _, _, b in buffers):
                t = t.copy()  # one array twice in the lists: each gets its own memory
                tensors[j] = t  # (what an in-place list returns)
            buffers.append((f"{name}[{j}]", role, t.reshape(-1).view(np.uint8)))
        table = descriptor([t.shape for t in tensors], range(first, first + len(tensors)))
        buffers[at] = (name, "input", table.view(np.uint8))
    # a ref input is returned as its output already
    return buffers, {**out_arrays, **{n: a for n, a in updated.items() if n not in out_arrays}}


def _ref_pairs(given: list[Any], in_names: list[str], out_names: list[str], n_inputs: int) -> dict[int, int]:
    """The ref tensors among `given` (the inputs, then the outputs): the output's position -> the input's, for
    each output named like an input of as many bytes (tensor by tensor, for a tensor list). The output's
    arrays take the input's data and stand in for it (`given` is updated), so that the kernel finds the data
    through either parameter and the caller's input stays as it was."""
    refs: dict[int, int] = {}
    for j, name in enumerate(out_names):
        i, o = in_names.index(name) if name in in_names else -1, n_inputs + j
        src, out = given[i] if 0 <= i < n_inputs else None, given[o] if o < len(given) else None
        lists = isinstance(src, list) and isinstance(out, list) and len(src) == len(out)
        pairs = list(zip(src, out)) if lists else [(src, out)]
        if all(isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.nbytes == b.nbytes
               for a, b in pairs):
            for a, b in pairs:
                b.reshape(-1).view(np.uint8)[:] = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
            given[i] = out
            refs[o] = i
    return refs


# InitValue's ScalarType names (frontend/opdef_init_value.py) -> the element type its memset writes
_SCALAR_TYPES: dict[str, Any] = {"uint64": np.uint64, "int64": np.int64, "uint32": np.uint32, "int32": np.int32,
                                 "uint16": np.uint16, "int16": np.int16, "uint8": np.uint8, "int8": np.int8,
                                 "float32": np.float32, "float16": np.float16}


def initial_fill(arr: np.ndarray, dtype: str, entries: list[dict[str, Any]] | None) -> None:
    """Fills an output of `dtype` (a numpy-style name) as the runtime does before a launch whose tiling set
    SetNeedAtomic(true), from its OpDef's InitValue `entries`: the uint64_t form is the value in the output's own
    dtype (only 0 is supported; the build warns of any other); a ScalarVar is a memset of its type and value over
    the output's bytes, whatever the output's dtype (asc-devkit compile_op.py hands the memset the ScalarVar's
    type, not the output's); the list form's entry is the one for the output's dtype. No entry (no InitValue, or
    an OpDef not read): zeros, the InitValue(0) the vendor ops with SetNeedAtomic declare."""
    entry = _entry_for(entries, dtype)
    data = arr.reshape(-1).view(np.uint8)
    kind = _SCALAR_TYPES.get(str(entry.get("type"))) if entry is not None else None
    if entry is None or (kind is None and entry.get("value") == 0) or dtype == INT4:
        data[:] = 0
    elif kind is None:
        arr[...] = entry.get("value")
    else:
        value = np.array(entry.get("value"), dtype=np.float64 if kind in (np.float32, np.float16) else np.int64)
        pattern = np.frombuffer(value.astype(kind).tobytes(), dtype=np.uint8)
        data[:] = np.resize(pattern, data.size)  # the memset's elements over the whole buffer


def _entry_for(entries: list[dict[str, Any]] | None, dtype: str) -> dict[str, Any] | None:
    """The InitValue entry for an output of `dtype`: the list form's for that DataType, else the one entry."""
    from ascendir.lower import numpy_dtype_of_ge

    if not entries:
        return None
    if any("dtype" in e for e in entries):
        return next((e for e in entries if numpy_dtype_of_ge(e.get("dtype")) == dtype), None)
    return entries[0]


def _array_dtype(arr: np.ndarray) -> str:
    """An output array's dtype name (bfloat16 arrays are named by their own dtype)."""
    try:
        return dtype_name(arr)
    except SimError:
        return str(arr.dtype)


def allocation_size(nbytes: int) -> int:
    """The bytes the framework allocates for a tensor of `nbytes`: torch_npu's caching allocator adds 32 and
    rounds up to 512 bytes, so a kernel may read or write a little past a tensor's end without a fault (a
    DataCopy of whole 32-byte blocks from a 2-byte tensor)."""
    return (nbytes + 32 + 511) // 512 * 512


def _allocation(buffer: tuple[str, str, np.ndarray | None]) -> tuple[np.ndarray | None, int | None]:
    """A tensor's bytes in a buffer the size of its allocation (the padding zeroed; the simulator knows it holds
    nothing), and how many bytes are the tensor's; the workspace and the tiling data are given as they are."""
    _, role, data = buffer
    if data is None or role not in ("input", "inplace", "output"):
        return data, None
    padded = np.zeros(allocation_size(data.nbytes), dtype=np.uint8)
    padded[:data.nbytes] = data
    return padded, data.nbytes
