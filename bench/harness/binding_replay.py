"""A MultiKernelBench answer's op binding replayed around its kernel, which runs on the simulator.

The binding (`python_bind_src`, CppExtension/csrc/op.cpp) is the C++ function Python calls; it prepares the
kernel's tensors and may finish the result with ATen::

    at::Tensor rms_norm_custom_impl_npu(const at::Tensor &x) {
        at::Tensor xRows = x.permute({0, 2, 3, 1}).contiguous().reshape({n * h * w, c});
        at::Tensor yRows = at::empty_like(xRows);
        EXEC_NPU_CMD(aclnnRmsNormCustom, xRows, gamma, yRows);
        return yRows.reshape({n, h, w, c}).permute({0, 3, 1, 2}).contiguous();
    }

so the kernel's own inputs and output are not the task's. The binding is answer code and never runs natively:
it is read by our frontend and interpreted statement by statement over `bench.harness.tensor_ops` (numpy), the
`EXEC_NPU_CMD(aclnn<ThisOp>, ...)` call replaced by a simulator run of the answer's kernel. Understood: locals
(tensors, numbers, std::vector / at::IntArrayRef / C arrays of numbers, c10::optional), if/else, range and
counted for loops, return, TORCH_CHECK (a failing one is the answer's error), the unit's own helper functions,
number arithmetic with C++'s integer division, casts, <cmath> functions, tensor methods and at:: functions of
the table, at::empty/zeros/ones/full(_like) with x.options() and .dtype(...). Anything else stops the replay
with `NotModelled("... at line N")`: a verdict of ours, never an exception at the user.

`at::empty` memory holds the correctness stage's poison pattern, so an element the kernel leaves unwritten
stays visible through the binding's views and permutes. Every tensor remembers whether its values come from
the kernel's output: a binding whose result does not (it launches the kernel and returns ATen's own answer)
does not have its kernel judged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.harness import tensor_ops as T
from bench.harness.binding_source import binding_unit, bound_function, functions, last_name
from bench.harness.tensor_ops import NotModelled, Tensor, TensorError
from frontend import ast as A

CHECK_MACROS = ("TORCH_CHECK", "AT_ASSERT", "TORCH_INTERNAL_ASSERT", "AT_ASSERTM")
NAMESPACES = ({"at"}, {"torch"}, {"at", "native"})
MATH = {"sqrt": math.sqrt, "pow": math.pow, "exp": math.exp, "log": math.log, "fabs": abs, "abs": abs,
        "max": max, "min": min, "floor": math.floor, "ceil": math.ceil, "sqrtf": math.sqrt, "powf": math.pow}
NUMBER_TYPES = {"int": int, "int64_t": int, "int32_t": int, "long": int, "size_t": int, "uint32_t": int,
                "uint64_t": int, "int8_t": int, "int16_t": int, "unsigned": int, "float": float, "double": float,
                "bool": bool}
_STEPS = 1_000_000  # statements one replay may execute: a binding loops over shapes, not elements


class BindingError(Exception):
    """The binding itself fails (a TORCH_CHECK, a tensor operation torch rejects): the answer's error."""


