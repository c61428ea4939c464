"""Read test case files: the concrete input shapes, dtypes and attribute values a kernel is checked for.

Two formats, picked by the file's suffix (`read_test_case`):

``.py`` -- a MultiKernelBench-style reference program::

    batch_size = 16
    dim = 16384

    class Model(nn.Module):
        def __init__(self, dim): ...
        def forward(self, x, y, alpha): ...

    def get_inputs():
        x = torch.randn(batch_size, dim, dtype=torch.float16)
        return [x, torch.randint(0, 10, (batch_size,)), 0.5]

    def get_init_inputs():
        return [dim]

  The program is NEVER executed or imported: it is parsed with `ast` and `get_inputs()` /
  `get_init_inputs()` are evaluated abstractly over the syntax tree. Tensors are tracked as (shape, dtype)
  only. Understood: module-level constants (assignments, tuple unpacking), simple local assignments in the
  two functions, int/float/bool/str/tuple/list values, arithmetic (``+ - * / // % ** << >>``, unary
  ops, comparisons, ``and``/``or``, ``x if c else y``), starred items, indexing and slicing of tuples, the
  builtins ``int float bool len min max abs round sum tuple list range`` and ``math.prod/sqrt/ceil/floor``;
  the torch factories ``rand randn zeros ones empty full randint randperm arange linspace eye tensor`` and
  their ``*_like`` forms (sizes as separate ints, a tuple/list, ``size=``, ``dtype=`` keywords); dtype
  changes ``.half() .float() .double() .bfloat16() .int() .long() .short() .bool() .byte() .char()
  .to(dtype|tensor|device) .type(dtype)``; elementwise functions and methods (``abs exp sigmoid tril
  softmax clamp ...``), tensor arithmetic with torch's broadcasting and type promotion (comparisons give
  bool), ``x.shape``, ``x.size()``, ``x.T``, ``view/reshape/unsqueeze/squeeze/permute/transpose/flatten/
  expand/repeat``, ``torch.cat/stack/where/matmul`` and ``F.affine_grid``. torch's default dtype is
  ``float32``.

  Anything else becomes a diagnostic (an error with the line and column of the construct), never an
  exception. Module-level assignments that cannot be evaluated are only reported when used.

``.json`` -- our own plain format::

    {
      "inputs": [{"shape": [8, 2048], "dtype": "float16"},
                 {"shape": [8, 2048], "dtype": "float16", "storage_shape": [8, 128, 16]}],
      "attrs": [0.5, 3, true],
      "init_args": [2048, [3, 5]]
    }

  ``inputs`` (required) lists the tensor arguments in order: ``shape`` is a list of non-negative ints
  (``[]`` for a 0-dim tensor), ``dtype`` one of ``float16 float32 float64 bfloat16 int8 int16 int32
  int64 uint8 uint16 uint32 uint64 bool`` (default ``float32``; ``fp16``, ``half``, ``bf16``, ``fp32``,
  ``float`` ... are accepted aliases), ``storage_shape`` optional, ``name`` optional and ignored. ``attrs`` (optional, alias
  ``scalars``) are the non-tensor arguments -- numbers, bools, or lists of them (kept as tuples) -- and
  end up in `TestCase.scalars`.
  ``init_args`` (optional) are the model's constructor arguments; JSON lists become tuples.

The dtype names are numpy-style: ``float16 float32 bfloat16 int8 int16 int32 int64 uint8 bool`` ...
"""

from __future__ import annotations

import ast
import json
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from ascendir.host_eval import TensorSpec

__all__ = ["TestCase", "TestCaseProblem", "read_json_text", "read_reference_text", "read_test_case"]

MAX_FILE_BYTES = 4 << 20
_MAX_SEQ = 1 << 16  # elements in one evaluated list / tuple / string
_MAX_INT_BITS = 256  # larger integers are refused rather than computed
_MAX_STEPS = 300_000  # evaluation steps per file
_MAX_RANK = 64

Scalar = int | float | bool
# a non-tensor argument: a number, a bool, or a tuple of them (a list-valued attribute such as a size)
Attr = Scalar | tuple[Scalar, ...]


@dataclass
class TestCaseProblem:
    """One problem found in a test case file; line and col are 1-based."""

    message: str
    line: int
    col: int
    severity: str = "error"  # "error" or "warning"
    filename: str = ""

    def __str__(self) -> str:
        return f"{self.filename or '<test case>'}:{self.line}:{self.col}: {self.severity}: {self.message}"


@dataclass
class TestCase:
    """The inputs a test case file gives.

    `inputs` are the tensors and `scalars` the other entries of `get_inputs()` (numbers, bools, tuples of
    them), each in order;
    `call_args` keeps all of them in their original interleaved order. `init_args` are the values of
    `get_init_inputs()` (tensors there appear as `TensorSpec`). `forward_params` / `init_params` are the
    parameter names of `Model.forward` / `Model.__init__` (without self), or None when not found.
    """

    __test__ = False  # not a pytest test class

    inputs: list[TensorSpec] = field(default_factory=list)
    scalars: list[Attr] = field(default_factory=list)
    init_args: list[object] = field(default_factory=list)
    diagnostics: list[TestCaseProblem] = field(default_factory=list)
    call_args: list[TensorSpec | Attr] = field(default_factory=list)
    forward_params: list[str] | None = None
    init_params: list[str] | None = None
    filename: str = ""

    @property
    def ok(self) -> bool:
        """True when no error was found (warnings allowed)."""
        return not any(d.severity == "error" for d in self.diagnostics)

    @property
    def errors(self) -> list[TestCaseProblem]:
        return [d for d in self.diagnostics if d.severity == "error"]


# --------------------------------------------------------------------------------------------- dtypes

_DTYPE_NAMES = (
    "float16", "float32", "float64", "bfloat16",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
)
_TORCH_DTYPES = {name: name for name in _DTYPE_NAMES} | {
    "half": "float16", "float": "float32", "double": "float64",
    "short": "int16", "int": "int32", "long": "int64",
}
_JSON_DTYPE_ALIASES = {name: name for name in _DTYPE_NAMES} | {
    "fp16": "float16", "half": "float16", "bf16": "bfloat16", "fp32": "float32", "float": "float32",
    "fp64": "float64", "double": "float64", "int": "int32", "long": "int64",
}
# tensor methods that only change the dtype
_CAST_METHODS = {
    "half": "float16", "float": "float32", "double": "float64", "bfloat16": "bfloat16",
    "int": "int32", "long": "int64", "short": "int16", "bool": "bool", "byte": "uint8", "char": "int8",
}
_BITS = {
    "bool": 1, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int32": 32, "uint32": 32,
    "int64": 64, "uint64": 64, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64,
}


def _category(dtype: str) -> int:
    if dtype == "bool":
        return 0
    return 2 if dtype.startswith(("float", "bfloat")) else 1


def _promote(a: str, b: str) -> str:
    """torch.promote_types for the dtypes we know."""
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if _BITS[a] >= _BITS[b] else b
    ua, ub = a.startswith("uint"), b.startswith("uint")
    if ua == ub:
        return a if _BITS[a] >= _BITS[b] else b
    unsigned, signed = (a, b) if ua else (b, a)
    if _BITS[signed] > _BITS[unsigned]:
        return signed
    return {8: "int16", 16: "int32"}.get(_BITS[unsigned], "int64")


def _scalar_dtype(v: Scalar) -> str:
    if isinstance(v, bool):
        return "bool"
    return "int64" if isinstance(v, int) else "float32"


# ----------------------------------------------------------------------------------- abstract values


@dataclass(frozen=True)
class _Tensor:
    shape: tuple[int, ...]
    dtype: str


@dataclass(frozen=True)
class _DType:
    name: str


@dataclass(frozen=True)
class _Device:
    pass


@dataclass(frozen=True)
class _Module:
    """An imported module or a dotted name below one (`torch`, `torch.nn.functional.softmax`)."""

    name: str


@dataclass(frozen=True)
class _Builtin:
    name: str


@dataclass(frozen=True)
class _Method:
    obj: Any
    name: str


@dataclass(frozen=True)
class _UserFunc:
    name: str
    line: int


@dataclass
class _Poison:
    """A name whose value could not be found; the problem is reported at the first use."""

    problem: TestCaseProblem | None
    reported: bool = False


class _EvalError(Exception):
    def __init__(self, message: str, node: ast.AST | None) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


class _Quiet(Exception):
    """An evaluation failed because of a problem already reported."""


