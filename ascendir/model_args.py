"""The arguments a MultiKernelBench `ModelNew` wrapper hands to its custom op, for a test case's inputs.

A KernelHive / MultiKernelBench answer wraps its operator in a torch module::

    class ModelNew(torch.nn.Module):
        def __init__(self, in_features, out_features, bias_shape):
            super().__init__()
            self.gemm = torch.nn.Linear(in_features, out_features, bias=False)
            self.bias = torch.nn.Parameter(torch.randn(bias_shape))

        def forward(self, x):
            weight = self.gemm.weight.transpose(0, 1).contiguous()
            return custom_ops_lib.gemm_add_relu_custom(x, weight, self.bias)

The reference program's `get_init_inputs()` gives the constructor's arguments and `get_inputs()` the
forward's (`ascendir.testcase`); the op's inputs are then the model's input *and* its weights. This module
evaluates `ModelNew.__init__` and `ModelNew.forward` abstractly over `ast` (the source is NEVER executed or
imported), with the evaluator of `ascendir.testcase` (tensors as (shape, dtype)), up to the first call of
the custom op, and gives that call's arguments: tensors as `TensorSpec`, the rest as values.

Understood, on top of what `ascendir.testcase` evaluates:

- statements in methods and module-level functions: assignments (also to `self.attr`, `+=`), `if`/`else`,
  `for` over a list, tuple, range or tensor (with `break`/`continue`), `return`, `assert`, `with` (its body),
  `del`, `pass`, imports; a `raise` that is reached ends the evaluation with a diagnostic;
- calls of the module's own functions and classes (a user `nn.Module` class is built by running its
  `__init__`), of methods on `self`, `super().__init__()` (ignored), `register_buffer`,
  `register_parameter`, `add_module`, `list.append/extend/insert`, `isinstance`, `getattr`, `hasattr`;
- the layers of `torch.nn` (spelled `torch.nn.X` or `nn.X`) with their parameters as torch creates them:
  `Linear` and `Bilinear`, `Conv1d/2d/3d` (weight [out, in/groups, *k]), `ConvTranspose1d/2d/3d`
  (weight [in, out/groups, *k]), `BatchNorm1d/2d/3d`, `InstanceNorm1d/2d/3d`, `LayerNorm`, `GroupNorm`,
  `RMSNorm`, `Embedding`, `PReLU`, `MultiheadAttention` (`in_proj_weight`, `out_proj.weight` ...),
  `RNN/LSTM/GRU` (`weight_ih_l0` ...), parameter-free layers (activations, pooling, dropout, ...),
  `ModuleList`, `Sequential`, `ParameterList`, and `torch.nn.Parameter(t)`; their configuration
  (`conv.stride` as a tuple, `group_norm.num_groups`, `bn.eps`, ...) reads back as torch stores it.
  Calling a `Linear`, an activation, dropout or identity layer (or a `Sequential` of them) gives its
  output's shape; other layer calls are not evaluated.

The custom op is a call to a function of an imported module other than torch, torch_npu and the Python
standard library (`custom_ops_lib.gemm_add_relu_custom(...)`, `ops_lib.x(...)`, `torch.ops.myops.x(...)`).
Anything else gives None and a diagnostic (an error with the line and column), never an exception.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ascendir.host_eval import TensorSpec
from ascendir.testcase_eval import Evaluator
from ascendir.testcase_reference import parse_python
from ascendir.testcase_types import MAX_STEPS, Attr, TestCase, TestCaseProblem
from ascendir.testcase_values import (
    Builtin,
    DType,
    EvalError,
    Module,
    Poison,
    Quiet,
    Tensor,
    UserFunc,
    describe,
    loc,
    to_spec,
)

__all__ = ["CustomOpCall", "OpArg", "custom_op_arguments", "custom_op_call"]

# one argument of the custom op: a tensor, a number / bool / tuple of them, a string, or None
OpArg = TensorSpec | Attr | str | None

_MAX_DEPTH = 24  # nested calls of the module's own functions and methods
_MAX_LOOP = 1 << 14  # iterations of one `for` statement
# modules whose functions are not the custom op
_LIBRARIES = {
    "torch", "torch_npu", "math", "numpy", "np", "random", "os", "sys", "ctypes", "importlib", "functools",
    "itertools", "collections", "typing", "builtins", "operator", "copy", "warnings", "time", "re", "abc",
    "dataclasses", "enum", "inspect", "logging", "pathlib", "json", "struct", "contextlib",
}
_EXTRA_BUILTINS = {"isinstance", "getattr", "hasattr", "super", "print", "str", "dict", "enumerate", "zip", "all",
                   "any", "sorted", "reversed", "divmod"}
_PY_TYPES: dict[str, type] = {
    "int": int, "float": float, "bool": bool, "str": str, "tuple": tuple, "list": list, "dict": dict,
}
# layers without parameters: activations, pooling, dropout, shape changes
_PLAIN_LAYERS = {
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Hardtanh", "Hardswish", "Hardsigmoid",
    "Mish", "ELU", "SELU", "CELU", "Softplus", "Softsign", "Softmax", "Softmin", "LogSoftmax", "LogSigmoid",
    "Tanhshrink", "Threshold", "GLU", "Hardshrink", "Softshrink", "Dropout", "Dropout1d", "Dropout2d",
    "Dropout3d", "AlphaDropout", "Identity", "Flatten", "Unflatten", "MaxPool1d", "MaxPool2d", "MaxPool3d",
    "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "Upsample",
    "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
    "CosineSimilarity", "PairwiseDistance", "MSELoss", "L1Loss", "CrossEntropyLoss", "SmoothL1Loss",
    "HuberLoss", "KLDivLoss", "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "TripletMarginLoss",
    "HingeEmbeddingLoss", "CosineEmbeddingLoss", "MarginRankingLoss",
}
# plain layers whose forward keeps the input's shape
_SHAPE_KEEPING = {
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Hardtanh", "Hardswish", "Hardsigmoid",
    "Mish", "ELU", "SELU", "CELU", "Softplus", "Softsign", "Softmax", "Softmin", "LogSoftmax", "LogSigmoid",
    "Tanhshrink", "Threshold", "Hardshrink", "Softshrink", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
    "AlphaDropout", "Identity", "PReLU",
}
# module methods that give the module back with its parameters' shapes and dtypes unchanged
_MODULE_METHODS_RETURNING_SELF = {"cpu", "cuda", "npu", "eval", "train", "requires_grad_", "to"}


@dataclass
class CustomOpCall:
    """The custom op call `forward` reaches: the function's dotted name, its arguments, where it is."""

    name: str
    args: list[OpArg]
    line: int
    col: int