class ReturnValue(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


@dataclass
class _Iterator:
    """`sizes.begin()` / `.end()`: a position in a sequence (a vector built from two of them copies the range)."""

    seq: tuple[Any, ...]
    at: int


@dataclass
class Options:
    """`x.options()`: what a new tensor takes from it (its dtype; the device is the NPU's either way)."""

    dtype: str = "float32"


def _line(node: A.Node) -> str:
    span = getattr(node, "span", None)
    return f"line {span.line}" if span is not None and getattr(span, "line", None) else "an unknown line"


def _prefix(name: A.Name) -> set[str]:
    return {p.name for p in name.qname.parts[:-1]}



# a launch: (input tensors, attributes, output tensors) -> None; the callee writes the outputs' data
Launch = Callable[[list[Tensor | None], list[Any], list[Tensor]], None]


# vector types whose (n) / (n, value) constructors make n elements (std::vector; opdev's FVector, SmallVector)
VECTOR_TYPES = ("vector", "FVector", "SmallVector")


def _is_count(v: Any) -> bool:
    """A constructor argument that is an element count (an int, not a bool or an iterator)."""
    return isinstance(v, int | np.integer) and not isinstance(v, bool)


class Replay:
    """Interprets the bound function over numpy; `launch` runs the kernel."""

    def __init__(self, program: Any, launch: Launch, poison: Callable[[tuple[int, ...], str], np.ndarray],
                 unit: Any = None) -> None:
        self.unit = unit if unit is not None else binding_unit(program)  # (unit: a binding read apart)
        self.fns = functions(self.unit) if self.unit is not None else {}
        self.own = f"aclnn{program.bundle.op_name}"
        from passes.verify.kernel_only import op_description

        desc = op_description(program) or {}
        self.n_in = len(desc.get("input_desc") or [])
        self.n_out = len(desc.get("output_desc") or []) or 1
        self.launch = launch
        self.poison = poison
        self.launches = 0
        self.steps = 0
        self.envs: list[dict[str, Any]] = []  # the locals of the functions being run, innermost last

    def run(self, args: Sequence[Any]) -> Any:
        fn = bound_function(self.unit) if self.unit is not None else None
        if fn is None:
            raise NotModelled("the binding's bound function (no m.def of a function defined in op.cpp)")
        return self.call_function(fn, list(args))

    # ------------------------------------------------------------------ statements

    def call_function(self, fn: A.FunctionDecl, args: list[Any]) -> Any:
        env: dict[str, Any] = {}
        for i, p in enumerate(fn.params):
            if i < len(args):
                env[p.name or f"_{i}"] = self._typed(p.type, args[i])
            elif p.default is not None:
                env[p.name or f"_{i}"] = self._typed(p.type, self.value(p.default, env))
            else:
                raise BindingError(f"{fn.name.parts[-1].name} takes {len(fn.params)} arguments, {len(args)} given")
        self.envs.append(env)
        try:
            self.block(fn.body, env)
        except ReturnValue as r:
            return r.value
        finally:
            self.envs.pop()
        return None

    def block(self, node: A.Node, env: dict[str, Any]) -> None:
        self.steps += 1
        if self.steps > _STEPS:
            raise NotModelled(f"a binding running over {_STEPS:,} statements (at {_line(node)})")
        if isinstance(node, A.Compound):
            for st in node.body:
                self.block(st, env)
        elif isinstance(node, A.VarDecl):
            for d in node.declarators:
                env[d.name] = self._declare(d, env)
        elif isinstance(node, A.ExprStmt):
            self.value(node.expr, env)
        elif isinstance(node, A.If):
            branch = node.then if self._truth(self.value(node.cond, env), node) else node.otherwise
            if branch is not None:
                self.block(branch, env)
        elif isinstance(node, A.Return):
            raise ReturnValue(None if node.value is None else self.value(node.value, env))
        elif isinstance(node, A.RangeFor):
            for item in list(self.value(node.range, env)):
                env[node.var.name] = item
                self.block(node.body, env)
        elif isinstance(node, A.For):
            if node.init is not None:
                self.block(node.init, env) if isinstance(node.init, A.Stmt) else self.value(node.init, env)
            while node.cond is None or self._truth(self.value(node.cond, env), node):
                self.block(node.body, env)
                if node.step is not None:
                    self.value(node.step, env)
        elif isinstance(node, A.NullStmt):
            return
        else:
            raise NotModelled(f"a {type(node).__name__} statement at {_line(node)}")

    def _declare(self, d: A.Declarator, env: dict[str, Any]) -> Any:
        base = d.type.base if isinstance(d.type.base, str) else d.type.base.parts[-1].name
        if d.ctor_args:
            args = [self.value(a, env) for a in d.ctor_args]
            if len(args) == 2 and all(isinstance(a, _Iterator) for a in args) and args[0].seq == args[1].seq:
                return list(args[0].seq[args[0].at:args[1].at])  # std::vector<int64_t> v(s.begin(), s.end())
            if base == "IntArrayRef" and len(args) == 2 and isinstance(args[1], int):
                return tuple(args[0][:args[1]])  # IntArrayRef(data, n)
            if base in VECTOR_TYPES and not d.type.pointers and 1 <= len(args) <= 2 and _is_count(args[0]):
                return [args[1] if len(args) == 2 else 0] * args[0]  # std::vector<T> v(n) / v(n, value)
            value = args[0] if len(args) == 1 else args
        elif d.init is not None:
            value = self.value(d.init, env)
        else:
            return {"Tensor": None, "vector": []}.get(base, 0 if base in NUMBER_TYPES else None)
        if d.type.array_dims and isinstance(value, list | tuple):
            return list(value)
        return self._typed(d.type, value)

    @staticmethod
    def _typed(ty: A.TypeRef, value: Any) -> Any:
        """A number as the declared C++ type holds it (float rounds to float32, integers truncate)."""
        base = ty.base if isinstance(ty.base, str) else ty.base.parts[-1].name
        if ty.pointers and ty.pointers != ["&"] or isinstance(value, Tensor) or base not in NUMBER_TYPES:
            return tuple(value) if base == "IntArrayRef" and isinstance(value, list) else value
        if isinstance(value, list | tuple):
            raise BindingError(f"a {base} gets {list(value)}: the binding takes a number there")
        if not isinstance(value, int | float | bool | np.number):
            return value
        kind = NUMBER_TYPES[base]
        if kind is float:
            return float(np.float32(value)) if base == "float" else float(value)
        return bool(value) if kind is bool else int(value)

    def _truth(self, v: Any, node: A.Node) -> bool:
        if isinstance(v, Tensor):
            raise NotModelled(f"a tensor used as a condition at {_line(node)}")
        return bool(v)

    # ------------------------------------------------------------------ expressions

    def value(self, node: A.Node, env: dict[str, Any]) -> Any:
        try:
            return self._value(node, env)
        except TensorError as exc:
            raise BindingError(f"{exc} (at {_line(node)})") from None
        except NotModelled as exc:
            if " at line " in str(exc) or " at an unknown line" in str(exc):
                raise
            raise NotModelled(f"{exc} at {_line(node)}") from None

    def _value(self, node: A.Node, env: dict[str, Any]) -> Any:
        if isinstance(node, A.IntLit | A.FloatLit | A.BoolLit | A.StringLit):
            return node.value
        if isinstance(node, A.NullLit):
            return None
        if isinstance(node, A.Name):
            return self._name(node, env)
        if isinstance(node, A.InitList):
            return [self.value(i, env) for i in node.items]
        if isinstance(node, A.Unary):
            v = self.value(node.operand, env)
            if node.op == "&":
                return v
            if node.op == "!":
                return not self._truth(v, node)
            if node.op in ("-", "+"):
                if isinstance(v, Tensor):
                    return T.call("neg", v) if node.op == "-" else v
                return -v if node.op == "-" else v
            raise NotModelled(f"the unary operator {node.op}")
        if isinstance(node, A.Binary):
            return self._binary(node, env)
        if isinstance(node, A.Conditional):
            return self.value(node.then if self._truth(self.value(node.cond, env), node) else node.otherwise, env)
        if isinstance(node, A.Assign):
            return self._assign(node, env)
        if isinstance(node, A.IncDec) and isinstance(node.operand, A.Name):
            old = env[node.operand.name]
            env[node.operand.name] = old + (1 if node.op == "++" else -1)
            return env[node.operand.name] if node.prefix else old
        if isinstance(node, A.Cast):
            return self._cast(node, env)
        if isinstance(node, A.Index):
            base, index = self.value(node.base, env), self.value(node.index, env)
            if isinstance(base, list | tuple) and isinstance(index, int):
                return base[index]
            raise NotModelled("indexing a tensor")
        if isinstance(node, A.Call):
            return self._call(node, env)
        raise NotModelled(f"the expression {type(node).__name__}")

    def _name(self, node: A.Name, env: dict[str, Any]) -> Any:
        name = last_name(node)
        if len(node.qname.parts) == 1 and name in env:
            return env[name]
        if name in ("nullopt",) or name == "nullptr":
            return None
        if name in T.DTYPE_NAMES and (len(node.qname.parts) > 1 or name.startswith("k")):
            return T.DTYPE_NAMES[name]
        if name == "M_PI":
            return math.pi
        raise NotModelled(f"the name {'::'.join(p.name for p in node.qname.parts)}")

    def _binary(self, node: A.Binary, env: dict[str, Any]) -> Any:
        if node.op in ("&&", "||"):
            left = self._truth(self.value(node.lhs, env), node)
            if node.op == "&&" and not left or node.op == "||" and left:
                return left
            return self._truth(self.value(node.rhs, env), node)
        return self._apply(node.op, self.value(node.lhs, env), self.value(node.rhs, env), node)

    def _apply(self, op: str, a: Any, b: Any, node: A.Node) -> Any:
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            return T.binary(op, a, b)
        if op in ("==", "!="):
            return (a == b) == (op == "==")
        if op in ("<", "<=", ">", ">="):
            if not all(isinstance(x, int | float | bool | np.number) for x in (a, b)):
                raise NotModelled(f"the comparison {op} of {type(a).__name__} and {type(b).__name__}")
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        if not all(isinstance(x, int | float | bool | np.number) for x in (a, b)):
            raise NotModelled(f"the operator {op} on {type(a).__name__} and {type(b).__name__}")
        ints = all(isinstance(x, int | bool | np.integer) for x in (a, b))
        if op in ("/", "%") and b == 0:
            raise BindingError(f"division by zero at {_line(node)}")
        if op == "/":
            return int(a / b) if ints else a / b  # C++ truncates an integer quotient toward zero
        if op == "%" and ints:
            return int(math.fmod(a, b))
        ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "<<": lambda: a << b,
               ">>": lambda: a >> b, "&": lambda: a & b, "|": lambda: a | b}
        if op not in ops:
            raise NotModelled(f"the operator {op}")
        return ops[op]()

    def _assign(self, node: A.Assign, env: dict[str, Any]) -> Any:
        value = self.value(node.value, env)
        if node.op != "=":
            current = self.value(node.target, env)
            if isinstance(current, Tensor):
                raise NotModelled(f"the in-place tensor operator {node.op}")
            value = self._apply(node.op[:-1], current, value, node)
        if isinstance(node.target, A.Name) and len(node.target.qname.parts) == 1:
            env[node.target.name] = value
            return value
        if isinstance(node.target, A.Index):
            base, index = self.value(node.target.base, env), self.value(node.target.index, env)
            if isinstance(base, list) and isinstance(index, int):
                base[index] = value
                return value
        raise NotModelled("an assignment to anything but a local")

    def _cast(self, node: A.Cast, env: dict[str, Any]) -> Any:
        base = node.type.base if isinstance(node.type.base, str) else node.type.base.parts[-1].name
        args = ([node.expr] if node.expr is not None else []) + list(node.args)
        values = [self.value(a, env) for a in args]
        if base in NUMBER_TYPES and len(values) == 1:
            return self._typed(node.type, values[0])
        if base in ("optional", "IntArrayRef", "vector", "Scalar", "SmallVector", "array", "Tensor") \
                and len(values) <= 2:
            if base == "IntArrayRef" and len(values) == 2 and isinstance(values[1], int):
                return tuple(values[0][:values[1]])
            if not values:
                return [] if base in ("vector", "SmallVector") else None
            v = values[0]
            return tuple(v) if base == "IntArrayRef" and isinstance(v, list) else v
        if base == "TensorOptions" and not values:
            return Options()
        raise NotModelled(f"a cast or construction of {base}")

    # ------------------------------------------------------------------ calls

    def _call(self, node: A.Call, env: dict[str, Any]) -> Any:
        callee = node.callee
        if isinstance(callee, A.Member):
            return self._method(node, callee, env)
        if not isinstance(callee, A.Name):
            raise NotModelled("a call through an expression")
        name, prefix = last_name(callee), _prefix(callee)
        if name == "EXEC_NPU_CMD":
            return self._exec(node, env)
        if name in CHECK_MACROS:
            if node.args and not self._truth(self.value(node.args[0], env), node):
                said = " ".join(str(a.value) for a in node.args[1:] if isinstance(a, A.StringLit))
                raise BindingError(f"{name} fails at {_line(node)}: {said}".rstrip(": "))
            return None
        if not prefix and name in self.fns:
            return self.call_function(self.fns[name], [self.value(a, env) for a in node.args])
        args = [self.value(a, env) for a in node.args]
        if prefix <= {"std"} and name in MATH:
            return MATH[name](*args)
        if prefix <= {"std"} and name in ("make_tuple", "tie"):
            return tuple(args)
        if prefix in NAMESPACES or not prefix and name in ("empty", "zeros", "ones"):
            return self._aten(name, args)
        raise NotModelled(f"{'::'.join(p.name for p in callee.qname.parts)}")

    def _aten(self, name: str, args: list[Any]) -> Any:
        opts = next((a for a in args if isinstance(a, Options)), None)
        dtype_arg = next((a for a in args[1:] if isinstance(a, str) and a in T.DTYPE_NAMES.values()), None)
        if name in ("empty", "zeros", "ones", "full"):
            shape = tuple(int(s) for s in (args[0] if isinstance(args[0], list | tuple) else [args[0]]))
            dtype = opts.dtype if opts else dtype_arg or "float32"
            return self._new(name, shape, dtype, args[1] if name == "full" else None)
        if name in ("empty_like", "zeros_like", "ones_like", "full_like"):
            like = args[0]
            if not isinstance(like, Tensor):
                raise TensorError(f"at::{name} takes a tensor")
            dtype = opts.dtype if opts else dtype_arg or like.dtype
            return self._new(name.removesuffix("_like"), like.shape, dtype, args[1] if name == "full_like" else None)
        if name == "broadcast_tensors":
            return list(T.broadcast_tensors(args[0]))
        if name == "IntArrayRef":
            return tuple(args[0])
        if name not in T.OPS:
            raise NotModelled(f"at::{name}")
        return T.call(name, *[a for a in args if a is not None or name not in ("softmax",)])

    def _new(self, kind: str, shape: tuple[int, ...], dtype: str, fill: Any) -> Tensor:
        if kind == "empty":
            return Tensor(self.poison(shape, dtype), dtype)
        value = {"zeros": 0, "ones": 1}.get(kind, fill)
        return T.make(np.full(shape, value, dtype=np.float64 if isinstance(value, float) else None), dtype)

    def _method(self, node: A.Call, callee: A.Member, env: dict[str, Any]) -> Any:
        obj = self.value(callee.obj, env)
        args = [self.value(a, env) for a in node.args]
        m = callee.member
        if isinstance(obj, Options):
            if m == "dtype" and args and isinstance(args[0], str):
                return Options(args[0])
            if m in ("device", "layout", "requires_grad", "memory_format"):
                return obj
            raise NotModelled(f"TensorOptions::{m}")
        if isinstance(obj, list):
            if m in ("push_back", "emplace_back"):
                obj.append(args[0])
                return None
            if m == "size":
                return len(obj)
            if m == "data":
                return obj
            raise NotModelled(f"std::vector::{m}")
        if isinstance(obj, tuple | list) and m in ("begin", "end"):
            return _Iterator(tuple(obj), 0 if m == "begin" else len(obj))
        if isinstance(obj, tuple) and m in ("size", "vec"):
            return len(obj) if m == "size" else list(obj)
        if isinstance(obj, Tensor):
            if m == "options":
                return Options(obj.dtype)
            if m in ("dtype", "scalar_type"):
                return obj.dtype
            if m == "is_contiguous":
                return bool(obj.data.flags.c_contiguous)
            if m == "defined":
                return True
            if m == "device":
                return "npu"
            if m not in T.OPS:
                raise NotModelled(f"the tensor method {m}")
            return T.call(m, obj, *args)
        if obj is None and m == "defined":
            return False
        raise NotModelled(f"the method {m} of {type(obj).__name__}")

    def _exec(self, node: A.Call, env: dict[str, Any]) -> None:
        if not node.args or not isinstance(node.args[0], A.Name):
            raise NotModelled("EXEC_NPU_CMD without an aclnn name")
        name = last_name(node.args[0])
        if name != self.own:
            raise NotModelled(f"EXEC_NPU_CMD({name}): a CANN operator, not this answer's kernel")
        values = [self.value(a, env) for a in node.args[1:]]
        ins, rest = values[:self.n_in], values[self.n_in:]
        outs, attrs = rest[len(rest) - self.n_out:], rest[:len(rest) - self.n_out]
        if any(not isinstance(t, Tensor) for t in outs) or any(t is not None and not isinstance(t, Tensor)
                                                               for t in ins):
            raise NotModelled(f"EXEC_NPU_CMD({name})'s arguments as the op json orders them ({self.n_in} inputs, "
                              f"attributes, {self.n_out} outputs)")
        self.launch(ins, attrs, outs)
        self.launches += 1
        self.mark_kernel_results(outs)

    def mark_kernel_results(self, outs: Sequence[Tensor]) -> None:
        """The kernel's results: its outputs and every tensor sharing their memory (a view made before the launch,
        the buffer an output was narrowed from)."""
        for env in self.envs:
            for v in env.values():
                for t in v if isinstance(v, list) else [v]:
                    if isinstance(t, Tensor) and any(np.shares_memory(t.data, o.data) for o in outs):
                        t.kernel = True
        for t in outs:
            t.kernel = True
