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

The parts live in modules of their own; this one keeps the entry points (custom_op_call,
custom_op_arguments), the evaluator's names, attributes and calls, and re-exports every public name it had:

- model_values.py: the values the evaluator adds to ascendir.testcase's (module objects, bound methods,
  control flow, the found custom op call);
- model_statements.py: the statements of the model's methods and functions, and a call's frame;
- model_layers.py: the torch.nn layers, their parameters as torch creates them, and the calls of a layer.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ascendir.host_eval import TensorSpec
from ascendir.model_layers import LayerBuilder
from ascendir.model_statements import StatementRunner
from ascendir.model_values import BoundMethod, CustomOpFound, ListMethod, ModuleObject, SuperCall, describe_obj
from ascendir.testcase_eval import Evaluator
from ascendir.testcase_reference import parse_python
from ascendir.testcase_types import Attr, TestCase, TestCaseProblem
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
# module methods that give the module back with its parameters' shapes and dtypes unchanged
_MODULE_METHODS_RETURNING_SELF = {"cpu", "cuda", "npu", "eval", "train", "requires_grad_", "to"}


@dataclass
class CustomOpCall:
    """The custom op call `forward` reaches: the function's dotted name, its arguments, where it is."""

    name: str
    args: list[OpArg]
    line: int
    col: int


def _is_custom_op(name: str) -> bool:
    parts = name.split(".")
    if name.startswith("torch.ops.") and len(parts) >= 4:
        return True
    return len(parts) >= 2 and parts[0] not in _LIBRARIES


class _ModelEvaluator(StatementRunner, LayerBuilder, Evaluator):
    """ascendir.testcase's evaluator, plus the module's own functions and classes, torch.nn layers and
    the custom op call (where it stops): names, attributes and calls here, statements and layers in
    the mixins."""

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
        if isinstance(base, ModuleObject):
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
                return BoundMethod(base, attr, fn)
            if attr in ("register_buffer", "register_parameter", "add_module") or \
                    attr in _MODULE_METHODS_RETURNING_SELF:
                return BoundMethod(base, attr)
            self.fail(f"{describe_obj(base)} has no attribute `{attr}` here", node)
        if isinstance(base, SuperCall):
            if attr == "__init__":
                return BoundMethod(ModuleObject("super"), "__super_init__")
            self.fail(f"`super().{attr}` is not supported", node)
        if isinstance(base, list) and attr in ("append", "extend", "insert"):
            return ListMethod(base, attr)
        return super().attribute(base, attr, node)

    def find_method(self, obj: ModuleObject, name: str) -> ast.FunctionDef | None:
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
                raise CustomOpFound(func.name, args, node)
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
        if isinstance(func, BoundMethod):
            return self.call_bound(func, args, kwargs, node)
        if isinstance(func, ListMethod):
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
        if isinstance(func, ModuleObject):
            return self.layer_forward(func, args, kwargs, node)
        if isinstance(func, list) and func and all(isinstance(m, ModuleObject) for m in func):
            out = args[0] if len(args) == 1 and not kwargs else None
            for layer in func:  # a Sequential
                out = self.layer_forward(layer, [out], {}, node)
            return out
        return super().call(func, args, kwargs, node)

    def call_bound(self, func: BoundMethod, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
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
        self.fail(f"method `{func.name}` of {describe_obj(func.obj)} is not supported", node)

    def call_extra_builtin(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if name == "print":
            return None
        if kwargs:
            self.fail(f"keyword arguments to `{name}` are not supported", node)
        if name == "super":
            return SuperCall(args[1] if len(args) == 2 else None)
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
        self.fail(f"`{name}()` of {', '.join(describe_obj(a) for a in args) or 'nothing'} is not supported", node)

    def is_instance(self, v: Any, kind: Any, node: ast.AST) -> bool:
        if isinstance(kind, Builtin) and kind.name in _PY_TYPES:
            return isinstance(v, _PY_TYPES[kind.name])
        if isinstance(kind, Module):
            if kind.name in ("torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"):
                return isinstance(v, Tensor)
            if kind.name == "torch.nn.Module":
                return isinstance(v, ModuleObject)
            if kind.name.startswith("torch.nn."):
                return isinstance(v, ModuleObject) and v.cls is None and v.kind == kind.name.rsplit(".", 1)[1]
            if kind.name in ("collections.abc.Iterable", "collections.abc.Sequence", "typing.Sequence",
                             "typing.Iterable"):
                return isinstance(v, (tuple, list, str))
        if isinstance(kind, UserFunc) and kind.name in self.classes:
            return isinstance(v, ModuleObject) and v.cls is not None and v.kind == kind.name
        self.fail(f"`isinstance` against {describe(kind)} is not supported", node)


def _op_arg(v: Any) -> OpArg:
    if isinstance(v, Tensor):
        return to_spec(v)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (tuple, list)) and all(isinstance(x, (bool, int, float)) for x in v):
        return tuple(v)
    raise TypeError(describe_obj(v))


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
    found: CustomOpFound | None = None
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
    except CustomOpFound as f:
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
