"""What a Python binding (CppExtension/csrc/op.cpp) hands to its op, for the arguments Python called it with.

A KernelHive / MultiKernelBench answer binds its operator to Python with a C++ function that often reshapes
or broadcasts a tensor before the op call::

    at::Tensor impl(const at::Tensor& diag, const at::Tensor& matrix)
    {
        at::Tensor d = diag.reshape({diag.size(0), 1}).expand({diag.size(0), matrix.size(1)}).contiguous();
        at::Tensor result = at::empty_like(matrix);
        EXEC_NPU_CMD(aclnnMatmulWithDiagonalMatricesCustom, d, matrix, result);
        return result;
    }

so the op's first input is N x M, not the N the Python caller passed. `exec_arguments` evaluates each
`EXEC_NPU_CMD` argument after the aclnn name from the bound function's parameters, over the C++ AST (nothing
is compiled or run), with the torch shape semantics of `ascendir.testcase` (the same `reshape`, `expand`,
broadcasting and checks the Python side uses):

- a parameter, a local with one plain initialiser (`binding_initialisers`), a number literal, a braced
  list of them, a number cast (`static_cast<int64_t>(n)`), `+ - * /` and `%` on integers;
- tensor methods with a torch twin (`contiguous`, `clone`, `reshape`, `view`, `expand`, `unsqueeze`,
  `squeeze`, `transpose`, `permute`, `t`, `flatten`, `repeat`, `size`, `dim`, `numel`, `sizes`);
- `at::empty_like`, `at::zeros_like`, `at::ones_like`, `at::broadcast_tensors({...})` and indexing its
  result, `x.sizes()[i]`.

Anything else is UNKNOWN: the caller then knows that argument is computed in a way not followed here.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from ascendir.host_eval import TensorSpec
from ascendir.lower import ctypes as C
from ascendir.testcase_eval import Evaluator
from ascendir.testcase_values import EvalError, Tensor, to_spec
from frontend import ast as A


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()  # an argument the binding computes in a way exec_arguments does not follow

# tensor methods whose torch semantics `ascendir.testcase` already gives; `sizes()` is ATen's `size()`
_METHODS = {"contiguous", "clone", "detach", "reshape", "view", "expand", "unsqueeze", "squeeze", "transpose",
            "permute", "t", "flatten", "repeat", "size", "dim", "numel", "sizes"}
_LIKE = {"empty_like", "zeros_like", "ones_like"}
_ARITH = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.FloorDiv, "%": ast.Mod}
_MAX_DEPTH = 16


def op_binding_call(program: object) -> tuple[A.FunctionDecl, A.Call] | None:
    """The Python binding function (CppExtension/csrc/op.cpp) that calls the program's own op, and its
    `EXEC_NPU_CMD(aclnn<Op>, ...)` call; None when no binding calls it."""
    want = f"aclnn{program.bundle.op_name}"  # type: ignore[attr-defined]
    for unit in program.units:  # type: ignore[attr-defined]
        if unit.unit.role != "python_bind":
            continue
        for fn in (n for n in unit.ast.walk() if isinstance(n, A.FunctionDecl) and n.body is not None):
            call = next((c for c in fn.body.walk() if isinstance(c, A.Call) and c.callee_name == "EXEC_NPU_CMD"
                         and c.args and isinstance(c.args[0], A.Name) and c.args[0].name == want), None)
            if call is not None:
                return fn, call
    return None


def binding_initialisers(fn: A.FunctionDecl) -> dict[str, A.Node | None]:
    """Each local of a binding function -> its one plain initialiser; None for a name declared twice, declared
    without one, or assigned again later (its value is then not followed)."""
    inits: dict[str, A.Node | None] = {}
    for node in fn.body.walk() if fn.body is not None else []:
        if isinstance(node, A.VarDecl):
            for d in node.declarators:
                single = d.init if not d.ctor_args else (d.ctor_args[0] if len(d.ctor_args) == 1 else None)
                inits[d.name] = None if d.name in inits else single
        elif isinstance(node, A.Assign) and isinstance(node.target, A.Name):
            inits[node.target.name] = None
    return inits


def exec_arguments(fn: A.FunctionDecl, call: A.Call, python_args: Sequence[Any]) -> list[Any]:
    """The values of `call`'s arguments after the first (the aclnn name), when the binding function `fn` is
    called with `python_args` (TensorSpec for tensors, numbers, tuples): TensorSpec, number, tuple of
    numbers, or UNKNOWN for each."""
    params = {p.name: python_args[i] for i, p in enumerate(fn.params) if p.name and i < len(python_args)}
    walker = _BindingEvaluator(params, binding_initialisers(fn))
    return [_as_result(walker.value(a, 0)) for a in call.args[1:]]


def _as_result(v: Any) -> Any:
    if isinstance(v, Tensor):
        return to_spec(v)
    if isinstance(v, (bool, int, float, TensorSpec)) or v is None:
        return v
    if isinstance(v, tuple) and all(isinstance(x, (int, float)) for x in v):
        return v
    return UNKNOWN


class _BindingEvaluator:
    def __init__(self, params: dict[str, Any], inits: dict[str, A.Node | None]) -> None:
        self.params = {k: Tensor(tuple(v.shape), v.dtype) if isinstance(v, TensorSpec) else v
                       for k, v in params.items()}
        self.inits = inits
        self.torch = Evaluator("<binding>")  # torch's shape rules; its failures become UNKNOWN

    def value(self, node: A.Node | None, depth: int) -> Any:
        if node is None or depth > _MAX_DEPTH:
            return UNKNOWN
        try:
            return self._value(node, depth + 1)
        except EvalError:
            return UNKNOWN  # torch would reject it (a bad reshape): not a shape to check the op with

    def _value(self, node: A.Node, depth: int) -> Any:
        if isinstance(node, (A.IntLit, A.FloatLit, A.BoolLit)):
            return node.value
        if isinstance(node, A.Name) and len(node.qname.parts) == 1:
            if node.name in self.inits:
                return self.value(self.inits[node.name], depth)
            return self.params.get(node.name, UNKNOWN)
        if isinstance(node, A.InitList):
            items = [self.value(i, depth) for i in node.items]
            return UNKNOWN if any(i is UNKNOWN for i in items) else tuple(items)
        if isinstance(node, A.Cast) and node.kind in ("static_cast", "c", "functional") and not node.type.pointers:
            return self._number_cast(node, depth)
        if isinstance(node, A.Unary) and node.op == "-":
            inner = self.value(node.operand, depth)
            return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else UNKNOWN
        if isinstance(node, A.Binary) and node.op in _ARITH:
            return self._arith(node, depth)
        if isinstance(node, A.Index):
            return self._index(self.value(node.base, depth), self.value(node.index, depth))
        if isinstance(node, A.Call):
            return self._call(node, depth)
        return UNKNOWN

    def _arith(self, node: A.Binary, depth: int) -> Any:
        a, b = self.value(node.lhs, depth), self.value(node.rhs, depth)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)):
            return UNKNOWN
        if node.op in ("/", "%") and b == 0:
            return UNKNOWN
        if node.op in ("/", "%") and (a < 0) != (b < 0):
            return UNKNOWN  # C++ truncates where Python floors; not worth telling apart here
        return self.torch.number_binop(_ARITH[node.op](), a, b, None)  # type: ignore[arg-type]

    def _number_cast(self, node: A.Cast, depth: int) -> Any:
        inner = self.value(node.expr, depth)
        base = node.type.base
        target = C.scalar_named(base if isinstance(base, str) else base.parts[-1].name)
        if not isinstance(inner, (bool, int, float)) or node.args or target is None:
            return UNKNOWN
        if target.is_float:
            return float(inner)
        if target.kind == "bool":
            return bool(inner)
        return int(inner)  # C++ truncates toward zero, as int() does; range wrap-around is not modelled

    @staticmethod
    def _index(base: Any, index: Any) -> Any:
        if isinstance(base, tuple) and isinstance(index, int) and not isinstance(index, bool) \
                and 0 <= index < len(base):
            return base[index]
        return UNKNOWN

    def _call(self, node: A.Call, depth: int) -> Any:
        callee = node.callee
        if isinstance(callee, A.Member) and not callee.arrow:
            if callee.member not in _METHODS:
                return UNKNOWN
            obj = self.value(callee.obj, depth)
            args = [self.value(a, depth) for a in node.args]
            if not isinstance(obj, Tensor) or any(a is UNKNOWN for a in args):
                return UNKNOWN
            name = "size" if callee.member == "sizes" else callee.member
            return self.torch.call_method(obj, name, args, {}, None)  # type: ignore[arg-type]
        if not isinstance(callee, A.Name) or [p.name for p in callee.qname.parts[:-1]] not in (["at"], ["torch"]):
            return UNKNOWN
        if callee.name in _LIKE and len(node.args) == 1:
            t = self.value(node.args[0], depth)
            return Tensor(t.shape, t.dtype) if isinstance(t, Tensor) else UNKNOWN
        if callee.name == "broadcast_tensors" and len(node.args) == 1:
            ts = self.value(node.args[0], depth)
            if not isinstance(ts, tuple) or not ts or not all(isinstance(t, Tensor) for t in ts):
                return UNKNOWN
            shape = self.torch.broadcast([t.shape for t in ts], None)  # type: ignore[arg-type]
            return tuple(Tensor(shape, t.dtype) for t in ts)
        return UNKNOWN