_BUILTINS = {"int", "float", "bool", "len", "min", "max", "abs", "round", "sum", "tuple", "list", "range"}
_IGNORED_CALLS = {"torch.manual_seed", "random.seed", "numpy.random.seed", "torch.cuda.manual_seed",
                  "torch.cuda.manual_seed_all", "torch.use_deterministic_algorithms", "print"}
_IGNORED_KWARGS = {"device", "requires_grad", "pin_memory", "layout", "generator", "memory_format",
                   "non_blocking", "copy"}
_ELEMENTWISE = {
    "abs", "absolute", "neg", "negative", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "gelu", "silu", "sin", "cos", "tan", "sign", "floor",
    "ceil", "round", "trunc", "frac", "reciprocal", "square", "tril", "triu", "softmax", "log_softmax",
    "clamp", "clip", "clamp_min", "clamp_max", "normalize", "contiguous", "clone", "detach", "cuda", "cpu",
    "requires_grad_", "normal_", "uniform_", "fill_", "zero_", "exponential_", "random_", "bernoulli_",
    "abs_", "clamp_", "mul_", "add_", "div_", "sub_", "pin_memory", "leaky_relu", "elu", "selu",
    "softplus", "hardtanh", "nan_to_num", "cumsum", "flip", "roll", "dropout", "erf", "sort_values",
    "bernoulli", "layer_norm",
}
# elementwise ops that make a float result from an integer tensor
_FLOAT_RESULT = {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sigmoid", "tanh",
                 "sin", "cos", "tan", "reciprocal", "softmax", "log_softmax", "gelu", "silu", "erf"}
_FACTORIES = {"rand", "randn", "zeros", "ones", "empty"}
_LIKE = {"rand_like", "randn_like", "zeros_like", "ones_like", "empty_like"}
_BINARY_METHODS: dict[str, type[ast.operator]] = {
    "add": ast.Add, "sub": ast.Sub, "mul": ast.Mult, "div": ast.Div, "pow": ast.Pow,
    "matmul": ast.MatMult, "floor_divide": ast.FloorDiv, "remainder": ast.Mod,
}
_COMPARE_METHODS = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
                    "isnan", "isinf", "isfinite", "logical_not"}


def _loc(node: ast.AST | None) -> tuple[int, int]:
    if node is None:
        return 1, 1
    return getattr(node, "lineno", 1) or 1, (getattr(node, "col_offset", 0) or 0) + 1


def _describe(v: Any) -> str:
    if isinstance(v, _Tensor):
        return f"tensor{list(v.shape)}:{v.dtype}"
    if isinstance(v, _DType):
        return f"dtype {v.name}"
    if isinstance(v, _Module):
        return f"`{v.name}`"
    if isinstance(v, (_Builtin, _UserFunc)):
        return f"function `{v.name}`"
    if isinstance(v, _Method):
        return f"method `{v.name}`"
    return type(v).__name__


# -------------------------------------------------------------------------------------- the evaluator


