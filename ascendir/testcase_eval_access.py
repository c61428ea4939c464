"""Subscripts, attributes and calls in the test-case evaluator: tensor indexing and slicing, module and tensor
attributes, the dispatch of a call to builtins, torch functions and methods, and the checks of their
arguments (ints, dtypes, shapes).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from typing import Any

from ascendir.testcase_dtypes import DTYPE_BITS, TORCH_DTYPES, dtype_category
from ascendir.testcase_names import IGNORED_KWARGS
from ascendir.testcase_types import MAX_RANK
from ascendir.testcase_values import Builtin, DType, Device, Method, Module, Tensor, UserFunc, describe


class EvalAccess:
    """Subscripts, attributes and calls: methods of Evaluator (testcase_eval.py), which inherits them."""

    def eval_Subscript(self, node: ast.Subscript, env: dict[str, Any]) -> Any:
        base = self.eval(node.value, env)
        if isinstance(base, Tensor):
            return self.index_tensor(base, node.slice, env)
        if not isinstance(base, (tuple, list, str)):
            self.fail(f"cannot index {describe(base)}", node)
        if isinstance(node.slice, ast.Slice):
            parts = [self.eval(p, env) if p is not None else None
                     for p in (node.slice.lower, node.slice.upper, node.slice.step)]
            for p in parts:
                if p is not None and (not isinstance(p, int) or isinstance(p, bool)):
                    self.fail("slice bounds must be ints", node.slice)
            if parts[2] == 0:
                self.fail("slice step cannot be zero", node.slice)
            return base[slice(*parts)]
        index = self.eval(node.slice, env)
        if not isinstance(index, int) or isinstance(index, bool):
            self.fail(f"index must be an int, not {describe(index)}", node.slice)
        if not -len(base) <= index < len(base):
            self.fail(f"index {index} out of range for length {len(base)}", node.slice)
        return base[index]

    def index_tensor(self, t: Tensor, index_node: ast.expr, env: dict[str, Any]) -> Tensor:
        items = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
        dims = list(t.shape)
        out: list[int] = []
        pos = 0
        consumed = sum(1 for i in items if not (isinstance(i, ast.Constant) and i.value in (None, ...)))
        for item in items:
            if isinstance(item, ast.Constant) and item.value is ...:
                take = len(dims) - consumed
                out.extend(dims[pos:pos + take])
                pos += take
                continue
            if isinstance(item, ast.Constant) and item.value is None:
                out.append(1)
                continue
            if pos >= len(dims):
                self.fail("too many indices for the tensor", item)
            if isinstance(item, ast.Slice):
                parts = [self.eval(p, env) if p is not None else None for p in (item.lower, item.upper, item.step)]
                if any(p is not None and (not isinstance(p, int) or isinstance(p, bool)) for p in parts):
                    self.fail("tensor slice bounds must be ints", item)
                if parts[2] is not None and parts[2] <= 0:
                    self.fail("tensor slice step must be positive", item)
                out.append(len(range(*slice(*parts).indices(dims[pos]))))
                pos += 1
                continue
            v = self.eval(item, env)
            if isinstance(v, int) and not isinstance(v, bool):
                if not -dims[pos] <= v < dims[pos]:
                    self.fail(f"index {v} out of range for dimension of size {dims[pos]}", item)
                pos += 1
                continue
            self.fail("only int, slice, None and ... indices of tensors are supported", item)
        out.extend(dims[pos:])
        return Tensor(tuple(out), t.dtype)

    def module_attr(self, base: Module, attr: str, node: ast.AST) -> Any:
        name = f"{base.name}.{attr}"
        if base.name == "torch" and attr in TORCH_DTYPES:
            return DType(TORCH_DTYPES[attr])
        if base.name == "torch" and attr in ("complex64", "complex128", "cfloat", "cdouble", "float8_e4m3fn",
                                              "float8_e5m2", "qint8", "quint8"):
            self.fail(f"dtype torch.{attr} is not supported", node)
        if base.name == "math" and attr in ("pi", "e", "tau", "inf"):
            return float(getattr(math, attr))
        return Module(name)

    def eval_Attribute(self, node: ast.Attribute, env: dict[str, Any]) -> Any:
        return self.attribute(self.eval(node.value, env), node.attr, node)

    def attribute(self, base: Any, attr: str, node: ast.AST) -> Any:
        """`base.attr` of an evaluated base (a subclass extends this for its own values)."""
        if isinstance(base, Module):
            return self.module_attr(base, attr, node)
        if isinstance(base, Tensor):
            if attr == "shape":
                return base.shape
            if attr == "dtype":
                return DType(base.dtype)
            if attr == "ndim":
                return len(base.shape)
            if attr in ("T", "mT"):
                if attr == "mT" and len(base.shape) < 2:
                    self.fail("`.mT` needs at least 2 dimensions", node)
                shape = tuple(reversed(base.shape)) if attr == "T" else base.shape[:-2] + base.shape[:-3:-1]
                return Tensor(shape, base.dtype)
            if attr in ("data", "real"):
                return base
            if attr == "device":
                return Device()
            return Method(base, attr)
        if isinstance(base, DType):
            if attr == "is_floating_point":
                return dtype_category(base.name) == 2
            if attr == "itemsize":
                return max(DTYPE_BITS[base.name] // 8, 1)
        if isinstance(base, (tuple, list, str)) and attr in ("index", "count"):
            return Method(base, attr)
        self.fail(f"attribute `{attr}` of {describe(base)} is not supported", node)

    def eval_Call(self, node: ast.Call, env: dict[str, Any]) -> Any:
        func = self.eval(node.func, env)
        args = self.eval_seq(list(node.args), env)
        kwargs: dict[str, Any] = {}
        for kw in node.keywords:
            if kw.arg is None:
                self.fail("`**` arguments are not supported", kw)
            kwargs[kw.arg] = self.eval(kw.value, env)
        return self.call(func, args, kwargs, node)

    def call(self, func: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """Call an evaluated function value (a subclass extends this for its own values)."""
        if isinstance(func, Builtin):
            return self.call_builtin(func.name, args, kwargs, node)
        if isinstance(func, Module):
            return self.call_function(func.name, args, kwargs, node)
        if isinstance(func, Method):
            if isinstance(func.obj, Tensor):
                return self.call_method(func.obj, func.name, args, kwargs, node)
            if func.name in ("index", "count") and len(args) == 1 and not kwargs:
                seq = func.obj
                if func.name == "count":
                    return seq.count(args[0])
                if args[0] not in seq:
                    self.fail("value not in sequence", node)
                return seq.index(args[0])
        if isinstance(func, UserFunc):
            self.fail(f"calls `{func.name}` (defined at line {func.line}); functions of the file are not "
                      "evaluated", node)
        self.fail(f"cannot call {describe(func)}", node)

    # ---- argument helpers
    def bind_args(self, fname: str, args: list[Any], kwargs: dict[str, Any], params: Sequence[str],
                  node: ast.AST, required: int = 0) -> dict[str, Any]:
        if len(args) > len(params):
            self.fail(f"`{fname}` takes at most {len(params)} positional arguments", node)
        bound = dict(zip(params, args))
        for k, v in kwargs.items():
            if k in IGNORED_KWARGS:
                continue
            if k not in params:
                self.fail(f"unsupported keyword `{k}` for `{fname}`", node)
            if k in bound:
                self.fail(f"`{fname}` got `{k}` twice", node)
            bound[k] = v
        for p in params[:required]:
            if p not in bound:
                self.fail(f"`{fname}` is missing `{p}`", node)
        return bound

    def as_int(self, v: Any, what: str, node: ast.AST) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(f"{what} must be an int, not {describe(v)}", node)
        return v

    def as_dtype(self, v: Any, node: ast.AST) -> str:
        if isinstance(v, DType):
            return v.name
        self.fail(f"expected a torch dtype, not {describe(v)}", node)

    def as_shape(self, v: Any, node: ast.AST) -> tuple[int, ...]:
        if not isinstance(v, (tuple, list)):
            self.fail(f"a size must be a tuple or list of ints, not {describe(v)}", node)
        if len(v) > MAX_RANK:
            self.fail(f"more than {MAX_RANK} dimensions", node)
        dims = tuple(self.as_int(d, "a dimension", node) for d in v)
        if any(d < 0 for d in dims):
            self.fail(f"negative dimension in size {list(dims)}", node)
        if any(d >= 1 << 63 for d in dims):
            self.fail("dimension too large", node)
        return dims

    def size_args(self, fname: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST
                  ) -> tuple[tuple[int, ...], dict[str, Any]]:
        """`f(2, 3)`, `f((2, 3))`, `f([2, 3])` or `f(size=(2, 3))`; gives the shape and the other kwargs."""
        kwargs = dict(kwargs)
        if "size" in kwargs:
            if args:
                self.fail(f"`{fname}` got a size twice", node)
            return self.as_shape(kwargs.pop("size"), node), kwargs
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            return self.as_shape(args[0], node), kwargs
        if not args:
            self.fail(f"`{fname}` needs a size", node)
        return self.as_shape(args, node), kwargs

    def dtype_kw(self, fname: str, kwargs: dict[str, Any], default: str, node: ast.AST) -> str:
        rest = {k: v for k, v in kwargs.items() if k not in IGNORED_KWARGS}
        dtype = default
        if "dtype" in rest:
            v = rest.pop("dtype")
            dtype = default if v is None else self.as_dtype(v, node)
        if rest:
            self.fail(f"unsupported keyword `{next(iter(rest))}` for `{fname}`", node)
        return dtype

    def tensor_arg(self, v: Any, fname: str, node: ast.AST) -> Tensor:
        if not isinstance(v, Tensor):
            self.fail(f"`{fname}` expects a tensor, not {describe(v)}", node)
        return v