@dataclass(eq=False)
class _Object:
    """An `nn.Module` instance: a torch.nn layer (`cls` None) or an instance of a class of the file."""

    kind: str
    attrs: dict[str, Any] = field(default_factory=dict)
    cls: ast.ClassDef | None = None


@dataclass(frozen=True)
class _Bound:
    """A method of an `_Object`: one defined in the file (`fn`), or a built-in one by name."""

    obj: _Object
    name: str
    fn: ast.FunctionDef | None = None


@dataclass(frozen=True)
class _Super:
    obj: Any


@dataclass(frozen=True)
class _ListMethod:
    seq: list[Any]
    name: str


@dataclass
class _Flow:
    kind: str  # "return", "break", "continue"
    value: Any = None


class _Found(Exception):
    """The custom op was called: evaluation stops here."""

    def __init__(self, name: str, args: list[Any], node: ast.AST) -> None:
        super().__init__(name)
        self.name = name
        self.args_ = args
        self.node = node


def _is_custom_op(name: str) -> bool:
    parts = name.split(".")
    if name.startswith("torch.ops.") and len(parts) >= 4:
        return True
    return len(parts) >= 2 and parts[0] not in _LIBRARIES


def _tuple_n(v: Any, n: int, what: str, ev: Evaluator, node: ast.AST) -> tuple[int, ...]:
    """torch's `_ntuple`: an int becomes n copies, a sequence must have n ints."""
    items = list(v) if isinstance(v, (tuple, list)) else [v] * n
    if len(items) != n:
        ev.fail(f"`{what}` has {len(items)} entries; expected {n}", node)
    return tuple(ev.as_int(x, f"`{what}`", node) for x in items)


def _describe_obj(v: Any) -> str:
    if isinstance(v, _Object):
        return f"`{v.kind}` module"
    if isinstance(v, (_Bound, _ListMethod)):
        return f"method `{v.name}`"
    return describe(v)