class _Evaluator:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.diagnostics: list[TestCaseProblem] = []
        self.globals: dict[str, Any] = {}
        self.steps = 0

    # ---- diagnostics
    def problem(self, message: str, node: ast.AST | None, severity: str = "error") -> TestCaseProblem:
        line, col = _loc(node)
        return TestCaseProblem(message, line, col, severity, self.filename)

    def report(self, message: str, node: ast.AST | None, severity: str = "error") -> None:
        self.diagnostics.append(self.problem(message, node, severity))

    def fail(self, message: str, node: ast.AST | None) -> NoReturn:
        raise _EvalError(message, node)

    # ---- module level
    def load_module(self, tree: ast.Module) -> None:
        for stmt in tree.body:
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.globals[alias.asname] = _Module(alias.name)
                    else:
                        root = alias.name.split(".")[0]
                        self.globals[root] = _Module(root)
            elif isinstance(stmt, ast.ImportFrom):
                if stmt.level or not stmt.module:
                    for alias in stmt.names:
                        self.globals[alias.asname or alias.name] = _Poison(self.problem(
                            f"`{alias.asname or alias.name}` comes from a relative import", stmt))
                    continue
                for alias in stmt.names:
                    if alias.name != "*":
                        try:
                            value = self.module_attr(_Module(stmt.module), alias.name, stmt)
                        except _EvalError as e:
                            value = _Poison(self.problem(e.message, e.node))
                        self.globals[alias.asname or alias.name] = value
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.globals[stmt.name] = _UserFunc(stmt.name, stmt.lineno)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.exec_assign(stmt, self.globals)
            elif isinstance(stmt, (ast.Expr, ast.Pass)):
                continue
            else:
                self.poison_targets(stmt, self.globals, None)

    def poison_targets(self, stmt: ast.stmt, env: dict[str, Any], reported: TestCaseProblem | None) -> None:
        kind = type(stmt).__name__.lower()
        for sub in ast.walk(stmt):
            names: list[str] = []
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                names = [sub.id]
            elif isinstance(sub, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                names = [sub.name]
            elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                names = [(a.asname or a.name).split(".")[0] for a in sub.names]
            for name in names:
                if reported is not None:
                    env[name] = _Poison(None)
                else:
                    env[name] = _Poison(self.problem(
                        f"`{name}` is assigned inside an `{kind}` statement, which is not evaluated", sub))

    # ---- statements
    def exec_assign(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, env: dict[str, Any]) -> None:
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is None:
                return
            targets: list[ast.expr] = [stmt.target]
            value_node = stmt.value
        elif isinstance(stmt, ast.AugAssign):
            targets = [stmt.target]
            value_node = ast.BinOp(left=ast.Name(id=getattr(stmt.target, "id", "?"), ctx=ast.Load()),
                                   op=stmt.op, right=stmt.value)
            ast.copy_location(value_node, stmt)
            ast.copy_location(value_node.left, stmt.target)
            if not isinstance(stmt.target, ast.Name):
                value_node = stmt.value  # handled by the target check below
        else:
            targets = list(stmt.targets)
            value_node = stmt.value
        value: Any
        try:
            value = self.eval(value_node, env)
        except _EvalError as e:
            value = _Poison(self.problem(e.message, e.node))
        except _Quiet:
            value = _Poison(None)
        for target in targets:
            self.bind(target, value, env, stmt)

    def bind(self, target: ast.expr, value: Any, env: dict[str, Any], stmt: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            names = [t for t in target.elts]
            if isinstance(value, _Poison):
                self.bind_all(names, value, env, stmt)
                return
            if isinstance(value, _Tensor) and value.shape:
                value = tuple(_Tensor(value.shape[1:], value.dtype) for _ in range(min(value.shape[0],
                                                                                       _MAX_SEQ)))
            starred = [i for i, t in enumerate(names) if isinstance(t, ast.Starred)]
            if not isinstance(value, (tuple, list)) or len(starred) > 1:
                problem = self.problem(f"cannot unpack {_describe(value)} here", target)
                for t in names:
                    self.bind(t.value if isinstance(t, ast.Starred) else t, _Poison(problem), env, stmt)
                return
            if starred:
                i = starred[0]
                after = len(names) - i - 1
                if len(value) < len(names) - 1:
                    self.bind_all(names, _Poison(self.problem("too few values to unpack", target)), env, stmt)
                    return
                parts = list(value[:i]) + [list(value[i:len(value) - after])] + list(value[len(value) - after:])
            else:
                if len(value) != len(names):
                    problem = self.problem(f"cannot unpack {len(value)} values into {len(names)} names", target)
                    self.bind_all(names, _Poison(problem), env, stmt)
                    return
                parts = list(value)
            for t, v in zip(names, parts):
                self.bind(t.value if isinstance(t, ast.Starred) else t, v, env, stmt)
            return
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            # `x[mask] = 0` or `x.data = ...`: a tensor keeps its shape and dtype
            try:
                base = self.eval(target.value, env)
            except (_EvalError, _Quiet):
                base = None
            if isinstance(base, _Tensor):
                return
            self.report("assignment to an item or attribute of a non-tensor is not supported", target)
            return
        self.report("unsupported assignment target", target)

    def bind_all(self, names: list[ast.expr], value: Any, env: dict[str, Any], stmt: ast.stmt) -> None:
        for t in names:
            self.bind(t.value if isinstance(t, ast.Starred) else t, value, env, stmt)

    def run_function(self, fn: ast.FunctionDef) -> tuple[list[tuple[Any, ast.expr]] | None, ast.AST]:
        """Evaluate a no-argument function returning a list; gives (value, node) per entry."""
        if fn.args.args or fn.args.posonlyargs or fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg:
            self.report(f"`{fn.name}()` takes parameters; only a function without parameters is understood",
                        fn, "warning")
        if fn.decorator_list:
            self.report(f"decorators on `{fn.name}()` are ignored", fn.decorator_list[0], "warning")
        env: dict[str, Any] = {}
        for i, stmt in enumerate(fn.body):
            if isinstance(stmt, ast.Return):
                return self.eval_return(stmt, env, fn), stmt
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.exec_assign(stmt, env)
            elif isinstance(stmt, ast.Pass):
                continue
            elif isinstance(stmt, ast.Expr):
                if i == 0 and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                    continue  # docstring
                if isinstance(stmt.value, ast.Constant):
                    continue
                if isinstance(stmt.value, ast.Call):
                    try:
                        callee = self.eval(stmt.value.func, env)
                    except (_EvalError, _Quiet):
                        callee = None
                    if isinstance(callee, _Module) and callee.name in _IGNORED_CALLS:
                        continue
                    if isinstance(callee, _Method) and isinstance(callee.obj, _Tensor):
                        continue  # an in-place tensor method: shape and dtype stay
                self.report("expression statement ignored", stmt, "warning")
            else:
                problem = self.problem(
                    f"`{type(stmt).__name__.lower()}` statements in `{fn.name}()` are not evaluated", stmt)
                self.diagnostics.append(problem)
                self.poison_targets(stmt, env, problem)
        self.report(f"`{fn.name}()` has no `return` at its top level", fn)
        return None, fn

    def eval_return(self, stmt: ast.Return, env: dict[str, Any], fn: ast.FunctionDef
                    ) -> list[tuple[Any, ast.expr]] | None:
        if stmt.value is None:
            self.report(f"`{fn.name}()` returns nothing", stmt)
            return None
        node = stmt.value
        if isinstance(node, (ast.List, ast.Tuple)):
            out: list[tuple[Any, ast.expr]] = []
            for elt in node.elts:
                try:
                    if isinstance(elt, ast.Starred):
                        seq = self.eval(elt.value, env)
                        if not isinstance(seq, (tuple, list)):
                            self.fail(f"cannot unpack {_describe(seq)} with `*`", elt)
                        out.extend((v, elt) for v in seq)
                    else:
                        out.append((self.eval(elt, env), elt))
                except _EvalError as e:
                    self.report(e.message, e.node)
                except _Quiet:
                    pass
            return out
        try:
            value = self.eval(node, env)
        except _EvalError as e:
            self.report(e.message, e.node)
            return None
        except _Quiet:
            return None
        if not isinstance(value, (list, tuple)):
            self.report(f"`{fn.name}()` must return a list, not {_describe(value)}", node)
            return None
        return [(v, node) for v in value]

    # ---- expressions
    def lookup(self, name: str, env: dict[str, Any], node: ast.AST) -> Any:
        if name in env:
            value = env[name]
        elif name in self.globals:
            value = self.globals[name]
        elif name in _BUILTINS:
            return _Builtin(name)
        else:
            self.fail(f"name `{name}` is not defined", node)
        if isinstance(value, _Poison):
            if value.problem is not None and not value.reported:
                value.reported = True
                p = value.problem
                if (p.line, p.col) != _loc(node):
                    p = TestCaseProblem(f"{p.message} (needed for `{name}` at line {_loc(node)[0]})",
                                        p.line, p.col, p.severity, p.filename)
                self.diagnostics.append(p)
            raise _Quiet
        return value

    def eval(self, node: ast.expr, env: dict[str, Any]) -> Any:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            self.fail("evaluation too long; the test case is too complex", node)
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is None:
            self.fail(f"unsupported expression ({type(node).__name__})", node)
        return method(node, env)

    def eval_Constant(self, node: ast.Constant, env: dict[str, Any]) -> Any:
        v = node.value
        if v is None or isinstance(v, (bool, float, str)):
            return v
        if isinstance(v, int):
            return self.check_int(v, node)
        self.fail(f"unsupported constant {type(v).__name__}", node)

    def eval_Name(self, node: ast.Name, env: dict[str, Any]) -> Any:
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        return self.lookup(node.id, env, node)

    def eval_seq(self, elts: list[ast.expr], env: dict[str, Any]) -> list[Any]:
        out: list[Any] = []
        for elt in elts:
            if isinstance(elt, ast.Starred):
                v = self.eval(elt.value, env)
                if isinstance(v, _Tensor):
                    v = self.iterate(v, elt)
                if not isinstance(v, (tuple, list, str)):
                    self.fail(f"cannot unpack {_describe(v)} with `*`", elt)
                out.extend(v)
            else:
                out.append(self.eval(elt, env))
            if len(out) > _MAX_SEQ:
                self.fail("sequence too long", elt)
        return out

    def eval_Tuple(self, node: ast.Tuple, env: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(self.eval_seq(node.elts, env))

    def eval_List(self, node: ast.List, env: dict[str, Any]) -> list[Any]:
        return self.eval_seq(node.elts, env)

    def eval_ListComp(self, node: ast.ListComp, env: dict[str, Any]) -> list[Any]:
        if len(node.generators) != 1 or node.generators[0].is_async:
            self.fail("only a list comprehension with one `for` is supported", node)
        gen = node.generators[0]
        items = self.eval(gen.iter, env)
        if isinstance(items, _Tensor):
            items = self.iterate(items, gen.iter)
        if not isinstance(items, (tuple, list, str)):
            self.fail(f"cannot iterate over {_describe(items)}", gen.iter)
        out: list[Any] = []
        local = dict(env)
        for item in items:
            self.bind(gen.target, item, local, ast.Pass())
            if all(self.truth(self.eval(cond, local), cond) for cond in gen.ifs):
                out.append(self.eval(node.elt, local))
        return out

    def iterate(self, t: _Tensor, node: ast.AST) -> list[Any]:
        if not t.shape:
            self.fail("cannot iterate over a 0-dim tensor", node)
        if t.shape[0] > _MAX_SEQ:
            self.fail("tensor too long to iterate over", node)
        return [_Tensor(t.shape[1:], t.dtype)] * t.shape[0]

    def truth(self, v: Any, node: ast.AST) -> bool:
        if isinstance(v, (bool, int, float, str, tuple, list)) or v is None:
            return bool(v)
        if isinstance(v, _DType):
            return True
        self.fail(f"the truth value of {_describe(v)} is not known statically", node)

    def eval_IfExp(self, node: ast.IfExp, env: dict[str, Any]) -> Any:
        return self.eval(node.body if self.truth(self.eval(node.test, env), node.test) else node.orelse, env)

    def eval_BoolOp(self, node: ast.BoolOp, env: dict[str, Any]) -> Any:
        value: Any = None
        for operand in node.values:
            value = self.eval(operand, env)
            truth = self.truth(value, operand)
            if isinstance(node.op, ast.And) and not truth:
                return value
            if isinstance(node.op, ast.Or) and truth:
                return value
        return value

    def eval_UnaryOp(self, node: ast.UnaryOp, env: dict[str, Any]) -> Any:
        v = self.eval(node.operand, env)
        if isinstance(v, _Tensor):
            if isinstance(node.op, ast.Not):
                self.fail("`not` of a tensor is not known statically", node)
            if isinstance(node.op, ast.Invert) and _category(v.dtype) == 2:
                self.fail("`~` of a floating-point tensor", node)
            return v
        if isinstance(node.op, ast.Not):
            return not self.truth(v, node.operand)
        if not isinstance(v, (int, float)):
            self.fail(f"unary operator on {_describe(v)}", node)
        if isinstance(node.op, ast.USub):
            return self.check_int(-v, node) if isinstance(v, int) else -v
        if isinstance(node.op, ast.UAdd):
            return +v
        if isinstance(v, float):
            self.fail("`~` of a float", node)
        return ~v

    def eval_BinOp(self, node: ast.BinOp, env: dict[str, Any]) -> Any:
        return self.binop(node.op, self.eval(node.left, env), self.eval(node.right, env), node)

    def eval_Compare(self, node: ast.Compare, env: dict[str, Any]) -> Any:
        left = self.eval(node.left, env)
        result: Any = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(right_node, env)
            if isinstance(left, _Tensor) or isinstance(right, _Tensor):
                if isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                    self.fail(f"`{type(op).__name__}` with a tensor is not supported", node)
                shapes = [x.shape for x in (left, right) if isinstance(x, _Tensor)]
                for x in (left, right):
                    if not isinstance(x, (_Tensor, int, float, bool)):
                        self.fail(f"cannot compare a tensor with {_describe(x)}", node)
                value: Any = _Tensor(self.broadcast(shapes, node), "bool")
                if len(node.ops) > 1:
                    self.fail("chained comparison of tensors", node)
                return value
            value = self.compare(op, left, right, node)
            if not value:
                return False
            result = value
            left = right
        return result

    def compare(self, op: ast.cmpop, a: Any, b: Any, node: ast.AST) -> bool:
        if isinstance(op, ast.Eq):
            return bool(a == b)
        if isinstance(op, ast.NotEq):
            return bool(a != b)
        if isinstance(op, ast.Is):
            return a is b if a is None or b is None else bool(a == b)
        if isinstance(op, ast.IsNot):
            return a is not b if a is None or b is None else bool(a != b)
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(b, (tuple, list, str)) or (isinstance(b, str) and not isinstance(a, str)):
                self.fail(f"`in` on {_describe(b)}", node)
            found = a in b
            return found if isinstance(op, ast.In) else not found
        ordered = (int, float)
        if not ((isinstance(a, ordered) and isinstance(b, ordered))
                or (type(a) is type(b) and isinstance(a, (str, tuple, list)))):
            self.fail(f"cannot order {_describe(a)} and {_describe(b)}", node)
        try:
            fns: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
                ast.Lt: lambda x, y: x < y, ast.LtE: lambda x, y: x <= y,
                ast.Gt: lambda x, y: x > y, ast.GtE: lambda x, y: x >= y,
            }
            return bool(fns[type(op)](a, b))
        except TypeError:
            self.fail(f"cannot order {_describe(a)} and {_describe(b)}", node)

    def check_int(self, v: int, node: ast.AST) -> int:
        if v.bit_length() > _MAX_INT_BITS:
            self.fail(f"integer too large (more than {_MAX_INT_BITS} bits)", node)
        return v

    def binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        if isinstance(a, _Tensor) or isinstance(b, _Tensor):
            return self.tensor_binop(op, a, b, node)
        opname = type(op).__name__
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return self.number_binop(op, a, b, node)
        if isinstance(op, ast.Add) and type(a) is type(b) and isinstance(a, (tuple, list, str)):
            if len(a) + len(b) > _MAX_SEQ:
                self.fail("sequence too long", node)
            return a + b
        if isinstance(op, ast.Mult):
            seq, n = (a, b) if isinstance(a, (tuple, list, str)) else (b, a)
            if isinstance(seq, (tuple, list, str)) and isinstance(n, int):
                if len(seq) * max(n, 0) > _MAX_SEQ:
                    self.fail("sequence too long", node)
                return seq * n
        if isinstance(op, ast.Mod) and isinstance(a, str):
            self.fail("string formatting is not supported", node)
        self.fail(f"unsupported operation {opname} on {_describe(a)} and {_describe(b)}", node)

    def number_binop(self, op: ast.operator, a: float, b: float, node: ast.AST) -> Any:
        try:
            if isinstance(op, ast.Add):
                r: Any = a + b
            elif isinstance(op, ast.Sub):
                r = a - b
            elif isinstance(op, ast.Mult):
                r = a * b
            elif isinstance(op, ast.Div):
                r = a / b
            elif isinstance(op, ast.FloorDiv):
                r = a // b
            elif isinstance(op, ast.Mod):
                r = a % b
            elif isinstance(op, ast.Pow):
                if (isinstance(a, int) and isinstance(b, int) and b > 0
                        and max(abs(a), 1).bit_length() * b > _MAX_INT_BITS + 64):
                    self.fail(f"integer too large (more than {_MAX_INT_BITS} bits)", node)
                r = a ** b
                if isinstance(r, complex):
                    self.fail("complex result of `**`", node)
            elif isinstance(op, (ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor)):
                if not (isinstance(a, int) and isinstance(b, int)):
                    self.fail(f"bit operation {type(op).__name__} on a float", node)
                if isinstance(op, ast.LShift):
                    if b < 0 or b > _MAX_INT_BITS:
                        self.fail("shift count out of range", node)
                    r = a << b
                elif isinstance(op, ast.RShift):
                    if b < 0:
                        self.fail("negative shift count", node)
                    r = a >> min(b, _MAX_INT_BITS + 1)
                elif isinstance(op, ast.BitAnd):
                    r = a & b
                elif isinstance(op, ast.BitOr):
                    r = a | b
                else:
                    r = a ^ b
            else:
                self.fail(f"unsupported operator {type(op).__name__} on numbers", node)
        except ZeroDivisionError:
            self.fail("division by zero", node)
        except (OverflowError, ValueError, ArithmeticError):
            self.fail("arithmetic overflow", node)
        if isinstance(r, int) and not isinstance(r, bool):
            return self.check_int(r, node)
        return r

    def broadcast(self, shapes: Sequence[tuple[int, ...]], node: ast.AST) -> tuple[int, ...]:
        rank = max((len(s) for s in shapes), default=0)
        out: list[int] = []
        for i in range(rank):
            dim = 1
            for s in shapes:
                j = i - (rank - len(s))
                if j < 0:
                    continue
                d = s[j]
                if d == dim or d == 1:
                    continue
                if dim == 1:
                    dim = d
                else:
                    self.fail(f"shapes {' and '.join(str(list(x)) for x in shapes)} do not broadcast", node)
            out.append(dim)
        return tuple(out)

    def result_dtype(self, operands: Sequence[Any], node: ast.AST) -> str:
        """torch's type promotion: dimensioned tensors, then 0-dim tensors, then Python scalars."""
        groups: list[list[str]] = [[], [], []]
        for x in operands:
            if isinstance(x, _Tensor):
                groups[0 if x.shape else 1].append(x.dtype)
            elif isinstance(x, (bool, int, float)):
                groups[2].append(_scalar_dtype(x))
            else:
                self.fail(f"unsupported operand {_describe(x)} for a tensor operation", node)
        result: str | None = None
        for level, dtypes in enumerate(groups):
            if not dtypes:
                continue
            d = dtypes[0]
            for other in dtypes[1:]:
                d = _promote(d, other)
            if result is None:
                result = d
            elif _category(d) > _category(result):
                # a higher category from a lower-priority group: that group's type (scalars: the default)
                result = d if level < 2 else ("float32" if _category(d) == 2 else "int64")
        assert result is not None
        return result

    def tensor_binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> _Tensor:
        for x in (a, b):
            if not isinstance(x, (_Tensor, bool, int, float)):
                self.fail(f"unsupported operand {_describe(x)} for a tensor operation", node)
        if isinstance(op, ast.MatMult):
            if not (isinstance(a, _Tensor) and isinstance(b, _Tensor)):
                self.fail("`@` needs two tensors", node)
            return self.matmul(a, b, node)
        shapes = [x.shape for x in (a, b) if isinstance(x, _Tensor)]
        shape = self.broadcast(shapes, node)
        dtype = self.result_dtype([a, b], node)
        if isinstance(op, ast.Div) and _category(dtype) < 2:
            dtype = "float32"
        elif isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)) and _category(dtype) == 2:
            self.fail(f"bit operation {type(op).__name__} on a floating-point tensor", node)
        elif isinstance(op, (ast.Sub, ast.Pow, ast.FloorDiv, ast.Mod)) and dtype == "bool":
            self.fail(f"{type(op).__name__} on bool tensors", node)
        return _Tensor(shape, dtype)

    def matmul(self, a: _Tensor, b: _Tensor, node: ast.AST) -> _Tensor:
        if not a.shape or not b.shape:
            self.fail("matmul of a 0-dim tensor", node)
        sa, sb = list(a.shape), list(b.shape)
        va, vb = len(sa) == 1, len(sb) == 1
        if va:
            sa = [1] + sa
        if vb:
            sb = sb + [1]
        if sa[-1] != sb[-2]:
            self.fail(f"matmul shapes {list(a.shape)} and {list(b.shape)} do not match", node)
        batch = self.broadcast([tuple(sa[:-2]), tuple(sb[:-2])], node)
        out = list(batch) + ([] if va else [sa[-2]]) + ([] if vb else [sb[-1]])
        return _Tensor(tuple(out), _promote(a.dtype, b.dtype))

    def eval_Subscript(self, node: ast.Subscript, env: dict[str, Any]) -> Any:
        base = self.eval(node.value, env)
        if isinstance(base, _Tensor):
            return self.index_tensor(base, node.slice, env)
        if not isinstance(base, (tuple, list, str)):
            self.fail(f"cannot index {_describe(base)}", node)
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
            self.fail(f"index must be an int, not {_describe(index)}", node.slice)
        if not -len(base) <= index < len(base):
            self.fail(f"index {index} out of range for length {len(base)}", node.slice)
        return base[index]

    def index_tensor(self, t: _Tensor, index_node: ast.expr, env: dict[str, Any]) -> _Tensor:
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
        return _Tensor(tuple(out), t.dtype)

    def module_attr(self, base: _Module, attr: str, node: ast.AST) -> Any:
        name = f"{base.name}.{attr}"
        if base.name == "torch" and attr in _TORCH_DTYPES:
            return _DType(_TORCH_DTYPES[attr])
        if base.name == "torch" and attr in ("complex64", "complex128", "cfloat", "cdouble", "float8_e4m3fn",
                                              "float8_e5m2", "qint8", "quint8"):
            self.fail(f"dtype torch.{attr} is not supported", node)
        if base.name == "math" and attr in ("pi", "e", "tau", "inf"):
            return float(getattr(math, attr))
        return _Module(name)

    def eval_Attribute(self, node: ast.Attribute, env: dict[str, Any]) -> Any:
        return self.attribute(self.eval(node.value, env), node.attr, node)

    def attribute(self, base: Any, attr: str, node: ast.AST) -> Any:
        """`base.attr` of an evaluated base (a subclass extends this for its own values)."""
        if isinstance(base, _Module):
            return self.module_attr(base, attr, node)
        if isinstance(base, _Tensor):
            if attr == "shape":
                return base.shape
            if attr == "dtype":
                return _DType(base.dtype)
            if attr == "ndim":
                return len(base.shape)
            if attr in ("T", "mT"):
                if attr == "mT" and len(base.shape) < 2:
                    self.fail("`.mT` needs at least 2 dimensions", node)
                shape = tuple(reversed(base.shape)) if attr == "T" else base.shape[:-2] + base.shape[:-3:-1]
                return _Tensor(shape, base.dtype)
            if attr in ("data", "real"):
                return base
            if attr == "device":
                return _Device()
            return _Method(base, attr)
        if isinstance(base, _DType):
            if attr == "is_floating_point":
                return _category(base.name) == 2
            if attr == "itemsize":
                return max(_BITS[base.name] // 8, 1)
        if isinstance(base, (tuple, list, str)) and attr in ("index", "count"):
            return _Method(base, attr)
        self.fail(f"attribute `{attr}` of {_describe(base)} is not supported", node)

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
        if isinstance(func, _Builtin):
            return self.call_builtin(func.name, args, kwargs, node)
        if isinstance(func, _Module):
            return self.call_function(func.name, args, kwargs, node)
        if isinstance(func, _Method):
            if isinstance(func.obj, _Tensor):
                return self.call_method(func.obj, func.name, args, kwargs, node)
            if func.name in ("index", "count") and len(args) == 1 and not kwargs:
                seq = func.obj
                if func.name == "count":
                    return seq.count(args[0])
                if args[0] not in seq:
                    self.fail("value not in sequence", node)
                return seq.index(args[0])
        if isinstance(func, _UserFunc):
            self.fail(f"calls `{func.name}` (defined at line {func.line}); functions of the file are not "
                      "evaluated", node)
        self.fail(f"cannot call {_describe(func)}", node)

    # ---- argument helpers
    def bind_args(self, fname: str, args: list[Any], kwargs: dict[str, Any], params: Sequence[str],
                  node: ast.AST, required: int = 0) -> dict[str, Any]:
        if len(args) > len(params):
            self.fail(f"`{fname}` takes at most {len(params)} positional arguments", node)
        bound = dict(zip(params, args))
        for k, v in kwargs.items():
            if k in _IGNORED_KWARGS:
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
            self.fail(f"{what} must be an int, not {_describe(v)}", node)
        return v

    def as_dtype(self, v: Any, node: ast.AST) -> str:
        if isinstance(v, _DType):
            return v.name
        self.fail(f"expected a torch dtype, not {_describe(v)}", node)

    def as_shape(self, v: Any, node: ast.AST) -> tuple[int, ...]:
        if not isinstance(v, (tuple, list)):
            self.fail(f"a size must be a tuple or list of ints, not {_describe(v)}", node)
        if len(v) > _MAX_RANK:
            self.fail(f"more than {_MAX_RANK} dimensions", node)
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
        rest = {k: v for k, v in kwargs.items() if k not in _IGNORED_KWARGS}
        dtype = default
        if "dtype" in rest:
            v = rest.pop("dtype")
            dtype = default if v is None else self.as_dtype(v, node)
        if rest:
            self.fail(f"unsupported keyword `{next(iter(rest))}` for `{fname}`", node)
        return dtype

    def tensor_arg(self, v: Any, fname: str, node: ast.AST) -> _Tensor:
        if not isinstance(v, _Tensor):
            self.fail(f"`{fname}` expects a tensor, not {_describe(v)}", node)
        return v

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
                self.fail(f"`{name}()` of {_describe(v)} is not known statically", node)
            try:
                r = {"int": int, "float": float, "bool": bool}[name](v)
                return self.check_int(r, node) if name == "int" else r
            except (OverflowError, ValueError):
                self.fail(f"cannot convert {v!r} with `{name}()`", node)
        if name == "len":
            if len(args) != 1:
                self.fail("`len()` takes one argument", node)
            v = args[0]
            if isinstance(v, _Tensor):
                if not v.shape:
                    self.fail("`len()` of a 0-dim tensor", node)
                return v.shape[0]
            if not isinstance(v, (tuple, list, str)):
                self.fail(f"`len()` of {_describe(v)}", node)
            return len(v)
        if name in ("tuple", "list"):
            if len(args) > 1:
                self.fail(f"`{name}()` takes at most one argument", node)
            v = args[0] if args else ()
            if isinstance(v, _Tensor):
                v = self.iterate(v, node)
            if not isinstance(v, (tuple, list, str)):
                self.fail(f"`{name}()` of {_describe(v)}", node)
            return tuple(v) if name == "tuple" else list(v)
        if name == "range":
            bounds = [self.as_int(a, "a range bound", node) for a in args]
            if not 1 <= len(bounds) <= 3 or (len(bounds) == 3 and bounds[2] == 0):
                self.fail("bad arguments to `range()`", node)
            r = range(*bounds)
            if len(r) > _MAX_SEQ:
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
            if isinstance(args[0], _Tensor):
                return args[0]
            if not isinstance(args[0], (int, float)):
                self.fail(f"`abs()` of {_describe(args[0])}", node)
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
        if name in _IGNORED_CALLS:
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
            return _Device()
        if name == "torch.get_default_dtype":
            return _DType("float32")
        if prefix == "torch" and short in _FACTORIES:
            shape, rest = self.size_args(name, args, kwargs, node)
            return _Tensor(shape, self.dtype_kw(name, rest, "float32", node))
        if prefix == "torch" and short in _LIKE | {"full_like", "randint_like"}:
            if not args:
                self.fail(f"`{name}` needs a tensor", node)
            src = self.tensor_arg(args[0], name, node)
            rest = {k: v for k, v in kwargs.items() if k == "dtype" or k in _IGNORED_KWARGS}
            extra = {k: v for k, v in kwargs.items() if k not in rest}
            if short == "full_like":
                self.bind_args(name, args[1:], extra, ("fill_value",), node, 1)
            elif short == "randint_like":
                self.bind_args(name, args[1:], extra, ("low", "high"), node, 1)
            else:
                self.bind_args(name, args[1:], extra, (), node)
            return _Tensor(src.shape, self.dtype_kw(name, rest, src.dtype, node))
        if name == "torch.full":
            bound = self.bind_args(name, args, kwargs, ("size", "fill_value", "dtype"), node, 2)
            fill = bound["fill_value"]
            if not isinstance(fill, (int, float, bool)):
                self.fail(f"`torch.full` fill value must be a number, not {_describe(fill)}", node)
            dtype = _scalar_dtype(fill)
            if bound.get("dtype") is not None:
                dtype = self.as_dtype(bound["dtype"], node)
            return _Tensor(self.as_shape(bound["size"], node), dtype)
        if name == "torch.randint":
            kw = {k: v for k, v in kwargs.items() if k != "dtype"}
            if len(args) >= 3 or "low" in kw:
                bound = self.bind_args(name, args, kw, ("low", "high", "size"), node, 3)
            else:
                bound = self.bind_args(name, args, kw, ("high", "size"), node, 2)
            for k in ("low", "high"):
                if k in bound:
                    self.as_int(bound[k], f"`{k}` of torch.randint", node)
            return _Tensor(self.as_shape(bound["size"], node),
                           self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"}, "int64", node))
        if name == "torch.randperm":
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"}, ("n",), node, 1)
            n = self.as_int(bound["n"], "`n` of torch.randperm", node)
            return _Tensor((n,), self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
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
            return _Tensor((self.check_int(n, node),),
                           self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"}, default, node))
        if name == "torch.linspace":
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"},
                                   ("start", "end", "steps"), node, 3)
            n = self.as_int(bound["steps"], "`steps` of torch.linspace", node)
            return _Tensor((n,), self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
                                               "float32", node))
        if name == "torch.eye":
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"},
                                   ("n", "m"), node, 1)
            n = self.as_int(bound["n"], "`n` of torch.eye", node)
            m = self.as_int(bound["m"], "`m` of torch.eye", node) if bound.get("m") is not None else n
            if n < 0 or m < 0:
                self.fail("negative size for torch.eye", node)
            return _Tensor((n, m), self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
                                                 "float32", node))
        if name in ("torch.tensor", "torch.as_tensor"):
            bound = self.bind_args(name, args, {k: v for k, v in kwargs.items() if k != "dtype"}, ("data",), node, 1)
            shape, dtype = self.literal_shape(bound["data"], node)
            return _Tensor(shape, self.dtype_kw(name, {k: v for k, v in kwargs.items() if k == "dtype"},
                                                dtype, node))
        if name in ("torch.cat", "torch.concat", "torch.concatenate", "torch.stack"):
            bound = self.bind_args(name, args, kwargs, ("tensors", "dim"), node, 1)
            return self.cat(short == "stack", bound["tensors"], bound.get("dim", 0), name, node)
        if name == "torch.where":
            if len(args) != 3 or kwargs:
                self.fail("only `torch.where(condition, x, y)` is supported", node)
            shapes = [x.shape for x in args if isinstance(x, _Tensor)]
            return _Tensor(self.broadcast(shapes, node), self.result_dtype(args[1:], node))
        if name in ("torch.matmul", "torch.mm", "torch.bmm"):
            bound = self.bind_args(name, args, kwargs, ("input", "other"), node, 2)
            return self.matmul(self.tensor_arg(bound["input"], name, node),
                               self.tensor_arg(bound["other"], name, node), node)
        if name == "torch.nn.functional.affine_grid":
            bound = self.bind_args(name, args, kwargs, ("theta", "size", "align_corners"), node, 2)
            theta = self.tensor_arg(bound["theta"], name, node)
            size = self.as_shape(bound["size"], node)
            if len(size) == 4:
                return _Tensor((size[0], size[2], size[3], 2), theta.dtype)
            if len(size) == 5:
                return _Tensor((size[0], size[2], size[3], size[4], 3), theta.dtype)
            self.fail("`affine_grid` size must have 4 or 5 entries", node)
        if short in _COMPARE_METHODS or short in _BINARY_METHODS or short in _ELEMENTWISE or short in (
                "unsqueeze", "squeeze", "reshape", "permute", "transpose", "flatten", "sum", "mean", "t",
                "one_hot"):
            if not args:
                self.fail(f"`{name}` needs a tensor", node)
            if short == "one_hot":
                return self.one_hot(args, kwargs, node)
            return self.call_method(self.tensor_arg(args[0], name, node), short, args[1:], kwargs, node)
        self.fail(f"call to `{name}` is not supported", node)

    def one_hot(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> _Tensor:
        bound = self.bind_args("one_hot", args, kwargs, ("tensor", "num_classes"), node, 2)
        t = self.tensor_arg(bound["tensor"], "one_hot", node)
        n = self.as_int(bound["num_classes"], "`num_classes`", node)
        if n < 0:
            self.fail("`one_hot` needs an explicit num_classes", node)
        return _Tensor(t.shape + (n,), "int64")

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
        budget = [_MAX_SEQ * 16]

        def walk(v: Any, depth: int) -> tuple[int, ...]:
            budget[0] -= 1
            if budget[0] < 0:
                self.fail("tensor literal too large", node)
            if depth > _MAX_RANK:
                self.fail("tensor literal nested too deeply", node)
            if isinstance(v, (bool, int, float)):
                kinds.add(_scalar_dtype(v))
                return ()
            if isinstance(v, _Tensor):
                if v.shape:
                    self.fail("torch.tensor of a list of tensors is not supported", node)
                kinds.add(v.dtype)
                return ()
            if not isinstance(v, (tuple, list)):
                self.fail(f"torch.tensor of {_describe(v)}", node)
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
            dtype = k if _category(k) > _category(dtype) else dtype
        if _category(dtype) == 2:
            dtype = "float32" if not any(k == "float64" for k in kinds) else "float64"
        elif _category(dtype) == 1:
            dtype = "int64"
        return shape, dtype

    def cat(self, stack: bool, tensors: Any, dim: Any, name: str, node: ast.AST) -> _Tensor:
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
            return _Tensor(tuple(shape), dtype)
        base = ts[0].shape
        total = 0
        for t in ts:
            if len(t.shape) != len(base) or any(a != b for i, (a, b) in enumerate(zip(t.shape, base)) if i != d):
                self.fail(f"`{name}` of tensors with mismatched shapes", node)
            total += t.shape[d]
        return _Tensor(base[:d] + (total,) + base[d + 1:], dtype)

    def norm_dim(self, d: int, rank: int, node: ast.AST) -> int:
        if not -max(rank, 1) <= d < max(rank, 1):
            self.fail(f"dimension {d} out of range for {rank} dimensions", node)
        return d % max(rank, 1)

    # ---- tensor methods
    def call_method(self, t: _Tensor, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if name in _CAST_METHODS:
            self.dtype_kw(name, kwargs, "float32", node)
            if args:
                self.fail(f"`.{name}()` takes no arguments here", node)
            return _Tensor(t.shape, _CAST_METHODS[name])
        if name in ("to", "type"):
            dtype = t.dtype
            for a in list(args) + ([kwargs["dtype"]] if "dtype" in kwargs else []):
                if isinstance(a, _DType):
                    dtype = a.name
                elif isinstance(a, _Tensor) and name == "to":
                    dtype = a.dtype
                elif isinstance(a, (_Device, str)) or a is None:
                    continue
                elif isinstance(a, bool):
                    continue  # non_blocking / copy given by position
                else:
                    self.fail(f"`.{name}()` of {_describe(a)} is not supported", node)
            if name == "type" and not args and "dtype" not in kwargs:
                self.fail("`.type()` without a dtype gives a string; not supported", node)
            self.dtype_kw(name, {k: v for k, v in kwargs.items() if k != "dtype"}, dtype, node)
            return _Tensor(t.shape, dtype)
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
            return max(_BITS[t.dtype] // 8, 1)
        if name == "is_floating_point":
            return _category(t.dtype) == 2
        if name in ("item", "tolist", "numpy", "max", "min", "argmax", "argmin", "nonzero", "unique"):
            self.fail(f"`.{name}()` depends on the tensor's values; not known statically", node)
        if name in _ELEMENTWISE:
            if name in ("add_", "sub_", "mul_", "div_") and args:
                self.tensor_binop(_BINARY_METHODS[name[:-1]](), t, args[0], node)  # broadcast check only
            dtype = t.dtype
            if name in _FLOAT_RESULT and _category(dtype) < 2:
                dtype = "float32"
            if "dtype" in kwargs and kwargs["dtype"] is not None:
                dtype = self.as_dtype(kwargs["dtype"], node)
            return _Tensor(t.shape, dtype)
        if name in _BINARY_METHODS:
            if not args:
                self.fail(f"`.{name}()` needs an operand", node)
            return self.tensor_binop(_BINARY_METHODS[name](), t, args[0], node)
        if name in _COMPARE_METHODS:
            shapes = [t.shape] + [a.shape for a in args if isinstance(a, _Tensor)]
            return _Tensor(self.broadcast(shapes, node), "bool")
        if name == "unsqueeze":
            bound = self.bind_args(name, args, kwargs, ("dim",), node, 1)
            d = self.norm_dim(self.as_int(bound["dim"], "`dim`", node), len(t.shape) + 1, node)
            return _Tensor(t.shape[:d] + (1,) + t.shape[d:], t.dtype)
        if name == "squeeze":
            bound = self.bind_args(name, args, kwargs, ("dim",), node)
            if bound.get("dim") is None:
                return _Tensor(tuple(x for x in t.shape if x != 1), t.dtype)
            d = self.norm_dim(self.as_int(bound["dim"], "`dim`", node), len(t.shape), node)
            if t.shape and t.shape[d] == 1:
                return _Tensor(t.shape[:d] + t.shape[d + 1:], t.dtype)
            return t
        if name == "view" and len(args) == 1 and isinstance(args[0], _DType):
            return _Tensor(t.shape, args[0].name)
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
            return _Tensor(shape, self.dtype_kw(name, rest, t.dtype, node))
        if name in ("transpose", "swapaxes"):
            bound = self.bind_args(name, args, kwargs, ("dim0", "dim1"), node, 2)
            a = self.norm_dim(self.as_int(bound["dim0"], "`dim0`", node), len(t.shape), node)
            b = self.norm_dim(self.as_int(bound["dim1"], "`dim1`", node), len(t.shape), node)
            s = list(t.shape)
            if s:
                s[a], s[b] = s[b], s[a]
            return _Tensor(tuple(s), t.dtype)
        if name == "t":
            if len(t.shape) > 2:
                self.fail("`.t()` needs at most 2 dimensions", node)
            return _Tensor(tuple(reversed(t.shape)), t.dtype)
        if name == "flatten":
            bound = self.bind_args(name, args, kwargs, ("start_dim", "end_dim"), node)
            if not t.shape:
                return _Tensor((1,), t.dtype)
            s = self.norm_dim(self.as_int(bound.get("start_dim", 0), "`start_dim`", node), len(t.shape), node)
            e = self.norm_dim(self.as_int(bound.get("end_dim", -1), "`end_dim`", node), len(t.shape), node)
            if e < s:
                self.fail("flatten's end_dim comes before start_dim", node)
            return _Tensor(t.shape[:s] + (math.prod(t.shape[s:e + 1]),) + t.shape[e + 1:], t.dtype)
        if name in ("sum", "mean", "amax", "amin", "prod", "std", "var", "norm", "logsumexp", "all", "any"):
            return self.reduce(t, name, args, kwargs, node)
        self.fail(f"tensor method `.{name}()` is not supported", node)

    def reshape_like(self, t: _Tensor, name: str, args: list[Any], kwargs: dict[str, Any],
                     node: ast.AST) -> _Tensor:
        key = {"permute": "dims", "reshape": "shape", "tile": "dims"}.get(name, "size")
        kw = {k: v for k, v in kwargs.items() if k not in _IGNORED_KWARGS}
        if key in kw:
            if args:
                self.fail(f"`.{name}()` got its sizes twice", node)
            raw: Any = kw.pop(key)
        else:
            raw = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        if kw:
            self.fail(f"unsupported keyword `{next(iter(kw))}` for `.{name}()`", node)
        if not isinstance(raw, (tuple, list)):
            self.fail(f"`.{name}()` needs ints, not {_describe(raw)}", node)
        if len(raw) > _MAX_RANK:
            self.fail(f"more than {_MAX_RANK} dimensions", node)
        dims = [self.as_int(d, "a size", node) for d in raw]
        rank = len(t.shape)
        if name == "permute":
            perm = [self.norm_dim(d, rank, node) for d in dims]
            if sorted(perm) != list(range(rank)):
                self.fail(f"`.permute{tuple(dims)}` is not a permutation of {rank} dimensions", node)
            return _Tensor(tuple(t.shape[d] for d in perm), t.dtype)
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
            return _Tensor(tuple(dims), t.dtype)
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
            return _Tensor(tuple(out), t.dtype)
        # repeat / tile
        if any(d < 0 for d in dims):
            self.fail(f"negative count in `.{name}()`", node)
        if name == "repeat" and len(dims) < rank:
            self.fail("`.repeat()` needs at least as many sizes as dimensions", node)
        n = max(len(dims), rank)
        a_shape = (1,) * (n - rank) + t.shape
        reps = (1,) * (n - len(dims)) + tuple(dims)
        return _Tensor(tuple(self.check_int(a * b, node) for a, b in zip(a_shape, reps)), t.dtype)

    def reduce(self, t: _Tensor, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> _Tensor:
        params = ("p", "dim", "keepdim") if name == "norm" else ("dim", "keepdim")
        kw = {k: v for k, v in kwargs.items() if k not in ("dtype", "unbiased", "correction")}
        bound = self.bind_args(name, args, kw, params, node)
        dims = bound.get("dim")
        keep = bool(bound.get("keepdim", False))
        dtype = t.dtype
        if name in ("mean", "std", "var", "norm", "logsumexp") and _category(dtype) < 2:
            dtype = "float32"
        elif name == "sum" and _category(dtype) < 2:
            dtype = "int64"
        elif name in ("all", "any"):
            dtype = "bool"
        if kwargs.get("dtype") is not None:
            dtype = self.as_dtype(kwargs["dtype"], node)
        if dims is None:
            return _Tensor((1,) * len(t.shape) if keep else (), dtype)
        dlist = [dims] if isinstance(dims, int) else list(dims) if isinstance(dims, (tuple, list)) else None
        if dlist is None:
            self.fail("`dim` must be an int or a tuple of ints", node)
        norm = {self.norm_dim(self.as_int(d, "`dim`", node), len(t.shape), node) for d in dlist}
        shape = tuple(1 if i in norm else s for i, s in enumerate(t.shape) if keep or i not in norm)
        return _Tensor(shape, dtype)


# -------------------------------------------------------------------------------------- conversions


def _to_spec(t: _Tensor) -> TensorSpec:
    return TensorSpec(shape=tuple(t.shape), dtype=t.dtype)


def _to_init_value(v: Any) -> object:
    if isinstance(v, _Tensor):
        return _to_spec(v)
    if isinstance(v, tuple):
        return tuple(_to_init_value(x) for x in v)
    if isinstance(v, list):
        return [_to_init_value(x) for x in v]
    if isinstance(v, _DType):
        return v.name
    return v


def _is_plain(v: Any) -> bool:
    if isinstance(v, (bool, int, float, str)) or v is None:
        return True
    if isinstance(v, (tuple, list)):
        return all(_is_plain(x) for x in v)
    return isinstance(v, (_Tensor, _DType))


# -------------------------------------------------------------------------------------- entry points


def parse_python(text: str, filename: str) -> tuple[ast.Module | None, TestCaseProblem | None]:
    """`text` parsed with `ast` (never run), or the problem that stops it, with a location."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=filename), None
    except SyntaxError as e:
        return None, TestCaseProblem(f"syntax error: {e.msg}", e.lineno or 1, max(e.offset or 1, 1), "error", filename)
    except (ValueError, RecursionError, MemoryError) as e:
        msg = "the program is nested too deeply" if isinstance(e, RecursionError) else str(e) or type(e).__name__
        return None, TestCaseProblem(f"cannot parse: {msg}", 1, 1, "error", filename)


def read_reference_text(text: str, filename: str = "<reference>") -> TestCase:
    """Read a MultiKernelBench-style reference program given as text; never executes it."""
    case = TestCase(filename=filename)
    ev = _Evaluator(filename)
    tree, problem = parse_python(text, filename)
    if tree is None:
        case.diagnostics.append(problem)  # type: ignore[arg-type]
        return case
    try:
        _read_tree(tree, ev, case)
    except RecursionError:
        ev.report("expression nested too deeply to evaluate", None)
    except (_EvalError, _Quiet) as e:  # defensive: all are caught inside
        if isinstance(e, _EvalError):
            ev.report(e.message, e.node)
    case.diagnostics = ev.diagnostics + case.diagnostics
    case.diagnostics.sort(key=lambda d: (d.line, d.col))
    return case


def _read_tree(tree: ast.Module, ev: _Evaluator, case: TestCase) -> None:
    ev.load_module(tree)
    functions = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    model = next((s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == "Model"), None)
    if model is not None:
        for item in model.body:
            if isinstance(item, ast.FunctionDef) and item.name in ("forward", "__init__"):
                a = item.args
                names = [p.arg for p in a.posonlyargs + a.args][1:] + [p.arg for p in a.kwonlyargs]
                if item.name == "forward":
                    case.forward_params = names
                else:
                    case.init_params = names
    get_inputs = functions.get("get_inputs")
    if get_inputs is None:
        if "get_input_groups" in functions:
            ev.report("no `get_inputs()`: `get_input_groups()` builds its cases at run time (reading a data "
                      "file), which is not evaluated", functions["get_input_groups"])
        else:
            ev.report("no top-level `get_inputs()` function", None)
    else:
        entries, _ = ev.run_function(get_inputs)
        for value, node in entries or []:
            if isinstance(value, _Tensor):
                spec = _to_spec(value)
                case.inputs.append(spec)
                case.call_args.append(spec)
            elif isinstance(value, (bool, int, float)):
                case.scalars.append(value)
                case.call_args.append(value)
            elif isinstance(value, (tuple, list)) and all(isinstance(x, (bool, int, float)) for x in value):
                case.scalars.append(tuple(value))
                case.call_args.append(tuple(value))
            else:
                ev.report(f"entry of `get_inputs()` is {_describe(value)}; expected a tensor, a number or a tuple of numbers", node)
        if entries is not None and case.forward_params is not None and len(entries) > len(case.forward_params):
            fwd = next(i for i in model.body if isinstance(i, ast.FunctionDef) and i.name == "forward") \
                if model else None
            if fwd is not None and fwd.args.vararg is None:
                ev.report(f"`get_inputs()` gives {len(entries)} values but `Model.forward` takes "
                          f"{len(case.forward_params)}", get_inputs, "warning")
    init = functions.get("get_init_inputs")
    if init is not None:
        entries, _ = ev.run_function(init)
        for value, node in entries or []:
            if _is_plain(value):
                case.init_args.append(_to_init_value(value))
            else:
                ev.report(f"entry of `get_init_inputs()` is {_describe(value)}; not a plain value", node)


# ---------------------------------------------------------------------------------------------- JSON


@dataclass
class _J:
    value: Any  # scalar, list[_J] or list[tuple[str, _J]] for an object
    line: int
    col: int
    kind: str  # "scalar", "list", "object"


def _j_from_value(v: Any) -> _J:
    if isinstance(v, dict):
        return _J([(k, _j_from_value(x)) for k, x in v.items()], 1, 1, "object")
    if isinstance(v, list):
        return _J([_j_from_value(x) for x in v], 1, 1, "list")
    return _J(v, 1, 1, "scalar")


_JSON_NAMES = {"true": True, "false": False, "null": None, "Infinity": math.inf, "NaN": math.nan}


def _j_from_ast(node: ast.expr) -> _J:
    line, col = _loc(node)
    if isinstance(node, ast.Dict):
        pairs = []
        for k, v in zip(node.keys, node.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                raise TypeError("not JSON")
            pairs.append((k.value, _j_from_ast(v)))
        return _J(pairs, line, col, "object")
    if isinstance(node, ast.List):
        return _J([_j_from_ast(x) for x in node.elts], line, col, "list")
    if isinstance(node, ast.Constant):
        return _J(node.value, line, col, "scalar")
    if isinstance(node, ast.Name) and node.id in _JSON_NAMES:
        return _J(_JSON_NAMES[node.id], line, col, "scalar")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _j_from_ast(node.operand)
        if inner.kind == "scalar" and isinstance(inner.value, (int, float)) and not isinstance(inner.value, bool):
            return _J(-inner.value, line, col, "scalar")
    raise TypeError("not JSON")


def _j_plain(j: _J) -> Any:
    if j.kind == "object":
        return {k: _j_plain(v) for k, v in j.value}
    if j.kind == "list":
        return tuple(_j_plain(x) for x in j.value)
    return j.value


def read_json_text(text: str, filename: str = "<json>") -> TestCase:
    """Read our JSON test case format (see the module docstring)."""
    case = TestCase(filename=filename)

    def report(msg: str, j: _J | None, severity: str = "error") -> None:
        line, col = (j.line, j.col) if j is not None else (1, 1)
        case.diagnostics.append(TestCaseProblem(msg, line, col, severity, filename))

    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        case.diagnostics.append(TestCaseProblem(f"invalid JSON: {e.msg}", e.lineno, e.colno, "error", filename))
        return case
    except (RecursionError, ValueError) as e:
        msg = "nested too deeply" if isinstance(e, RecursionError) else str(e)
        report(f"invalid JSON: {msg}", None)
        return case
    try:
        _read_json_value(text, value, case, report)
    except RecursionError:
        report("the JSON is nested too deeply", None)
    return case


def _read_json_value(text: str, value: Any, case: TestCase, report: Callable[..., None]) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # JSON text is a Python expression once true/false/null are read as names; the parentheses
            # allow leading whitespace and shift line 1 by one column
            tree = ast.parse("(" + text + "\n)", mode="eval")
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) == 1:
                node.col_offset -= 1  # type: ignore[attr-defined]
        root = _j_from_ast(tree.body)
    except (SyntaxError, ValueError, RecursionError, MemoryError, TypeError):
        root = _j_from_value(value)  # positions unknown: everything at 1:1
    if root.kind != "object":
        report("a JSON test case must be an object with an `inputs` list", root)
        return
    keys: dict[str, _J] = {}
    for k, v in root.value:
        if k in keys:
            report(f"duplicate key `{k}`", v)
        keys[k] = v
    for k, v in keys.items():
        if k not in ("inputs", "attrs", "scalars", "init_args"):
            report(f"unknown key `{k}` ignored", v, "warning")
    if "attrs" in keys and "scalars" in keys:
        report("give either `attrs` or `scalars`, not both", keys["scalars"])
    inputs = keys.get("inputs")
    if inputs is None:
        report("missing `inputs` list", root)
    elif inputs.kind != "list":
        report("`inputs` must be a list", inputs)
    else:
        for entry in inputs.value:
            spec = _json_tensor(entry, report)
            if spec is not None:
                case.inputs.append(spec)
                case.call_args.append(spec)
    scal = keys.get("attrs", keys.get("scalars"))
    if scal is not None:
        if scal.kind != "list":
            report("`attrs` must be a list", scal)
        else:
            for s in scal.value:
                if s.kind == "scalar" and isinstance(s.value, (bool, int, float)):
                    case.scalars.append(s.value)
                    case.call_args.append(s.value)
                elif s.kind == "list" and all(x.kind == "scalar" and isinstance(x.value, (bool, int, float))
                                              for x in s.value):
                    case.scalars.append(tuple(x.value for x in s.value))
                    case.call_args.append(tuple(x.value for x in s.value))
                else:
                    report("an attr must be a number, a bool or a list of them", s)
    init = keys.get("init_args")
    if init is not None:
        if init.kind != "list":
            report("`init_args` must be a list", init)
        else:
            case.init_args = [_j_plain(x) for x in init.value]


def _json_shape(j: _J, what: str, report: Callable[[str, _J | None], None]) -> tuple[int, ...] | None:
    if j.kind != "list":
        report(f"`{what}` must be a list of ints", j)
        return None
    dims: list[int] = []
    for d in j.value:
        if d.kind != "scalar" or isinstance(d.value, bool) or not isinstance(d.value, int) or d.value < 0:
            report(f"`{what}` entries must be non-negative ints", d)
            return None
        if d.value.bit_length() > 63:
            report(f"`{what}` entry too large", d)
            return None
        dims.append(d.value)
    if len(dims) > _MAX_RANK:
        report(f"`{what}` has more than {_MAX_RANK} dimensions", j)
        return None
    return tuple(dims)


def _json_tensor(j: _J, report: Callable[..., None]) -> TensorSpec | None:
    if j.kind != "object":
        report("an input must be an object with `shape` and `dtype`", j)
        return None
    fields = dict(j.value)
    for k, v in fields.items():
        if k not in ("shape", "dtype", "storage_shape", "name"):
            report(f"unknown input key `{k}` ignored", v, "warning")
    if "shape" not in fields:
        report("input without `shape`", j)
        return None
    shape = _json_shape(fields["shape"], "shape", report)
    dtype = "float32"
    if "dtype" in fields:
        d = fields["dtype"]
        if d.kind != "scalar" or not isinstance(d.value, str) or d.value.lower() not in _JSON_DTYPE_ALIASES:
            report(f"unknown dtype {d.value!r}" if d.kind == "scalar" else "`dtype` must be a string", d)
            return None
        dtype = _JSON_DTYPE_ALIASES[d.value.lower()]
    storage = None
    if "storage_shape" in fields and fields["storage_shape"].value is not None:
        storage = _json_shape(fields["storage_shape"], "storage_shape", report)
        if storage is None:
            return None
    if shape is None:
        return None
    return TensorSpec(shape=shape, dtype=dtype, storage_shape=storage)


def read_test_case(path: str | Path) -> TestCase:
    """Read a test case file: `.py` (reference program) or `.json` (our format). Never raises."""
    p = Path(path)
    name = str(path)
    suffix = p.suffix.lower()
    if suffix not in (".py", ".json"):
        return TestCase(diagnostics=[TestCaseProblem(
            f"unknown test case file type `{p.suffix}`; expected .py or .json", 1, 1, "error", name)],
            filename=name)
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        return TestCase(diagnostics=[TestCaseProblem(f"cannot read the file: {e.strerror or e}", 1, 1, "error",
                                                     name)], filename=name)
    if len(data) > MAX_FILE_BYTES:
        return TestCase(diagnostics=[TestCaseProblem(
            f"file larger than {MAX_FILE_BYTES} bytes", 1, 1, "error", name)], filename=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        return TestCase(diagnostics=[TestCaseProblem("the file is not valid UTF-8", line, col, "error", name)],
                        filename=name)
    if suffix == ".py":
        return read_reference_text(text, name)
    return read_json_text(text, name)
