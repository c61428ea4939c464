"""The whitelisted tensor operations the harness's two answer readers evaluate with numpy.

A MultiKernelBench answer wraps its kernel twice: ModelNew's forward (Python, read with `ast`) hands the op its
arguments, and the op's binding (C++, `python_bind_src` / CppExtension op.cpp, read with our frontend) hands the
kernel its tensors and may finish the result with ATen (`at::relu(y)`, a permute back to NCHW). Neither is ever
run; both readers interpret a small subset of torch/ATen over numpy, and this table is that subset, shared so
that `x.view(...)` means the same in both. Anything outside it raises `NotModelled` with the operation's name;
the readers turn that into a "not modelled" verdict with the line, never an exception at the user.

Semantics are torch's: views share memory with their base (numpy views), `contiguous`/`reshape` copy only
when they must, arithmetic broadcasts and keeps the tensor's dtype against a Python scalar, float16 and
bfloat16 results are rounded to their type after each operation (bfloat16 held as float32 values).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.suites.model import bfloat16_round, canonical_dtype, numpy_dtype


class NotModelled(Exception):
    """An operation outside the whitelisted subset (the message names it)."""


class TensorError(Exception):
    """An operation torch itself would reject (a bad view, mismatched shapes): the answer's error."""


@dataclass(eq=False)
class Tensor:
    """A tensor: its values (bfloat16 as float32 values) and its dtype name; `kernel` when its values come from a
    kernel's output (so a reader can tell a result the kernel computed from one ATen computed beside it)."""

    data: np.ndarray
    dtype: str
    kernel: bool = False

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.data.shape)


# torch / ATen / c10 spellings of the element types
DTYPE_NAMES = {
    "float32": "float32", "float": "float32", "kFloat": "float32", "Float": "float32",
    "float16": "float16", "half": "float16", "kHalf": "float16", "Half": "float16",
    "bfloat16": "bfloat16", "kBFloat16": "bfloat16", "BFloat16": "bfloat16",
    "float64": "float64", "double": "float64", "kDouble": "float64", "Double": "float64",
    "int8": "int8", "kChar": "int8", "Char": "int8", "uint8": "uint8", "kByte": "uint8", "Byte": "uint8",
    "int16": "int16", "kShort": "int16", "short": "int16", "int32": "int32", "int": "int32", "kInt": "int32",
    "Int": "int32", "int64": "int64", "long": "int64", "kLong": "int64", "Long": "int64",
    "bool": "bool", "kBool": "bool", "Bool": "bool",
    # c10's aliases (torch::kFloat16 in NPUKernelBench's bindings)
    "kFloat16": "float16", "kFloat32": "float32", "kFloat64": "float64", "kInt8": "int8", "kInt16": "int16",
    "kInt32": "int32", "kInt64": "int64", "kUInt8": "uint8",
}


def make(values: Any, dtype: str, kernel: bool = False) -> Tensor:
    """A tensor of `dtype` holding `values`, rounded to the type."""
    dtype = canonical_dtype(dtype)
    arr = np.asarray(values)
    if dtype == "bfloat16":
        return Tensor(bfloat16_round(arr.astype(np.float32)), dtype, kernel)
    return Tensor(arr.astype(numpy_dtype(dtype), copy=False), dtype, kernel)


def _derived(t: Tensor, data: np.ndarray, *others: Any) -> Tensor:
    """A view or copy of `t` (same dtype), a kernel result when any operand is one."""
    return Tensor(data, t.dtype, t.kernel or any(isinstance(o, Tensor) and o.kernel for o in others))


def _shape(args: Sequence[Any]) -> tuple[int, ...]:
    """view(2, 3) / view({2, 3}) / view(at::IntArrayRef(v))."""
    if len(args) == 1 and isinstance(args[0], tuple | list):
        args = args[0]
    if not all(isinstance(a, int | np.integer) and not isinstance(a, bool) for a in args):
        raise TensorError(f"a shape of integers was expected, got {args!r}")
    return tuple(int(a) for a in args)


def _dim(t: Tensor, d: Any) -> int:
    n = max(1, t.data.ndim)
    if not isinstance(d, int | np.integer) or not -n <= d < n:
        raise TensorError(f"dimension {d!r} is out of range for a {t.data.ndim}-d tensor")
    return int(d) % n


