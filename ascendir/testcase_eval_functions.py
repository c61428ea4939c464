"""Functions in the test-case evaluator: Python's builtins (int, len, range, ...), torch's factories and
functions, torch.nn.functional, math, cat and stack.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

from ascendir.testcase_dtypes import dtype_category, scalar_dtype
from ascendir.testcase_names import (
    BINARY_METHODS,
    COMPARE_METHODS,
    ELEMENTWISE,
    FACTORIES,
    IGNORED_CALLS,
    IGNORED_KWARGS,
    LIKE_FACTORIES,
)
from ascendir.testcase_types import MAX_RANK, MAX_SEQ
from ascendir.testcase_values import DType, Device, Tensor, describe


class EvalFunctions:
    """Functions: methods of Evaluator (testcase_eval.py), which inherits them."""

    # ---- builtins
    def call_builtin(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if kwargs and name not in ("round", "min", "max", "sum"):
            self.fail(f"keyword arguments to `{name}` are not supported", node)
        if name in ("int", "float", "bool"):
            if len(args) != 1:
                self.fail(f"`{name}()` takes one argument here", node)
            v = args[0]
            if not isinstance(v, (int, float, bool)):
                if name == "bool" and isinstance(v, (tuple, list, str)):
                    return bool(v)
                if isinstance(v, str) and name in ("int", "float"):
                    try:
                        return self.check_int(int(v), node) if name == "int" else float(v)
                    except ValueError:
                        self.fail(f"cannot convert {v!r} with `{name}()`", node)
                self.fail(f"`{name}()` of {describe(v)} is not known statically", node)
            try:
                r = {"int": int, "float": float, "bool": bool}[name](v)
                return self.check_int(r, node) if name == "int" else r
            except (OverflowError, ValueError):
                self.fail(f"cannot convert {v!r} with `{name}()`", node)
        if name == "len":
            if len(args) != 1:
                self.fail("`len()` takes one argument", node)
            v = args[0]
            if isinstance(v, Tensor):
                if not v.shape:
                    self.fail("`len()` of a 0-dim tensor", node)
                return v.shape[0]
            if not isinstance(v, (tuple, list, str)):
                self.fail(f"`len()` of {describe(v)}", node)
            return len(v)
        if name in ("tuple", "list"):
            if len(args) > 1:
                self.fail(f"`{name}()` takes at most one argument", node)
            v = args[0] if args else ()
            if isinstance(v, Tensor):
                v = self.iterate(v, node)
            if not isinstance(v, (tuple, list, str)):
                self.fail(f"`{name}()` of {describe(v)}", node)
            return tuple(v) if name == "tuple" else list(v)
        if name == "range":
            bounds = [self.as_int(a, "a range bound", node) for a in args]
            if not 1 <= len(bounds) <= 3 or (len(bounds) == 3 and bounds[2] == 0):
                self.fail("bad arguments to `range()`", node)
            r = range(*bounds)
            if len(r) > MAX_SEQ:
                self.fail("range too long", node)
            return list(r)
        if name in ("min", "max", "sum"):
            if (name == "sum" and set(kwargs) - {"start"}) or (name != "sum" and kwargs):
                self.fail(f"keyword arguments to `{name}` are not supported", node)
            if name == "sum" and len(args) != 1:
                self.fail("`sum()` takes one sequence here", node)
            items = args[0] if len(args) == 1 else args
            if not isinstance(items, (tuple, list)) or (not items and name != "sum"):
                self.fail(f"bad argument to `{name}()`", node)
            if not all(isinstance(x, (int, float)) for x in items):
                self.fail(f"`{name}()` of non-numbers is not supported", node)
            if name == "sum":
                total: Any = kwargs.get("start", 0)
                for x in items:
                    total = self.number_binop(ast.Add(), total, x, node)
                return total
            return min(items) if name == "min" else max(items)
        if name == "abs":
            if len(args) != 1:
                self.fail("`abs()` takes one argument", node)
            if isinstance(args[0], Tensor):
                return args[0]
            if not isinstance(args[0], (int, float)):
                self.fail(f"`abs()` of {describe(args[0])}", node)
            return abs(args[0])
        if name == "round":
            bound = self.bind_args("round", args, kwargs, ("number", "ndigits"), node, 1)
            x, nd = bound["number"], bound.get("ndigits")
            if not isinstance(x, (int, float)) or (nd is not None and not isinstance(nd, int)):
                self.fail("bad arguments to `round()`", node)
            try:
                r = round(x, nd) if nd is not None else round(x)
                return self.check_int(r, node) if isinstance(r, int) else r
            except (OverflowError, ValueError):
                self.fail("cannot round an infinite or NaN value", node)
        self.fail(f"builtin `{name}` is not supported", node)

    # ---- library functions
    def call_function(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        short = name.rsplit(".", 1)[-1]
        prefix = name.rsplit(".", 1)[0] if "." in name else ""
        if name in IGNORED_CALLS:
            return None
        if prefix == "math":
            return self.call_math(short, args, kwargs, node)
        torchy = prefix in ("torch", "torch.nn.functional", "torch.special", "torch.linalg")
        if not torchy:
            self.fail(f"call to `{name}` is not supported", node)
        if name == "torch.Size":
            if len(args) != 1 or kwargs:
                self.fail("`torch.Size` takes one sequence", node)
            return self.as_shape(args[0], node)
        if name == "torch.device":
            return Device()
        if name == "torch.get_default_dtype":
            return DType("float32")
        if prefix == "torch" and short in FACTORIES:
            shape, rest = self.size_args(name, args, kwargs, node)
            return Tensor(shape, self.dtype_kw(name, rest, "float32", node))
        if prefix == "torch" and short in LIKE_FACTORIES | {"full_like", "randint_like"}:
            if not args:
                self.fail(f"`{name}` needs a tensor", node)
            src = self.tensor_arg(args[0], name, node)
            rest = {k: v for k, v in kwargs.items() if k == "dtype" or k in IGNORED_KWARGS}
            extra = {k: v for k, v in kwargs.items() if k not in rest}
            if short == "full_like":
                self.bind_args(name, args[1:], extra, ("fill_value",), node, 1)
            elif short == "randint_like":
                self.bind_args(name, args[1:], extra, ("low", "high"), node, 1)
            else:
                self.bind_args(name, args[1:], extra, (), node)
            return Tensor(src.shape, self.dtype_kw(name, rest, src.dtype, node))
        if name == "torch.full":
            bound = self.bind_args(name, args, kwargs, ("size", "fill_value", "dtype"), node, 2)
            fill = bound["fill_value"]
            if not isinstance(fill, (int, float, bool)):
                self.fail(f"`torch.full` fill value must be a number, not {describe(fill)}", node)
            dtype = scalar_dtype(fill)
            if bound.get("dtype") is not None:
                dtype = self.as_dtype(bound["dtype"], node)
            return Tensor(self.as_shape(bound["size"], node), dtype)
        if name == "torch.randint":
            kw = {k: v for k, v in kwargs.items() if k != "dtype"}
            if len(args) >= 3 or "low" in kw:
                bound = self.bind_args(name, args, kw, ("low", "high", "size"), node, 3)
            else:
                bound = self.bind_args(name, args, kw, ("high", "size"), node, 2)
            for k in ("low", "high"):
                if k in bound:
                    self.as_int(bound[k], f"`{k}` of torch.randint", node)
            return Tensor(self.as_shape(bound["size"], node),
                          self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"}, "int64", node))
        if name == "torch.randperm":
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"}, ("n",), node, 1)
            n = self.as_int(bound["n"], "`n` of torch.randperm", node)
            return Tensor((n,), self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
                                              "int64", node))
        if name == "torch.arange":
            kw = {k: v for k, v in kwargs.items() if k != "dtype"}
            params = ("end",) if len(args) <= 1 and "start" not in kw else ("start", "end", "step")
            bound = self.bind_args(name, args, kw, params, node, 1)
            start, end, step = bound.get("start", 0), bound["end"], bound.get("step", 1)
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (start, end, step)):
                self.fail("`torch.arange` bounds must be numbers", node)
            if step == 0:
                self.fail("`torch.arange` step cannot be zero", node)
            n = max(0, math.ceil((end - start) / step))
            default = "int64" if all(isinstance(x, int) for x in (start, end, step)) else "float32"
            return Tensor((self.check_int(n, node),),
                          self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"}, default, node))
        if name == "torch.linspace":
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"},
                                   ("start", "end", "steps"), node, 3)
            n = self.as_int(bound["steps"], "`steps` of torch.linspace", node)
            return Tensor((n,), self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
                                              "float32", node))
        if name == "torch.eye":
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"},
                                   ("n", "m"), node, 1)
            n = self.as_int(bound["n"], "`n` of torch.eye", node)
            m = self.as_int(bound["m"], "`m` of torch.eye", node) if bound.get("m") is not None else n
            if n < 0 or m < 0:
                self.fail("negative size for torch.eye", node)
            return Tensor((n, m), self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
                                                "float32", node))
        if name in ("torch.tensor", "torch.as_tensor"):
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"}, ("data",), node, 1)
            shape, dtype = self.literal_shape(bound["data"], node)
            return Tensor(shape, self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
                                               dtype, node))
        if name in ("torch.cat", "torch.concat", "torch.concatenate", "torch.stack"):
            bound = self.bind_args(name, args, kwargs, ("tensors", "dim"), node, 1)
            return self.cat(short == "stack", bound["tensors"], bound.get("dim", 0), name, node)
        if name == "torch.where":
            if len(args) != 3 or kwargs:
                self.fail("only `torch.where(condition, x, y)` is supported", node)
            shapes = [x.shape for x in args if isinstance(x, Tensor)]
            return Tensor(self.broadcast(shapes, node), self.result_dtype(args[1:], node))
        if name in ("torch.matmul", "torch.mm", "torch.bmm"):
            bound = self.bind_args(name, args, kwargs, ("input", "other"), node, 2)
            return self.matmul(self.tensor_arg(bound["input"], name, node),
                               self.tensor_arg(bound["other"], name, node), node)
        if name == "torch.nn.functional.affine_grid":
            bound = self.bind_args(name, args, kwargs, ("theta", "size", "align_corners"), node, 2)
            theta = self.tensor_arg(bound["theta"], name, node)
            size = self.as_shape(bound["size"], node)
            if len(size) == 4:
                return Tensor((size[0], size[2], size[3], 2), theta.dtype)
            if len(size) == 5:
                return Tensor((size[0], size[2], size[3], size[4], 3), theta.dtype)
            self.fail("`affine_grid` size must have 4 or 5 entries", node)
        if short in COMPARE_METHODS or short in BINARY_METHODS or short in ELEMENTWISE or short in (
                "unsqueeze", "squeeze", "reshape", "permute", "transpose", "flatten", "sum", "mean", "t",
                "one_hot"):
            if not args:
                self.fail(f"`{name}` needs a tensor", node)
            if short == "one_hot":
                return self.one_hot(args, kwargs, node)
            return self.call_method(self.tensor_arg(args[0], name, node), short, args[1:], kwargs, node)
        self.fail(f"call to `{name}` is not supported", node)

    def one_hot(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        bound = self.bind_args("one_hot", args, kwargs, ("tensor", "num_classes"), node, 2)
        t = self.tensor_arg(bound["tensor"], "one_hot", node)
        n = self.as_int(bound["num_classes"], "`num_classes`", node)
        if n < 0:
            self.fail("`one_hot` needs an explicit num_classes", node)
        return Tensor(t.shape + (n,), "int64")

    def call_math(self, short: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if kwargs:
            self.fail(f"keyword arguments to `math.{short}` are not supported", node)
        if short == "prod":
            if len(args) != 1 or not isinstance(args[0], (tuple, list)):
                self.fail("`math.prod` takes one sequence", node)
            total: Any = 1
            for x in args[0]:
                if not isinstance(x, (int, float)):
                    self.fail("`math.prod` of non-numbers", node)
                total = self.number_binop(ast.Mult(), total, x, node)
            return total
        fns: dict[str, Callable[..., Any]] = {
            "sqrt": math.sqrt, "ceil": math.ceil, "floor": math.floor, "log2": math.log2, "log": math.log,
            "exp": math.exp, "isqrt": math.isqrt, "gcd": math.gcd, "trunc": math.trunc, "fabs": math.fabs,
        }
        if short not in fns:
            self.fail(f"call to `math.{short}` is not supported", node)
        if not args or not all(isinstance(a, (int, float)) for a in args):
            self.fail(f"`math.{short}` needs numbers", node)
        try:
            r = fns[short](*args)
        except (ValueError, OverflowError, TypeError) as e:
            self.fail(f"`math.{short}` failed: {e}", node)
        return self.check_int(r, node) if isinstance(r, int) else r

    def literal_shape(self, data: Any, node: ast.AST) -> tuple[tuple[int, ...], str]:
        """Shape and default dtype of `torch.tensor(data)`."""
        kinds: set[str] = set()
        budget = [MAX_SEQ * 16]

        def walk(v: Any, depth: int) -> tuple[int, ...]:
            budget[0] -= 1
            if budget[0] < 0:
                self.fail("tensor literal too large", node)
            if depth > MAX_RANK:
                self.fail("tensor literal nested too deeply", node)
            if isinstance(v, (bool, int, float)):
                kinds.add(scalar_dtype(v))
                return ()
            if isinstance(v, Tensor):
                if v.shape:
                    self.fail("torch.tensor of a list of tensors is not supported", node)
                kinds.add(v.dtype)
                return ()
            if not isinstance(v, (tuple, list)):
                self.fail(f"torch.tensor of {describe(v)}", node)
            if not v:
                kinds.add("float32")
                return (0,)
            shapes = {walk(x, depth + 1) for x in v}
            if len(shapes) != 1:
                self.fail("torch.tensor of a ragged nested list", node)
            return (len(v),) + shapes.pop()

        shape = walk(data, 0)
        dtype = "bool"
        for k in kinds:
            dtype = k if dtype_category(k) > dtype_category(dtype) else dtype
        if dtype_category(dtype) == 2:
            dtype = "float32" if not any(k == "float64" for k in kinds) else "float64"
        elif dtype_category(dtype) == 1:
            dtype = "int64"
        return shape, dtype

    def cat(self, stack: bool, tensors: Any, dim: Any, name: str, node: ast.AST) -> Tensor:
        if not isinstance(tensors, (tuple, list)) or not tensors:
            self.fail(f"`{name}` needs a non-empty sequence of tensors", node)
        ts = [self.tensor_arg(t, name, node) for t in tensors]
        d = self.as_int(dim, "`dim`", node)
        rank = len(ts[0].shape) + (1 if stack else 0)
        d = self.norm_dim(d, rank, node)
        dtype = self.result_dtype(ts, node)
        if stack:
            if len({t.shape for t in ts}) != 1:
                self.fail(f"`{name}` of tensors of different shapes", node)
            shape = list(ts[0].shape)
            shape.insert(d, len(ts))
            return Tensor(tuple(shape), dtype)
        base = ts[0].shape
        total = 0
        for t in ts:
            if len(t.shape) != len(base) or any(a != b for i, (a, b) in enumerate(zip(t.shape, base)) if i != d):
                self.fail(f"`{name}` of tensors with mismatched shapes", node)
            total += t.shape[d]
        return Tensor(base[:d] + (total,) + base[d + 1:], dtype)

    def norm_dim(self, d: int, rank: int, node: ast.AST) -> int:
        if not -max(rank, 1) <= d < max(rank, 1):
            self.fail(f"dimension {d} out of range for {rank} dimensions", node)
        return d % max(rank, 1)
