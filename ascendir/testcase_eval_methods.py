"""Tensor methods in the test-case evaluator: casts, shape changes (view, reshape, permute, expand, ...) and
reductions.
"""

from __future__ import annotations

import ast
import math
from typing import Any

from ascendir.testcase_dtypes import CAST_METHODS, DTYPE_BITS, dtype_category
from ascendir.testcase_names import BINARY_METHODS, COMPARE_METHODS, ELEMENTWISE, FLOAT_RESULT, IGNORED_KWARGS
from ascendir.testcase_types import MAX_RANK
from ascendir.testcase_values import DType, Device, Tensor, describe


class EvalMethods:
    """Tensor methods: methods of Evaluator (testcase_eval.py), which inherits them."""

    # ---- tensor methods
    def call_method(self, t: Tensor, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if name in CAST_METHODS:
            self.dtype_kw(name, kwargs, "float32", node)
            if args:
                self.fail(f"`.{name}()` takes no arguments here", node)
            return Tensor(t.shape, CAST_METHODS[name])
        if name in ("to", "type"):
            dtype = t.dtype
            for a in list(args) + ([kwargs["dtype"]] if "dtype" in kwargs else []):
                if isinstance(a, DType):
                    dtype = a.name
                elif isinstance(a, Tensor) and name == "to":
                    dtype = a.dtype
                elif isinstance(a, (Device, str)) or a is None:
                    continue
                elif isinstance(a, bool):
                    continue  # non_blocking / copy given by position
                else:
                    self.fail(f"`.{name}()` of {describe(a)} is not supported", node)
            if name == "type" and not args and "dtype" not in kwargs:
                self.fail("`.type()` without a dtype gives a string; not supported", node)
            self.dtype_kw(name, {k: v for k, v in kwargs.items() if k != "dtype"}, dtype, node)
            return Tensor(t.shape, dtype)
        if name == "size":
            bound = self.bind_args("size", args, kwargs, ("dim",), node)
            if bound.get("dim") is None:
                return t.shape
            return t.shape[self.norm_dim(self.as_int(bound["dim"], "`dim`", node), len(t.shape), node)]
        if name == "dim" or name == "ndimension":
            return len(t.shape)
        if name == "numel" or name == "nelement":
            return math.prod(t.shape)
        if name == "element_size":
            return max(DTYPE_BITS[t.dtype] // 8, 1)
        if name == "is_floating_point":
            return dtype_category(t.dtype) == 2
        if name in ("item", "tolist", "numpy", "max", "min", "argmax", "argmin", "nonzero", "unique"):
            self.fail(f"`.{name}()` depends on the tensor's values; not known statically", node)
        if name in ELEMENTWISE:
            if name in ("add_", "sub_", "mul_", "div_") and args:
                self.tensor_binop(BINARY_METHODS[name[:-1]](), t, args[0], node)  # broadcast check only
            dtype = t.dtype
            if name in FLOAT_RESULT and dtype_category(dtype) < 2:
                dtype = "float32"
            if "dtype" in kwargs and kwargs["dtype"] is not None:
                dtype = self.as_dtype(kwargs["dtype"], node)
            return Tensor(t.shape, dtype)
        if name in BINARY_METHODS:
            if not args:
                self.fail(f"`.{name}()` needs an operand", node)
            return self.tensor_binop(BINARY_METHODS[name](), t, args[0], node)
        if name in COMPARE_METHODS:
            shapes = [t.shape] + [a.shape for a in args if isinstance(a, Tensor)]
            return Tensor(self.broadcast(shapes, node), "bool")
        if name == "unsqueeze":
            bound = self.bind_args(name, args, kwargs, ("dim",), node, 1)
            d = self.norm_dim(self.as_int(bound["dim"], "`dim`", node), len(t.shape) + 1, node)
            return Tensor(t.shape[:d] + (1,) + t.shape[d:], t.dtype)
        if name == "squeeze":
            bound = self.bind_args(name, args, kwargs, ("dim",), node)
            if bound.get("dim") is None:
                return Tensor(tuple(x for x in t.shape if x != 1), t.dtype)
            d = self.norm_dim(self.as_int(bound["dim"], "`dim`", node), len(t.shape), node)
            if t.shape and t.shape[d] == 1:
                return Tensor(t.shape[:d] + t.shape[d + 1:], t.dtype)
            return t
        if name == "view" and len(args) == 1 and isinstance(args[0], DType):
            return Tensor(t.shape, args[0].name)
        if name in ("view", "reshape", "expand", "repeat", "permute", "tile"):
            return self.reshape_like(t, name, args, kwargs, node)
        if name in ("new_zeros", "new_ones", "new_empty", "new_full"):
            if name == "new_full":
                kw = {k: v for k, v in kwargs.items() if k != "dtype"}
                bound = self.bind_args(name, args, kw, ("size", "fill_value"), node, 2)
                shape = self.as_shape(bound["size"], node)
                rest = {k: v for k, v in kwargs.items() if k == "dtype"}
            else:
                shape, rest = self.size_args("." + name, args, kwargs, node)
            return Tensor(shape, self.dtype_kw(name, rest, t.dtype, node))
        if name in ("transpose", "swapaxes"):
            bound = self.bind_args(name, args, kwargs, ("dim0", "dim1"), node, 2)
            a = self.norm_dim(self.as_int(bound["dim0"], "`dim0`", node), len(t.shape), node)
            b = self.norm_dim(self.as_int(bound["dim1"], "`dim1`", node), len(t.shape), node)
            s = list(t.shape)
            if s:
                s[a], s[b] = s[b], s[a]
            return Tensor(tuple(s), t.dtype)
        if name == "t":
            if len(t.shape) > 2:
                self.fail("`.t()` needs at most 2 dimensions", node)
            return Tensor(tuple(reversed(t.shape)), t.dtype)
        if name == "flatten":
            bound = self.bind_args(name, args, kwargs, ("start_dim", "end_dim"), node)
            if not t.shape:
                return Tensor((1,), t.dtype)
            s = self.norm_dim(self.as_int(bound.get("start_dim", 0), "`start_dim`", node), len(t.shape), node)
            e = self.norm_dim(self.as_int(bound.get("end_dim", -1), "`end_dim`", node), len(t.shape), node)
            if e < s:
                self.fail("flatten's end_dim comes before start_dim", node)
            return Tensor(t.shape[:s] + (math.prod(t.shape[s:e + 1]),) + t.shape[e + 1:], t.dtype)
        if name in ("sum", "mean", "amax", "amin", "prod", "std", "var", "norm", "logsumexp", "all", "any"):
            return self.reduce(t, name, args, kwargs, node)
        self.fail(f"tensor method `.{name}()` is not supported", node)

    def reshape_like(self, t: Tensor, name: str, args: list[Any], kwargs: dict[str, Any],
                     node: ast.AST) -> Tensor:
        key = {"permute": "dims", "reshape": "shape", "tile": "dims"}.get(name, "size")
        kw = {k: v for k, v in kwargs.items() if k not in IGNORED_KWARGS}
        if key in kw:
            if args:
                self.fail(f"`.{name}()` got its sizes twice", node)
            raw: Any = kw.pop(key)
        else:
            raw = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        if kw:
            self.fail(f"unsupported keyword `{next(iter(kw))}` for `.{name}()`", node)
        if not isinstance(raw, (tuple, list)):
            self.fail(f"`.{name}()` needs ints, not {describe(raw)}", node)
        if len(raw) > MAX_RANK:
            self.fail(f"more than {MAX_RANK} dimensions", node)
        dims = [self.as_int(d, "a size", node) for d in raw]
        rank = len(t.shape)
        if name == "permute":
            perm = [self.norm_dim(d, rank, node) for d in dims]
            if sorted(perm) != list(range(rank)):
                self.fail(f"`.permute{tuple(dims)}` is not a permutation of {rank} dimensions", node)
            return Tensor(tuple(t.shape[d] for d in perm), t.dtype)
        if name in ("view", "reshape"):
            numel = math.prod(t.shape)
            if dims.count(-1) > 1 or any(d < -1 for d in dims):
                self.fail(f"bad sizes {dims} for `.{name}()`", node)
            known = math.prod(d for d in dims if d != -1)
            if -1 in dims:
                if known == 0 or numel % known:
                    self.fail(f"cannot `.{name}` a tensor of shape {list(t.shape)} to {dims}", node)
                dims[dims.index(-1)] = numel // known
            elif known != numel:
                self.fail(f"cannot `.{name}` a tensor of shape {list(t.shape)} to {dims}", node)
            return Tensor(tuple(dims), t.dtype)
        if name == "expand":
            if len(dims) < rank:
                self.fail("`.expand()` needs at least as many sizes as dimensions", node)
            padded = (None,) * (len(dims) - rank) + t.shape
            out: list[int] = []
            for old, new in zip(padded, dims):
                if new == -1:
                    if old is None:
                        self.fail("`-1` in a new leading dimension of `.expand()`", node)
                    out.append(old)
                elif new < 0 or (old is not None and old not in (1, new)):
                    self.fail(f"cannot expand shape {list(t.shape)} to {dims}", node)
                else:
                    out.append(new)
            return Tensor(tuple(out), t.dtype)
        # repeat / tile
        if any(d < 0 for d in dims):
            self.fail(f"negative count in `.{name}()`", node)
        if name == "repeat" and len(dims) < rank:
            self.fail("`.repeat()` needs at least as many sizes as dimensions", node)
        n = max(len(dims), rank)
        a_shape = (1,) * (n - rank) + t.shape
        reps = (1,) * (n - len(dims)) + tuple(dims)
        return Tensor(tuple(self.check_int(a * b, node) for a, b in zip(a_shape, reps)), t.dtype)

    def reduce(self, t: Tensor, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        params = ("p", "dim", "keepdim") if name == "norm" else ("dim", "keepdim")
        kw = {k: v for k, v in kwargs.items() if k not in ("dtype", "unbiased", "correction")}
        bound = self.bind_args(name, args, kw, params, node)
        dims = bound.get("dim")
        keep = bool(bound.get("keepdim", False))
        dtype = t.dtype
        if name in ("mean", "std", "var", "norm", "logsumexp") and dtype_category(dtype) < 2:
            dtype = "float32"
        elif name == "sum" and dtype_category(dtype) < 2:
            dtype = "int64"
        elif name in ("all", "any"):
            dtype = "bool"
        if kwargs.get("dtype") is not None:
            dtype = self.as_dtype(kwargs["dtype"], node)
        if dims is None:
            return Tensor((1,) * len(t.shape) if keep else (), dtype)
        dlist = [dims] if isinstance(dims, int) else list(dims) if isinstance(dims, (tuple, list)) else None
        if dlist is None:
            self.fail("`dim` must be an int or a tuple of ints", node)
        norm = {self.norm_dim(self.as_int(d, "`dim`", node), len(t.shape), node) for d in dlist}
        shape = tuple(1 if i in norm else s for i, s in enumerate(t.shape) if keep or i not in norm)
        return Tensor(shape, dtype)