def _view(t: Tensor, *shape: Any) -> Tensor:
    want = _shape(shape)
    if -1 in want:
        known = math.prod(s for s in want if s != -1)
        want = tuple(t.data.size // max(1, known) if s == -1 else s for s in want)
    if math.prod(want) != t.data.size:
        raise TensorError(f"shape {list(want)} is invalid for a tensor of {t.data.size} elements")
    return _derived(t, t.data.reshape(want))


def _permute(t: Tensor, *dims: Any) -> Tensor:
    order = _shape(dims)
    if sorted(d % max(1, t.data.ndim) for d in order) != list(range(t.data.ndim)):
        raise TensorError(f"permute({list(order)}) does not name each of the {t.data.ndim} dimensions once")
    return _derived(t, t.data.transpose([_dim(t, d) for d in order]))


def _transpose(t: Tensor, a: int, b: int) -> Tensor:
    return _derived(t, np.swapaxes(t.data, _dim(t, a), _dim(t, b)))


def _unsqueeze(t: Tensor, d: int) -> Tensor:
    n = t.data.ndim + 1
    if not -n <= d < n:
        raise TensorError(f"unsqueeze({d}) is out of range for a {t.data.ndim}-d tensor")
    return _derived(t, np.expand_dims(t.data, d % n))


def _squeeze(t: Tensor, *dims: Any) -> Tensor:
    if not dims:
        return _derived(t, t.data.reshape([s for s in t.data.shape if s != 1]))
    axes = tuple(_dim(t, d) for d in _shape(dims) if t.data.shape[_dim(t, d)] == 1)
    return _derived(t, np.squeeze(t.data, axis=axes))


def _flatten(t: Tensor, start: int = 0, end: int = -1) -> Tensor:
    if t.data.ndim == 0:
        return _derived(t, t.data.reshape(1))
    s, e = _dim(t, start), _dim(t, end)
    shape = t.data.shape[:s] + (math.prod(t.data.shape[s:e + 1]),) + t.data.shape[e + 1:]
    return _derived(t, t.data.reshape(shape))


def _expand(t: Tensor, *shape: Any) -> Tensor:
    want = list(_shape(shape))
    lead = len(want) - t.data.ndim
    if lead < 0:
        raise TensorError(f"expand({want}) has fewer dimensions than the tensor's {t.data.ndim}")
    want = [t.data.shape[i - lead] if s == -1 else s for i, s in enumerate(want)]
    try:
        return _derived(t, np.broadcast_to(t.data, want))
    except ValueError:
        raise TensorError(f"a tensor of shape {list(t.data.shape)} cannot be expanded to {want}") from None


def _narrow(t: Tensor, dim: int, start: int, length: int) -> Tensor:
    d = _dim(t, dim)
    index = [slice(None)] * t.data.ndim
    index[d] = slice(start, start + length)
    return _derived(t, t.data[tuple(index)])


def _slice(t: Tensor, dim: int = 0, start: Any = None, end: Any = None, step: int = 1) -> Tensor:
    d = _dim(t, dim)
    index = [slice(None)] * t.data.ndim
    index[d] = slice(start, end, step)
    return _derived(t, t.data[tuple(index)])


def _select(t: Tensor, dim: int, i: int) -> Tensor:
    d = _dim(t, dim)
    return _derived(t, np.take(t.data, i, axis=d))


def _contiguous(t: Tensor, *_: Any) -> Tensor:
    return t if t.data.flags.c_contiguous else _derived(t, np.ascontiguousarray(t.data))


def _clone(t: Tensor, *_: Any) -> Tensor:
    return _derived(t, np.array(t.data, copy=True, order="C"))


def _copy_(dst: Tensor, src: Any, *_: Any) -> Tensor:
    """dst.copy_(src[, non_blocking]): src broadcast to dst and converted to its dtype, written in place (through a
    view into its base: padded.narrow(0, 0, m).copy_(a)); a kernel result when src is one (the view, not its base)."""
    values = cast(src, dst.dtype).data if isinstance(src, Tensor) else make(src, dst.dtype).data
    try:
        np.copyto(dst.data, np.broadcast_to(values, dst.shape))
    except ValueError as exc:  # not broadcastable, or an expanded (read-only) destination: torch rejects both
        raise TensorError(f"copy_: {exc}") from None
    dst.kernel = dst.kernel or isinstance(src, Tensor) and src.kernel
    return dst


def _to(t: Tensor, *args: Any) -> Tensor:
    """to(dtype), to(device) (the tensor where it is), to(device, dtype)."""
    dtypes = [a for a in args if isinstance(a, str) and a in DTYPE_NAMES.values()]
    if not dtypes or dtypes[0] == t.dtype:
        return t
    return cast(t, dtypes[0])


def cast(t: Tensor, dtype: str) -> Tensor:
    """t converted to `dtype` as torch converts (floats to integers truncate; to bool: nonzero)."""
    data = t.data
    if dtype == "bool":
        return Tensor(data != 0, dtype, t.kernel)
    if np.dtype(numpy_dtype(dtype)).kind in "iu" and data.dtype.kind == "f":
        data = np.trunc(data)
    return make(data, dtype, t.kernel)


def _result(like: Tensor, values: np.ndarray, *others: Any) -> Tensor:
    """An arithmetic result in `like`'s dtype (promoted to float for a float operand of an integer tensor)."""
    dtype = like.dtype
    tensors = [o for o in others if isinstance(o, Tensor)]
    floats = [o.dtype for o in (like, *tensors) if np.dtype(numpy_dtype(o.dtype)).kind == "f"]
    if np.dtype(numpy_dtype(dtype)).kind != "f":
        if floats:
            dtype = floats[0]
        elif any(isinstance(o, float) for o in others) or values.dtype.kind == "f":
            dtype = "float32"
    elif tensors:
        order = ["float16", "bfloat16", "float32", "float64"]
        dtype = max(floats, key=order.index) if all(f in order for f in floats) else dtype
    out = make(values, dtype)
    out.kernel = like.kernel or any(t.kernel for t in tensors)
    return out


def _values(x: Any) -> Any:
    if isinstance(x, Tensor):
        return x.data.astype(np.float32) if x.dtype in ("float16", "bfloat16") else x.data
    if isinstance(x, int | float | bool | np.number):
        return x
    raise TensorError(f"an operand of {type(x).__name__} in tensor arithmetic")


def binary(op: str, a: Any, b: Any) -> Any:
    """a <op> b for tensors and numbers (+ - * /), broadcasting; numbers alone stay numbers."""
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise TensorError("binary() takes a tensor operand")
    x, y = _values(a), _values(b)
    try:
        with np.errstate(all="ignore"):
            if op == "+":
                v = np.add(x, y)
            elif op == "-":
                v = np.subtract(x, y)
            elif op == "*":
                v = np.multiply(x, y)
            elif op == "/":
                v = np.true_divide(x, y)
            else:
                raise NotModelled(f"tensor operator {op}")
    except ValueError:
        raise TensorError(f"shapes {np.shape(x)} and {np.shape(y)} do not broadcast") from None
    like = a if isinstance(a, Tensor) else b
    return _result(like, np.asarray(v), a, b)


def _unary(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[..., Tensor]:
    def apply(t: Tensor, *_: Any) -> Tensor:
        with np.errstate(all="ignore"):
            return _result(t, np.asarray(fn(_values(t))))
    return apply


def _clamp(t: Tensor, lo: Any = None, hi: Any = None) -> Tensor:
    v = _values(t)
    if lo is not None:
        v = np.maximum(v, _values(lo))
    if hi is not None:
        v = np.minimum(v, _values(hi))
    return _result(t, np.asarray(v))


def _softmax(t: Tensor, dim: int, *_: Any) -> Tensor:
    v = _values(t).astype(np.float64)
    d = _dim(t, dim)
    e = np.exp(v - v.max(axis=d, keepdims=True))
    return _result(t, e / e.sum(axis=d, keepdims=True))


def _matmul(a: Tensor, b: Tensor) -> Tensor:
    try:
        return _result(a, np.matmul(_values(a).astype(np.float64), _values(b).astype(np.float64)), b)
    except ValueError:
        raise TensorError(f"matmul of shapes {list(a.shape)} and {list(b.shape)}") from None


def _reduce(fn: Callable[..., np.ndarray]) -> Callable[..., Tensor]:
    def apply(t: Tensor, dims: Any = None, keepdim: bool = False, *_: Any) -> Tensor:
        axes = None if dims is None else tuple(_dim(t, d) for d in (dims if isinstance(dims, tuple | list)
                                                                     else (dims,)))
        return _result(t, np.asarray(fn(_values(t).astype(np.float64), axis=axes, keepdims=bool(keepdim))))
    return apply


def _cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if not tensors or not all(isinstance(t, Tensor) for t in tensors):
        raise TensorError("cat takes a list of tensors")
    try:
        data = np.concatenate([t.data for t in tensors], axis=_dim(tensors[0], dim))
    except ValueError:
        raise TensorError(f"cat of shapes {[list(t.shape) for t in tensors]}") from None
    return Tensor(data, tensors[0].dtype, any(t.kernel for t in tensors))


def broadcast_tensors(tensors: Sequence[Tensor]) -> tuple[Tensor, ...]:
    if not all(isinstance(t, Tensor) for t in tensors):
        raise TensorError("broadcast_tensors takes a list of tensors")
    try:
        arrays = np.broadcast_arrays(*[t.data for t in tensors])
    except ValueError:
        raise TensorError(f"shapes {[list(t.shape) for t in tensors]} do not broadcast") from None
    return tuple(_derived(t, a) for t, a in zip(tensors, arrays))


def _size(t: Tensor, d: Any = None) -> Any:
    return tuple(t.data.shape) if d is None else int(t.data.shape[_dim(t, d)])


# name -> implementation, first argument the tensor for a method (x.view(...)) or a function (at::relu(x))
OPS: dict[str, Callable[..., Any]] = {
    "view": _view, "reshape": _view, "permute": _permute, "transpose": _transpose,
    "t": lambda t: _transpose(t, 0, 1) if t.data.ndim == 2 else t,
    "unsqueeze": _unsqueeze, "squeeze": _squeeze, "flatten": _flatten, "expand": _expand, "narrow": _narrow,
    "slice": _slice, "select": _select, "contiguous": _contiguous, "clone": _clone, "detach": lambda t: t,
    "copy_": _copy_,
    "cpu": lambda t, *_: t, "npu": lambda t, *_: t, "cuda": lambda t, *_: t,
    "to": _to, "float": lambda t: cast(t, "float32"), "half": lambda t: cast(t, "float16"),
    "item": lambda t: t.data.reshape(-1)[0].item(), "size": _size, "sizes": _size, "dim": lambda t: t.data.ndim, "numel": lambda t: int(t.data.size),
    "relu": _unary(lambda v: np.maximum(v, 0)), "sigmoid": _unary(lambda v: 1.0 / (1.0 + np.exp(-v))),
    "tanh": _unary(np.tanh), "exp": _unary(np.exp), "log": _unary(np.log), "sqrt": _unary(np.sqrt),
    "rsqrt": _unary(lambda v: 1.0 / np.sqrt(v)), "abs": _unary(np.abs), "neg": _unary(np.negative),
    "clamp": _clamp, "clamp_min": lambda t, lo: _clamp(t, lo), "clamp_max": lambda t, hi: _clamp(t, None, hi),
    "softmax": _softmax, "matmul": _matmul, "bmm": _matmul, "mm": _matmul,
    "sum": _reduce(np.sum), "mean": _reduce(np.mean), "amax": _reduce(np.max), "amin": _reduce(np.min),
    "add": lambda a, b: binary("+", a, b), "sub": lambda a, b: binary("-", a, b),
    "mul": lambda a, b: binary("*", a, b), "div": lambda a, b: binary("/", a, b),
    "cat": _cat, "broadcast_tensors": broadcast_tensors,
}


def call(name: str, *args: Any) -> Any:
    """OPS[name](*args), or NotModelled naming it."""
    fn = OPS.get(name)
    if fn is None:
        raise NotModelled(name)
    try:
        return fn(*args)
    except (TypeError, IndexError) as exc:
        raise TensorError(f"{name}: {exc}") from None