class _ModelEvaluator(Evaluator):
    def __init__(self, filename: str) -> None:
        super().__init__(filename)
        self.functions: dict[str, ast.FunctionDef] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        self.depth = 0

    # ---- module level
    def load_model_module(self, tree: ast.Module) -> None:
        for stmt in tree.body:
            if isinstance(stmt, ast.Try):
                # `try: import custom_ops_lib as ops_lib  except ImportError: ...`: the first branch
                self.load_model_module(ast.Module(body=stmt.body, type_ignores=[]))
                continue
            if isinstance(stmt, ast.If):
                continue  # `if __name__ == "__main__":` and the like
            self.load_module(ast.Module(body=[stmt], type_ignores=[]))
            if isinstance(stmt, ast.FunctionDef):
                self.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt

    # ---- names
    def lookup(self, name: str, env: dict[str, Any], node: ast.AST) -> Any:
        if name not in env and name not in self.globals and name in _EXTRA_BUILTINS:
            return Builtin(name)
        return super().lookup(name, env, node)

    def eval_GeneratorExp(self, node: ast.GeneratorExp, env: dict[str, Any]) -> list[Any]:
        comp = ast.ListComp(elt=node.elt, generators=node.generators)
        ast.copy_location(comp, node)
        return self.eval_ListComp(comp, env)

    # ---- attributes
    def attribute(self, base: Any, attr: str, node: ast.AST) -> Any:
        if isinstance(base, _Object):
            if attr in base.attrs:
                value = base.attrs[attr]
                if isinstance(value, Poison):
                    if value.problem is not None and not value.reported:
                        value.reported = True
                        self.diagnostics.append(value.problem)
                    raise Quiet
                return value
            fn = self.find_method(base, attr)
            if fn is not None:
                return _Bound(base, attr, fn)
            if attr in ("register_buffer", "register_parameter", "add_module") or \
                    attr in _MODULE_METHODS_RETURNING_SELF:
                return _Bound(base, attr)
            self.fail(f"{_describe_obj(base)} has no attribute `{attr}` here", node)
        if isinstance(base, _Super):
            if attr == "__init__":
                return _Bound(_Object("super"), "__super_init__")
            self.fail(f"`super().{attr}` is not supported", node)
        if isinstance(base, list) and attr in ("append", "extend", "insert"):
            return _ListMethod(base, attr)
        return super().attribute(base, attr, node)

    def find_method(self, obj: _Object, name: str) -> ast.FunctionDef | None:
        seen: set[str] = set()
        cls = obj.cls
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            for item in cls.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
            # single inheritance from another class of the file
            bases = [b.id for b in cls.bases if isinstance(b, ast.Name) and b.id in self.classes]
            cls = self.classes[bases[0]] if bases else None
        return None

    # ---- calls
    def call(self, func: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if isinstance(func, Module):
            if _is_custom_op(func.name):
                if kwargs:
                    self.fail(f"keyword arguments to the custom op `{func.name}` are not supported", node)
                raise _Found(func.name, args, node)
            if func.name.startswith("torch.nn.init."):
                return None  # fills a parameter in place
            if func.name in ("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer"):
                bound = self.bind_args("Parameter", args, kwargs, ("data", "requires_grad"), node)
                data = bound.get("data")
                return Tensor((0,), "float32") if data is None else self.tensor_arg(data, "Parameter", node)
            if func.name.startswith("torch.nn.") and func.name.count(".") == 2:
                return self.make_layer(func.name.rsplit(".", 1)[1], args, kwargs, node)
            if func.name == "torch.broadcast_shapes":
                return self.broadcast([self.as_shape(a, node) for a in args], node)
            if func.name in ("torch.no_grad", "torch.enable_grad", "torch.inference_mode"):
                return None
        if isinstance(func, Builtin) and func.name in _EXTRA_BUILTINS:
            return self.call_extra_builtin(func.name, args, kwargs, node)
        if isinstance(func, UserFunc):
            if func.name in self.functions:
                return self.run(self.functions[func.name], args, kwargs, node)
            if func.name in self.classes:
                return self.instantiate(self.classes[func.name], args, kwargs, node)
        if isinstance(func, _Bound):
            return self.call_bound(func, args, kwargs, node)
        if isinstance(func, _ListMethod):
            if kwargs:
                self.fail(f"keyword arguments to `list.{func.name}` are not supported", node)
            if func.name == "append" and len(args) == 1:
                func.seq.append(args[0])
            elif func.name == "extend" and len(args) == 1 and isinstance(args[0], (tuple, list)):
                func.seq.extend(args[0])
            elif func.name == "insert" and len(args) == 2 and isinstance(args[0], int):
                func.seq.insert(args[0], args[1])
            else:
                self.fail(f"bad arguments to `list.{func.name}`", node)
            if len(func.seq) > 1 << 16:
                self.fail("list too long", node)
            return None
        if isinstance(func, _Object):
            return self.layer_forward(func, args, kwargs, node)
        if isinstance(func, list) and func and all(isinstance(m, _Object) for m in func):
            out = args[0] if len(args) == 1 and not kwargs else None
            for layer in func:  # a Sequential
                out = self.layer_forward(layer, [out], {}, node)
            return out
        return super().call(func, args, kwargs, node)

    def call_bound(self, func: _Bound, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if func.fn is not None:
            return self.run(func.fn, [func.obj, *args], kwargs, node)
        if func.name == "__super_init__":
            return None
        if func.name in ("register_buffer", "register_parameter", "add_module"):
            params = {"add_module": ("name", "module"), "register_parameter": ("name", "param"),
                      "register_buffer": ("name", "tensor", "persistent")}[func.name]
            bound = self.bind_args(func.name, args, kwargs, params, node, 2)
            name = bound["name"]
            if not isinstance(name, str):
                self.fail(f"the name given to `{func.name}` must be a string", node)
            func.obj.attrs[name] = bound[params[1]]
            return None
        if func.name in _MODULE_METHODS_RETURNING_SELF:
            if any(isinstance(a, DType) for a in [*args, *kwargs.values()]):
                self.fail(f"`.{func.name}()` changing a module's dtype is not supported", node)
            return func.obj
        self.fail(f"method `{func.name}` of {_describe_obj(func.obj)} is not supported", node)

    def call_extra_builtin(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if name == "print":
            return None
        if kwargs:
            self.fail(f"keyword arguments to `{name}` are not supported", node)
        if name == "super":
            return _Super(args[1] if len(args) == 2 else None)
        if name == "isinstance":
            if len(args) != 2:
                self.fail("`isinstance` takes two arguments", node)
            kinds = args[1] if isinstance(args[1], tuple) else (args[1],)
            return any(self.is_instance(args[0], k, node) for k in kinds)
        if name in ("getattr", "hasattr"):
            if len(args) not in ((2, 3) if name == "getattr" else (2,)) or not isinstance(args[1], str):
                self.fail(f"`{name}` needs an object and an attribute name", node)
            try:
                value = self.attribute(args[0], args[1], node)
            except EvalError:
                if name == "hasattr":
                    return False
                if len(args) == 3:
                    return args[2]
                raise
            return True if name == "hasattr" else value
        if name == "str" and len(args) == 1 and isinstance(args[0], (int, float, bool, str)):
            return str(args[0])
        if name == "enumerate" and len(args) == 1 and isinstance(args[0], (tuple, list)):
            return list(enumerate(args[0]))
        if name == "zip" and all(isinstance(a, (tuple, list)) for a in args):
            return list(zip(*args))
        if name in ("all", "any") and len(args) == 1 and isinstance(args[0], (tuple, list)):
            values = [self.truth(v, node) for v in args[0]]
            return all(values) if name == "all" else any(values)
        if name in ("sorted", "reversed") and len(args) == 1 and isinstance(args[0], (tuple, list)):
            try:
                return sorted(args[0]) if name == "sorted" else list(reversed(args[0]))
            except TypeError:
                self.fail(f"`{name}` of values that do not compare", node)
        if name == "divmod" and len(args) == 2 and all(isinstance(a, int) and a is not True for a in args):
            if args[1] == 0:
                self.fail("division by zero", node)
            return divmod(args[0], args[1])
        self.fail(f"`{name}()` of {', '.join(_describe_obj(a) for a in args) or 'nothing'} is not supported", node)

    def is_instance(self, v: Any, kind: Any, node: ast.AST) -> bool:
        if isinstance(kind, Builtin) and kind.name in _PY_TYPES:
            return isinstance(v, _PY_TYPES[kind.name])
        if isinstance(kind, Module):
            if kind.name in ("torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"):
                return isinstance(v, Tensor)
            if kind.name == "torch.nn.Module":
                return isinstance(v, _Object)
            if kind.name.startswith("torch.nn."):
                return isinstance(v, _Object) and v.cls is None and v.kind == kind.name.rsplit(".", 1)[1]
            if kind.name in ("collections.abc.Iterable", "collections.abc.Sequence", "typing.Sequence",
                             "typing.Iterable"):
                return isinstance(v, (tuple, list, str))
        if isinstance(kind, UserFunc) and kind.name in self.classes:
            return isinstance(v, _Object) and v.cls is not None and v.kind == kind.name
        self.fail(f"`isinstance` against {describe(kind)} is not supported", node)

    # ---- functions and classes of the file
    def run(self, fn: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """Run a function of the file on evaluated arguments; gives what it returns."""
        if self.depth >= _MAX_DEPTH:
            self.fail(f"calls nested more than {_MAX_DEPTH} deep", node)
        env = self.bind_params(fn, args, kwargs, node)
        self.depth += 1
        try:
            flow = self.exec_block(fn.body, env)
        finally:
            self.depth -= 1
        if flow is not None and flow.kind == "return":
            return flow.value
        return None

    def bind_params(self, fn: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], node: ast.AST
                    ) -> dict[str, Any]:
        a = fn.args
        positional = [p.arg for p in a.posonlyargs + a.args]
        defaults = dict(zip(positional[len(positional) - len(a.defaults):], a.defaults))
        defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        env: dict[str, Any] = {}
        if len(args) > len(positional) and a.vararg is None:
            self.fail(f"`{fn.name}` takes {len(positional)} positional arguments but is given {len(args)}", node)
        env.update(zip(positional, args))
        if a.vararg is not None:
            env[a.vararg.arg] = tuple(args[len(positional):])
        extra: dict[str, Any] = {}
        for k, v in kwargs.items():
            if k in env:
                self.fail(f"`{fn.name}` is given `{k}` twice", node)
            if k in positional or k in (p.arg for p in a.kwonlyargs):
                env[k] = v
            elif a.kwarg is not None:
                extra[k] = v
            else:
                self.fail(f"`{fn.name}` has no parameter `{k}`", node)
        if a.kwarg is not None:
            if extra:
                self.fail(f"`**{a.kwarg.arg}` of `{fn.name}` is not supported", node)
            env[a.kwarg.arg] = Poison(self.problem(f"`**{a.kwarg.arg}` is not evaluated", a.kwarg))
        for name in positional + [p.arg for p in a.kwonlyargs]:
            if name not in env:
                if name not in defaults:
                    self.fail(f"`{fn.name}` is missing its argument `{name}`", node)
                env[name] = self.eval(defaults[name], {})
        return env

    def instantiate(self, cls: ast.ClassDef, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> _Object:
        obj = _Object(cls.name, cls=cls)
        init = self.find_method(obj, "__init__")
        if init is not None:
            self.run(init, [obj, *args], kwargs, node)
        elif args or kwargs:
            self.fail(f"class `{cls.name}` has no `__init__` taking arguments", node)
        return obj

    # ---- statements
    def exec_block(self, body: Sequence[ast.stmt], env: dict[str, Any]) -> _Flow | None:
        for stmt in body:
            self.steps += 1
            if self.steps > MAX_STEPS:
                self.fail("evaluation too long; the model is too complex", stmt)
            flow = self.exec_stmt(stmt, env)
            if flow is not None:
                return flow
        return None

    def exec_stmt(self, stmt: ast.stmt, env: dict[str, Any]) -> _Flow | None:
        if isinstance(stmt, ast.AugAssign) and not isinstance(stmt.target, ast.Name):
            current = self.eval(stmt.target, env)
            self.bind(stmt.target, self.binop(stmt.op, current, self.eval(stmt.value, env), stmt), env, stmt)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            self.exec_assign(stmt, env)
        elif isinstance(stmt, ast.Expr):
            if not isinstance(stmt.value, ast.Constant):
                self.eval(stmt.value, env)
        elif isinstance(stmt, ast.Return):
            return _Flow("return", None if stmt.value is None else self.eval(stmt.value, env))
        elif isinstance(stmt, ast.If):
            taken = stmt.body if self.truth(self.eval(stmt.test, env), stmt.test) else stmt.orelse
            return self.exec_block(taken, env)
        elif isinstance(stmt, ast.For):
            return self.exec_for(stmt, env)
        elif isinstance(stmt, ast.Raise):
            self.fail("the model raises an exception here for these inputs", stmt)
        elif isinstance(stmt, ast.Assert):
            try:
                holds = self.truth(self.eval(stmt.test, env), stmt.test)
            except (EvalError, Quiet):
                holds = True  # an assertion we cannot decide only checks
            if not holds:
                self.fail("this assertion fails for these inputs", stmt)
        elif isinstance(stmt, ast.With):
            return self.exec_block(stmt.body, env)
        elif isinstance(stmt, ast.Break):
            return _Flow("break")
        elif isinstance(stmt, ast.Continue):
            return _Flow("continue")
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            sub = _ModelEvaluator(self.filename)
            sub.load_module(ast.Module(body=[stmt], type_ignores=[]))
            env.update(sub.globals)
        elif isinstance(stmt, (ast.Pass, ast.Delete)):
            pass
        elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            # a nested function or class (a helper inside __init__): an error only where it is used
            env[stmt.name] = Poison(self.problem(f"`{stmt.name}` is defined inside a function; only the "
                                                 "module's own top-level functions and classes are run", stmt))
        else:
            self.fail(f"`{type(stmt).__name__.lower()}` statements are not evaluated", stmt)
        return None

    def exec_for(self, stmt: ast.For, env: dict[str, Any]) -> _Flow | None:
        items = self.eval(stmt.iter, env)
        if isinstance(items, Tensor):
            items = self.iterate(items, stmt.iter)
        if not isinstance(items, (tuple, list, str)):
            self.fail(f"cannot iterate over {_describe_obj(items)}", stmt.iter)
        if len(items) > _MAX_LOOP:
            self.fail("loop too long to evaluate", stmt)
        for item in list(items):
            self.bind(stmt.target, item, env, stmt)
            flow = self.exec_block(stmt.body, env)
            if flow is not None and flow.kind == "break":
                return None
            if flow is not None and flow.kind == "return":
                return flow
        return self.exec_block(stmt.orelse, env)

    def bind(self, target: ast.expr, value: Any, env: dict[str, Any], stmt: ast.stmt) -> None:
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            try:
                base = self.eval(target.value, env)
            except (EvalError, Quiet):
                base = None
            if isinstance(base, _Object) and isinstance(target, ast.Attribute):
                base.attrs[target.attr] = value
                return
            if isinstance(base, list) and isinstance(target, ast.Subscript):
                index = self.eval(target.slice, env)
                if not isinstance(index, int) or isinstance(index, bool) or not -len(base) <= index < len(base):
                    self.fail("list assignment index is not a valid int", target)
                base[index] = value
                return
        super().bind(target, value, env, stmt)

    # ---- torch.nn layers
    def make_layer(self, kind: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if kind in ("ModuleList", "Sequential", "ParameterList"):
            if kind == "Sequential":
                items = list(args)
            else:
                bound = self.bind_args(kind, args, kwargs, ("modules" if kind == "ModuleList" else "values",), node)
                items = list(bound.get("modules", bound.get("values")) or [])
            if kind != "ParameterList" and not all(isinstance(m, _Object) for m in items):
                self.fail(f"`{kind}` of something other than modules", node)
            return items
        obj = _Object(kind)
        a = obj.attrs
        if kind in ("Linear", "LazyLinear"):
            if kind == "LazyLinear":
                self.fail("`LazyLinear` has no weight shape before its first call", node)
            b = self.bind_args(kind, args, kwargs, ("in_features", "out_features", "bias", "dtype"), node, 2)
            i, o = self.dim_arg(b["in_features"], node), self.dim_arg(b["out_features"], node)
            dt = self.param_dtype(b, node)
            a.update(in_features=i, out_features=o, weight=Tensor((o, i), dt),
                     bias=Tensor((o,), dt) if b.get("bias", True) else None)
        elif kind == "Bilinear":
            b = self.bind_args(kind, args, kwargs, ("in1_features", "in2_features", "out_features", "bias", "dtype"),
                               node, 3)
            i1, i2, o = (self.dim_arg(b[k], node) for k in ("in1_features", "in2_features", "out_features"))
            dt = self.param_dtype(b, node)
            a.update(in1_features=i1, in2_features=i2, out_features=o, weight=Tensor((o, i1, i2), dt),
                     bias=Tensor((o,), dt) if b.get("bias", True) else None)
        elif kind in ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"):
            self.conv_layer(obj, kind, args, kwargs, node)
        elif kind in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d",
                      "InstanceNorm3d", "SyncBatchNorm"):
            instance = kind.startswith("Instance")
            b = self.bind_args(kind, args, kwargs, ("num_features", "eps", "momentum", "affine",
                                                    "track_running_stats", "dtype"), node, 1)
            c = self.dim_arg(b["num_features"], node)
            dt = self.param_dtype(b, node)
            affine = bool(b.get("affine", not instance))
            track = bool(b.get("track_running_stats", not instance))
            a.update(num_features=c, eps=b.get("eps", 1e-5), momentum=b.get("momentum", 0.1), affine=affine,
                     track_running_stats=track,
                     weight=Tensor((c,), dt) if affine else None, bias=Tensor((c,), dt) if affine else None,
                     running_mean=Tensor((c,), dt) if track else None,
                     running_var=Tensor((c,), dt) if track else None,
                     num_batches_tracked=Tensor((), "int64") if track else None)
        elif kind in ("LayerNorm", "RMSNorm"):
            params = ("normalized_shape", "eps", "elementwise_affine") + (("bias",) if kind == "LayerNorm" else ())
            b = self.bind_args(kind, args, kwargs, params + ("dtype",), node, 1)
            ns = b["normalized_shape"]
            shape = (self.dim_arg(ns, node),) if isinstance(ns, int) else self.as_shape(ns, node)
            dt = self.param_dtype(b, node)
            affine = bool(b.get("elementwise_affine", True))
            a.update(normalized_shape=shape, eps=b.get("eps", 1e-5 if kind == "LayerNorm" else None),
                     elementwise_affine=affine, weight=Tensor(shape, dt) if affine else None)
            if kind == "LayerNorm":
                a["bias"] = Tensor(shape, dt) if affine and b.get("bias", True) else None
        elif kind == "GroupNorm":
            b = self.bind_args(kind, args, kwargs, ("num_groups", "num_channels", "eps", "affine", "dtype"), node, 2)
            g, c = self.dim_arg(b["num_groups"], node), self.dim_arg(b["num_channels"], node)
            if g == 0 or c % g:
                self.fail(f"GroupNorm: {c} channels do not split into {g} groups", node)
            dt = self.param_dtype(b, node)
            affine = bool(b.get("affine", True))
            a.update(num_groups=g, num_channels=c, eps=b.get("eps", 1e-5), affine=affine,
                     weight=Tensor((c,), dt) if affine else None, bias=Tensor((c,), dt) if affine else None)
        elif kind == "Embedding":
            b = self.bind_args(kind, args, kwargs, ("num_embeddings", "embedding_dim", "padding_idx", "max_norm",
                                                    "norm_type", "scale_grad_by_freq", "sparse", "dtype"), node, 2)
            n, d = self.dim_arg(b["num_embeddings"], node), self.dim_arg(b["embedding_dim"], node)
            a.update(num_embeddings=n, embedding_dim=d, padding_idx=b.get("padding_idx"),
                     weight=Tensor((n, d), self.param_dtype(b, node)))
        elif kind == "PReLU":
            b = self.bind_args(kind, args, kwargs, ("num_parameters", "init", "dtype"), node)
            n = self.dim_arg(b.get("num_parameters", 1), node)
            a.update(num_parameters=n, weight=Tensor((n,), self.param_dtype(b, node)))
        elif kind == "MultiheadAttention":
            self.attention_layer(obj, args, kwargs, node)
        elif kind in ("RNN", "LSTM", "GRU"):
            self.recurrent_layer(obj, kind, args, kwargs, node)
        elif kind in _PLAIN_LAYERS:
            a.update(kwargs)  # keyword configuration (`Hardtanh(min_val=..)`) reads back
            a["_args"] = tuple(args)
        else:
            self.fail(f"layer `torch.nn.{kind}` is not supported", node)
        return obj

    def dim_arg(self, v: Any, node: ast.AST) -> int:
        n = self.as_int(v, "a layer size", node)
        if n < 0 or n >= 1 << 40:
            self.fail(f"layer size {n} out of range", node)
        return n

    def param_dtype(self, bound: dict[str, Any], node: ast.AST) -> str:
        dt = bound.get("dtype")
        return "float32" if dt is None else self.as_dtype(dt, node)

    def conv_layer(self, obj: _Object, kind: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        n = int(kind[-2])
        transposed = kind.startswith("ConvTranspose")
        params: tuple[str, ...] = ("in_channels", "out_channels", "kernel_size", "stride", "padding")
        params += ("output_padding", "groups", "bias", "dilation") if transposed else ("dilation", "groups", "bias")
        b = self.bind_args(kind, args, kwargs, params + ("padding_mode", "dtype"), node, 3)
        cin, cout = self.dim_arg(b["in_channels"], node), self.dim_arg(b["out_channels"], node)
        groups = self.dim_arg(b.get("groups", 1), node)
        if groups == 0 or cin % groups or cout % groups:
            self.fail(f"{kind}: {cin} input and {cout} output channels do not split into {groups} groups", node)
        k = tuple(self.dim_arg(x, node) for x in _tuple_n(b["kernel_size"], n, "kernel_size", self, node))
        padding = b.get("padding", 0)
        dt = self.param_dtype(b, node)
        weight = (cin, cout // groups) + k if transposed else (cout, cin // groups) + k
        obj.attrs.update(
            in_channels=cin, out_channels=cout, kernel_size=k, groups=groups, transposed=transposed,
            stride=_tuple_n(b.get("stride", 1), n, "stride", self, node),
            padding=padding if isinstance(padding, str) else _tuple_n(padding, n, "padding", self, node),
            dilation=_tuple_n(b.get("dilation", 1), n, "dilation", self, node),
            output_padding=_tuple_n(b.get("output_padding", 0), n, "output_padding", self, node),
            padding_mode=b.get("padding_mode", "zeros"),
            weight=Tensor(weight, dt), bias=Tensor((cout,), dt) if b.get("bias", True) else None)

    def attention_layer(self, obj: _Object, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        b = self.bind_args("MultiheadAttention", args, kwargs, (
            "embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn", "kdim", "vdim",
            "batch_first", "dtype"), node, 2)
        e, h = self.dim_arg(b["embed_dim"], node), self.dim_arg(b["num_heads"], node)
        if h == 0 or e % h:
            self.fail(f"MultiheadAttention: embed_dim {e} is not divisible by num_heads {h}", node)
        kdim = e if b.get("kdim") is None else self.dim_arg(b["kdim"], node)
        vdim = e if b.get("vdim") is None else self.dim_arg(b["vdim"], node)
        dt = self.param_dtype(b, node)
        bias = bool(b.get("bias", True))
        same = kdim == e and vdim == e
        out_proj = _Object("Linear", {"in_features": e, "out_features": e, "weight": Tensor((e, e), dt),
                                      "bias": Tensor((e,), dt) if bias else None})
        obj.attrs.update(
            embed_dim=e, num_heads=h, head_dim=e // h, kdim=kdim, vdim=vdim, dropout=b.get("dropout", 0.0),
            batch_first=bool(b.get("batch_first", False)), _qkv_same_embed_dim=same,
            in_proj_weight=Tensor((3 * e, e), dt) if same else None,
            q_proj_weight=None if same else Tensor((e, e), dt),
            k_proj_weight=None if same else Tensor((e, kdim), dt),
            v_proj_weight=None if same else Tensor((e, vdim), dt),
            in_proj_bias=Tensor((3 * e,), dt) if bias else None, out_proj=out_proj,
            bias_k=Tensor((1, 1, e), dt) if b.get("add_bias_kv") else None,
            bias_v=Tensor((1, 1, e), dt) if b.get("add_bias_kv") else None)

    def recurrent_layer(self, obj: _Object, kind: str, args: list[Any], kwargs: dict[str, Any],
                        node: ast.AST) -> None:
        params = ("input_size", "hidden_size", "num_layers") + (("nonlinearity",) if kind == "RNN" else ())
        params += ("bias", "batch_first", "dropout", "bidirectional") + (("proj_size",) if kind == "LSTM" else ())
        b = self.bind_args(kind, args, kwargs, params + ("dtype",), node, 2)
        size, hidden = self.dim_arg(b["input_size"], node), self.dim_arg(b["hidden_size"], node)
        layers = self.dim_arg(b.get("num_layers", 1), node)
        if b.get("proj_size", 0):
            self.fail("LSTM with proj_size is not supported", node)
        gates = {"RNN": 1, "LSTM": 4, "GRU": 3}[kind] * hidden
        dirs = 2 if b.get("bidirectional", False) else 1
        dt = self.param_dtype(b, node)
        a = obj.attrs
        a.update(input_size=size, hidden_size=hidden, num_layers=layers, bias=bool(b.get("bias", True)),
                 batch_first=bool(b.get("batch_first", False)), dropout=b.get("dropout", 0.0),
                 bidirectional=dirs == 2, proj_size=0)
        for layer in range(layers):
            width = size if layer == 0 else hidden * dirs
            for suffix in ("", "_reverse")[:dirs]:
                a[f"weight_ih_l{layer}{suffix}"] = Tensor((gates, width), dt)
                a[f"weight_hh_l{layer}{suffix}"] = Tensor((gates, hidden), dt)
                if a["bias"]:
                    a[f"bias_ih_l{layer}{suffix}"] = Tensor((gates,), dt)
                    a[f"bias_hh_l{layer}{suffix}"] = Tensor((gates,), dt)

    def layer_forward(self, obj: _Object, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if obj.cls is not None:
            fn = self.find_method(obj, "forward")
            if fn is None:
                self.fail(f"`{obj.kind}` has no `forward`", node)
            return self.run(fn, [obj, *args], kwargs, node)
        if len(args) != 1 or kwargs or not isinstance(args[0], Tensor):
            self.fail(f"calling the `{obj.kind}` layer with these arguments is not evaluated", node)
        x = args[0]
        if obj.kind in _SHAPE_KEEPING:
            return x
        if obj.kind == "Linear":
            if not x.shape or x.shape[-1] != obj.attrs["in_features"]:
                self.fail(f"`Linear({obj.attrs['in_features']}, ...)` called on {describe(x)}", node)
            return Tensor(x.shape[:-1] + (obj.attrs["out_features"],), x.dtype)
        self.fail(f"calling the `{obj.kind}` layer is not evaluated", node)


def _op_arg(v: Any) -> OpArg:
    if isinstance(v, Tensor):
        return to_spec(v)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (tuple, list)) and all(isinstance(x, (bool, int, float)) for x in v):
        return tuple(v)
    raise TypeError(_describe_obj(v))


def _from_case(v: Any) -> Any:
    """A value of the test case as the evaluator holds it."""
    if isinstance(v, TensorSpec):
        return Tensor(tuple(v.shape), v.dtype)
    if isinstance(v, tuple):
        return tuple(_from_case(x) for x in v)
    if isinstance(v, list):
        return [_from_case(x) for x in v]
    return v


def custom_op_call(model_src: str, case: TestCase, filename: str = "model_src.py"
                   ) -> tuple[CustomOpCall | None, list[TestCaseProblem]]:
    """The custom op call `ModelNew(*case.init_args).forward(*case.call_args)` reaches, evaluated over `ast`
    (never run); None and the diagnostics when something on the way is not understood."""
    ev = _ModelEvaluator(filename)
    tree, problem = parse_python(model_src, filename)
    if tree is None:
        return None, [problem] if problem is not None else []
    found: _Found | None = None
    try:
        ev.load_model_module(tree)
        cls = ev.classes.get("ModelNew")
        if cls is None:
            ev.report("no top-level class `ModelNew`", None)
        else:
            model = ev.instantiate(cls, [_from_case(v) for v in case.init_args], {}, cls)
            forward = ev.find_method(model, "forward")
            if forward is None:
                ev.report("`ModelNew` has no `forward`", cls)
            else:
                ev.run(forward, [model, *(_from_case(v) for v in case.call_args)], {}, forward)
                ev.report("`ModelNew.forward` returns without calling the custom op", forward)
    except _Found as f:
        found = f
    except EvalError as e:
        ev.report(e.message, e.node)
    except Quiet:
        pass
    except RecursionError:
        ev.report("expression nested too deeply to evaluate", None)
    diagnostics = sorted(ev.diagnostics, key=lambda d: (d.line, d.col))
    if found is None or any(d.severity == "error" for d in diagnostics):
        return None, diagnostics
    args: list[OpArg] = []
    for i, v in enumerate(found.args_):
        try:
            args.append(_op_arg(v))
        except TypeError as e:
            line, col = loc(found.node)
            diagnostics.append(TestCaseProblem(f"argument {i + 1} of `{found.name}` is {e}; expected a tensor, "
                                               "a number, a string or a tuple of numbers", line, col, "error",
                                               filename))
            return None, diagnostics
    line, col = loc(found.node)
    return CustomOpCall(found.name, args, line, col), diagnostics


def custom_op_arguments(model_src: str, case: TestCase, filename: str = "model_src.py"
                        ) -> tuple[list[OpArg] | None, list[TestCaseProblem]]:
    """The arguments, in order, of the custom op call `ModelNew.forward` makes for the test case `case`:
    tensors as `TensorSpec`, the rest as values; None and diagnostics when it cannot be evaluated."""
    call, diagnostics = custom_op_call(model_src, case, filename)
    return (call.args if call is not None else None), diagnostics


