"""An NPUKernelBench answer's own aclnn and l0op layers replayed around its kernel, which runs on the simulator.

Most answers leave the aclnn API to the generator, which hands the binding's tensors to the kernel as they are.
Some ship the two host layers of a CANN operator (op_host/aclnn_<op>.cpp, an l0op file), and those reshape the
call before the kernel sees it. TopKV3's aclnnTopKV3GetWorkspaceSize takes top-k along any dim by moving that
axis last:

    auto selfTranspose = l0op::Transpose(selfCast, axes, executor);        // dim <-> last
    auto topkOut = l0op::Topk(selfTranspose, k, lastDim, largest, sorted, executor);   // the kernel
    valuesTopkOut = l0op::Transpose(std::get<0>(topkOut), axes, executor); // and back
    auto indicesCastInt64 = l0op::Cast(indicesCastInt32, op::DataType::DT_INT64, executor);
    l0op::ViewCopy(indicesCastInt64, indicesOut, executor);

and its l0op Topk launches the kernel with `ADD_TO_LAUNCHER_LIST_AICORE(TopKV3, OP_INPUT(self, k), ...)`.

Here the benchmark's binding (validation/pybind.cpp) is replayed as binding_replay replays a MultiKernelBench
one, and its `EXEC_NPU_CMD(aclnnCustomOp, ...)` (the benchmark's name for aclnn<Op>) runs the answer's
aclnn<Op>GetWorkspaceSize read with our frontend and interpreted over a whitelisted set of CANN helpers evaluated
with numpy: l0op::Contiguous / Transpose / Cast / Reshape / ViewCopy; the executor's AllocTensor (poisoned
memory), AllocIntArray, AllocScalar, ConvertToTensor; aclTensor's GetViewShape / GetStorageShape /
GetDataType / Get*Format / IsEmpty; op::Shape's GetDimNum / GetDim / SetDim; CHECK_RET and the OP_CHECK_*
macros (a failed check returns its value, as the macro does); logging, DFX and executor boilerplate as no-ops;
GetCurrentPlatformInfo().GetSocVersion() as the chip the kernel runs on. The launch of the op itself is the
simulator run of the answer's kernel; a launch of another op (a CANN one, TopKV2) is not modelled. The kernel's
launches run where they are queued: every launch reads tensors the earlier operations finished, as the
executor's ordered run would give them.

Nothing of the answer runs natively. Anything outside the set stops the replay with 'the aclnn replay does not
model X at line N'; the caller then launches the kernel on the op's inputs directly, as before, and keeps that
reason with the run.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.harness import tensor_ops as T
from bench.harness.binding_replay import BindingError, Replay, ReturnValue
from bench.harness.replay_run import Stopped, finish_run, kernel_launcher
from bench.harness.tensor_ops import NotModelled, Tensor, TensorError
from frontend import ast as A

# ge / acl element types as tensor_ops names them
_TYPES = {"FLOAT": "float32", "FLOAT16": "float16", "BF16": "bfloat16", "DOUBLE": "float64", "INT8": "int8",
          "INT16": "int16", "INT32": "int32", "INT64": "int64", "UINT8": "uint8", "UINT16": "uint16",
          "UINT32": "uint32", "UINT64": "uint64", "BOOL": "bool"}
# aclnnStatus values (aclnn_base.h): any failure is nonzero, which is all the replay needs of them
_STATUS = {"ACLNN_SUCCESS": 0, "ACLNN_ERR_PARAM_NULLPTR": 161001, "ACLNN_ERR_PARAM_INVALID": 161002,
           "ACLNN_ERR_RUNTIME_ERROR": 361001, "ACLNN_ERR_INNER": 561000, "ACLNN_ERR_INNER_INFERSHAPE_ERROR": 561001,
           "ACLNN_ERR_INNER_TILING_ERROR": 561002, "ACLNN_ERR_INNER_FIND_KERNEL_ERROR": 561003,
           "ACLNN_ERR_INNER_CREATE_EXECUTOR": 561101, "ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR": 561102,
           "ACLNN_ERR_INNER_NULLPTR": 561103, "ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE": 561104}
_SILENT = {"L2_DFX_PHASE_1", "L2_DFX_PHASE_2", "L0_DFX", "OP_LOGE", "OP_LOGW", "OP_LOGI", "OP_LOGD",
           "OP_TYPE_REGISTER", "OP_LOGE_WITH_INVALID_INPUT", "OP_LOGE_WITH_INVALID_INPUT_SHAPE"}


def _soc(chip: str) -> str:
    """What op::GetCurrentPlatformInfo().GetSocVersion() names for one of our chips."""
    from ascendir.chips import load_chip

    name = load_chip(chip).name
    if name.startswith("910B"):
        return "ASCEND910B"
    return {"310P": "ASCEND310P", "910": "ASCEND910", "910_93": "ASCEND910_93", "950PR": "ASCEND910_95"}.get(
        name, f"ASCEND{name}")


@dataclass
class Shape:
    """op::Shape (gert::Shape): a value, copied on assignment."""

    dims: list[int] = field(default_factory=list)


@dataclass
class Scalar:
    """aclScalar."""

    value: Any


class Executor:
    """aclOpExecutor and the UniqueExecutor CREATE_EXECUTOR() makes (`.get()` is the executor itself)."""


class Platform:
    def __init__(self, soc: str) -> None:
        self.soc = soc


class OutParam:
    """`uint64_t *workspaceSize` / `aclOpExecutor **executor`: what the entry writes through them is dropped."""


class AclnnFailed(Exception):
    """The answer's aclnn layer rejects the call (a nonzero aclnnStatus): the answer's error, as on the device."""


# ------------------------------------------------------------------ the answer's host functions


class Layer:
    """The functions and namespace-scope variables of an answer's op_host units, by namespace."""

    def __init__(self, program: Any) -> None:
        self.functions: dict[tuple[tuple[str, ...], str], list[tuple[A.FunctionDecl, int]]] = {}
        self.globals: dict[tuple[int, tuple[str, ...], str], A.Declarator] = {}
        for i, u in enumerate(program.units):
            if u.ast is not None and "op_host" in Path(u.unit.path).parts:
                self._collect(u.ast.decls, (), i)

    def _collect(self, decls: list[A.Node], ns: tuple[str, ...], unit: int) -> None:
        for d in decls:
            if isinstance(d, A.NamespaceDecl):
                self._collect(d.decls, ns + ((d.name,) if d.name else ()), unit)
            elif isinstance(d, A.LinkageSpec):
                self._collect(d.decls, ns, unit)
            elif isinstance(d, A.FunctionDecl) and d.body is not None:
                where = ns + tuple(p.name for p in d.name.parts[:-1])
                self.functions.setdefault((where, d.name.parts[-1].name), []).append((d, unit))
            elif isinstance(d, A.VarDecl):
                for v in d.declarators:
                    self.globals[(unit, ns, v.name)] = v

    def entry(self, name: str) -> tuple[A.FunctionDecl, int] | None:
        found = self.functions.get(((), name))
        return found[0] if found and len(found) == 1 else None

    def find(self, qualifier: tuple[str, ...], name: str, scope: tuple[str, ...], args: int
             ) -> tuple[A.FunctionDecl, int] | None:
        """The function a call names from code in namespace `scope` (qualified: that namespace), by arity."""
        spaces = [qualifier] if qualifier else [scope[:n] for n in range(len(scope), -1, -1)]
        for ns in spaces:
            fits = [(f, u) for f, u in self.functions.get((ns, name), [])
                    if sum(p.default is None for p in f.params) <= args <= len(f.params)]
            if len(fits) > 1:
                raise NotModelled(f"a call of {name}, which has {len(fits)} overloads of {args} arguments")
            if fits:
                return fits[0]
        return None


def has_layer(program: Any) -> bool:
    """Whether the answer defines an aclnn entry of its own (aclnn<Name>GetWorkspaceSize in op_host)."""
    return any(ns == () and name.startswith("aclnn") and name.endswith("GetWorkspaceSize")
               for ns, name in Layer(program).functions)


# ------------------------------------------------------------------ the interpreter


class _FileLines(Replay):
    """Names the file beside the line of what is not modelled (the binding, the aclnn or the l0op file)."""

    def value(self, node: A.Node, env: dict[str, Any]) -> Any:
        try:
            return super().value(node, env)
        except NotModelled as exc:
            text = str(exc)
            span = getattr(node, "span", None)
            if text.endswith(f"at line {getattr(span, 'line', '')}") and getattr(span, "file", None):
                raise NotModelled(f"{text} of {Path(span.file).name}") from None
            raise


class AclnnReplay(_FileLines):
    """Interprets the answer's aclnn and l0op functions (the statement and expression rules are binding_replay's;
    the values are aclTensors as tensor_ops Tensors, shapes, int arrays, the executor)."""

    def __init__(self, program: Any, op: str, layer: Layer, launch: Any, poison: Any, chip: str) -> None:
        from passes.verify.kernel_only import op_description

        desc = op_description(program) or {}
        self.n_in = len(desc.get("input_desc") or [])
        self.n_out = len(desc.get("output_desc") or [])
        self.op = op  # the op's type: the launch of it is the kernel's
        self.own = f"aclnn{self.op}"
        self.layer = layer
        self.launch = launch
        self.poison = poison
        self.soc = _soc(chip)
        self.launches = 0
        self.steps = 0
        self.envs: list[dict[str, Any]] = []
        self.scopes: list[tuple[int, tuple[str, ...]]] = []  # (unit, namespace) of the functions being run
        self.global_values: dict[tuple[int, tuple[str, ...], str], Any] = {}
        self.executor = Executor()

    def call(self, fn: A.FunctionDecl, unit: int, args: list[Any]) -> Any:
        ns = tuple(p.name for p in fn.name.parts[:-1])
        for (ns2, name), found in self.layer.functions.items():
            if any(f is fn for f, _ in found):
                ns = ns2
        self.scopes.append((unit, ns))
        try:
            return self.call_function(fn, args)
        finally:
            self.scopes.pop()

    # ------------------------------------------------------------------ statements and values

    def _declare(self, d: A.Declarator, env: dict[str, Any]) -> Any:
        base = d.type.base if isinstance(d.type.base, str) else d.type.base.parts[-1].name
        if base == "Shape" and not d.type.pointers and d.init is None and not d.ctor_args:
            return Shape()
        value = super()._declare(d, env)
        return Shape(list(value.dims)) if isinstance(value, Shape) and not d.type.pointers else value

    def _value(self, node: A.Node, env: dict[str, Any]) -> Any:
        if isinstance(node, A.Unary) and node.op == "*":
            return self.value(node.operand, env)  # pointers are the objects they point to
        return super()._value(node, env)

    def _truth(self, v: Any, node: A.Node) -> bool:
        return v is not None if isinstance(v, Tensor | Shape | Executor | Scalar | OutParam | tuple) else \
            super()._truth(v, node)

    def _apply(self, op: str, a: Any, b: Any, node: A.Node) -> Any:
        if op in ("==", "!=") and any(isinstance(x, Tensor | Executor | Scalar) or x is None for x in (a, b)):
            return (a is b) == (op == "==")  # pointer comparisons (`selfContiguous != nullptr`)
        return super()._apply(op, a, b, node)

    def _assign(self, node: A.Assign, env: dict[str, Any]) -> Any:
        if isinstance(node.target, A.Unary) and node.target.op == "*" and node.op == "=":
            target = self.value(node.target.operand, env)
            if isinstance(target, OutParam):
                return self.value(node.value, env)  # *workspaceSize = ...: the executor's own business
        return super()._assign(node, env)

    def _cast(self, node: A.Cast, env: dict[str, Any]) -> Any:
        base = node.type.base if isinstance(node.type.base, str) else node.type.base.parts[-1].name
        if node.kind in ("const_cast", "reinterpret_cast", "static_cast", "c") and node.type.pointers \
                and node.expr is not None:
            return self.value(node.expr, env)
        if base in ("tuple", "pair"):
            return tuple(self.value(a, env) for a in ([node.expr] if node.expr is not None else []) + list(node.args))
        return super()._cast(node, env)

    def _name(self, node: A.Name, env: dict[str, Any]) -> Any:
        name = node.qname.parts[-1].name
        if len(node.qname.parts) == 1 and name in env:
            return env[name]
        found = self._global(node)
        if found is not None:
            return found[0]
        if name.startswith(("DT_", "ACL_")) and name.split("_", 1)[1] in _TYPES:
            return _TYPES[name.split("_", 1)[1]]
        if name.startswith("FORMAT_") or name.startswith("ACL_FORMAT_"):
            return name.removeprefix("ACL_")
        if name.startswith("ASCEND") and (len(node.qname.parts) > 1 or name.isupper()):
            return name
        if name in _STATUS:
            return _STATUS[name]
        if name.startswith("ACLNN_ERR_"):
            return 561000
        return super()._name(node, env)

    def _global(self, node: A.Name) -> tuple[Any] | None:
        """A namespace-scope variable of the unit being run (evaluated once, on first use)."""
        if not self.scopes:
            return None
        unit, scope = self.scopes[-1]
        name = node.qname.parts[-1].name
        qualifier = tuple(p.name for p in node.qname.parts[:-1])
        for ns in ([qualifier] if qualifier else [scope[:n] for n in range(len(scope), -1, -1)]):
            key = (unit, ns, name)
            if key in self.global_values:
                return (self.global_values[key],)
            d = self.layer.globals.get(key)
            if d is not None:
                value = self._declare(d, {})
                self.global_values[key] = value
                return (value,)
        return None

    # ------------------------------------------------------------------ calls

    def _call(self, node: A.Call, env: dict[str, Any]) -> Any:
        callee = node.callee
        if isinstance(callee, A.Member):
            return self._method(node, callee, env)
        if not isinstance(callee, A.Name):
            raise NotModelled("a call through an expression")
        parts = callee.qname.parts
        name, qualifier = parts[-1].name, tuple(p.name for p in parts[:-1])
        if name in _SILENT:
            return None
        if name.startswith(("CHECK_RET", "OP_CHECK")):
            return self._check(name, node, env)
        if name == "ADD_TO_LAUNCHER_LIST_AICORE":
            return self._launch(node, env)
        own = self.layer.find(qualifier, name, self.scopes[-1][1] if self.scopes else (), len(node.args))
        if own is not None:
            return self.call(own[0], own[1], [self.value(a, env) for a in node.args])
        if name == "swap" and qualifier in ((), ("std",)) and len(node.args) == 2:
            return self._swap(node, env)
        args = [self.value(a, env) for a in node.args]
        if qualifier == ("l0op",):
            return self._l0op(name, args)
        if qualifier == ("std",) and name == "get" and parts[-1].template_args and len(args) == 1:
            index = self.value(parts[-1].template_args[0].value, env)  # type: ignore[arg-type]
            return args[0][index]
        if qualifier == ("std",) and name in ("make_tuple", "tie", "make_pair"):
            return tuple(args)
        if qualifier in ((), ("std",)) and name in ("min", "max") and len(args) == 2:
            return (min if name == "min" else max)(args)
        if name == "CREATE_EXECUTOR" and not args:
            return self.executor
        if name == "GetCurrentPlatformInfo" and not args:
            return Platform(self.soc)
        if name == "CheckType" and len(args) == 2:
            return args[0] in args[1]
        if name == "ToOpDataType" and len(args) == 1:
            return args[0]
        if name == "CheckReduceOutShape" and len(args) == 2:
            return _shape(args[0]) == _shape(args[1])  # the output tensor has the result's shape
        raise NotModelled("::".join(p.name for p in parts))

    def _check(self, name: str, node: A.Call, env: dict[str, Any]) -> None:
        """CHECK_RET(cond, ret) and OP_CHECK_*(..., return x): a failing check returns from the function."""
        *operands, last = node.args
        ret = last.value if isinstance(last, A.ReturnArg) else last
        if name == "CHECK_RET":
            ok = self._truth(self.value(operands[0], env), node)
        elif name == "OP_CHECK":
            ok = self._truth(self.value(operands[0], env), node)  # (its log message is not evaluated)
        else:
            v = [self.value(a, env) for a in operands]
            tests = {"OP_CHECK_NULL": lambda: v[0] is not None,
                     "OP_CHECK_DTYPE_NOT_SUPPORT": lambda: v[0].dtype in v[1],
                     "OP_CHECK_DTYPE_NOT_MATCH": lambda: v[0].dtype == v[1],
                     "OP_CHECK_DTYPE_NOT_SAME": lambda: v[0].dtype == v[1].dtype,
                     "OP_CHECK_MAX_DIM": lambda: v[0].data.ndim <= v[1],
                     "OP_CHECK_MIN_DIM": lambda: v[0].data.ndim >= v[1],
                     "OP_CHECK_WRONG_DIMENSION": lambda: v[0].data.ndim == v[1],
                     "OP_CHECK_SHAPE_NOT_EQUAL": lambda: v[0].shape == v[1].shape}
            if name not in tests:
                raise NotModelled(name)
            ok = bool(tests[name]())
        if not ok:
            raise ReturnValue(None if ret is None else self.value(ret, env))

    def _swap(self, node: A.Call, env: dict[str, Any]) -> None:
        places = []
        for a in node.args:
            if isinstance(a, A.Index):
                places.append((self.value(a.base, env), self.value(a.index, env)))
            elif isinstance(a, A.Name) and len(a.qname.parts) == 1 and a.name in env:
                places.append((env, a.name))
            else:
                raise NotModelled("std::swap of anything but locals and vector elements")
        (c1, k1), (c2, k2) = places
        c1[k1], c2[k2] = c2[k2], c1[k1]

    def _l0op(self, name: str, args: list[Any]) -> Any:
        """CANN's l0op operators the replay evaluates (each makes a new tensor, as the device op does)."""
        x = args[0] if args else None
        if not isinstance(x, Tensor):
            raise NotModelled(f"l0op::{name} of a {type(x).__name__}")
        if name == "Contiguous" and len(args) == 2:
            return T.call("contiguous", x)
        if name == "Transpose" and len(args) == 3:
            perm = tuple(args[1])
            return T.call("contiguous", T.call("permute", x, perm))
        if name == "Cast" and len(args) == 3 and isinstance(args[1], str):
            return T.cast(T.call("contiguous", x), args[1])
        if name == "Reshape" and len(args) == 3:
            dims = args[1].dims if isinstance(args[1], Shape) else list(args[1])
            return T.call("contiguous", T.call("reshape", x, tuple(dims)))
        if name == "ViewCopy" and len(args) == 3 and isinstance(args[1], Tensor):
            out = args[1]
            if x.data.size != out.data.size or x.dtype != out.dtype:
                raise AclnnFailed(f"l0op::ViewCopy of a {x.dtype} {list(x.shape)} tensor into a {out.dtype} "
                                  f"{list(out.shape)} one")
            from bench.harness.replay_run import write_back

            write_back(out, x.data)
            out.kernel = out.kernel or x.kernel
            return out
        raise NotModelled(f"l0op::{name}")

    def _launch(self, node: A.Call, env: dict[str, Any]) -> None:
        """ADD_TO_LAUNCHER_LIST_AICORE(Op, OP_INPUT(...), OP_OUTPUT(...), OP_ATTR(...)): the kernel's run."""
        op = node.args[0]
        if not isinstance(op, A.Name) or op.qname.parts[-1].name != self.op:
            raise NotModelled(f"the launch of {getattr(op, 'name', 'an op')}, a CANN operator, not this answer's kernel")
        parts: dict[str, list[Any]] = {"OP_INPUT": [], "OP_OUTPUT": [], "OP_ATTR": []}
        for a in node.args[1:]:
            if not (isinstance(a, A.Call) and isinstance(a.callee, A.Name) and a.callee.name in parts):
                what = a.callee.name if isinstance(a, A.Call) and isinstance(a.callee, A.Name) else "an argument"
                raise NotModelled(f"{what} in ADD_TO_LAUNCHER_LIST_AICORE")
            parts[a.callee.name] += [self.value(x, env) for x in a.args]
        ins, outs, attrs = parts["OP_INPUT"], parts["OP_OUTPUT"], parts["OP_ATTR"]
        if len(ins) != self.n_in or len(outs) != self.n_out or any(not isinstance(t, Tensor) for t in outs) \
                or any(t is not None and not isinstance(t, Tensor) for t in ins):
            raise NotModelled(f"a launch of {len(ins)} inputs and {len(outs)} outputs where the op declares "
                              f"{self.n_in} and {self.n_out}")
        self.launch(ins, [a.value if isinstance(a, Scalar) else a for a in attrs], outs)
        self.launches += 1
        for t in outs:
            t.kernel = True

    def _method(self, node: A.Call, callee: A.Member, env: dict[str, Any]) -> Any:
        obj = self.value(callee.obj, env)
        args = [self.value(a, env) for a in node.args]
        m = callee.member
        if isinstance(obj, Tensor):
            if m in ("GetViewShape", "GetStorageShape", "GetOriginalShape"):
                return Shape(list(obj.shape))
            if m == "GetDataType":
                return obj.dtype
            if m in ("GetViewFormat", "GetStorageFormat", "GetOriginalFormat"):
                return "FORMAT_ND"
            if m == "IsEmpty":
                return obj.data.size == 0
            if m in ("Size", "Numel", "GetSize"):
                return int(obj.data.size)
        elif isinstance(obj, Shape):
            if m == "GetDimNum":
                return len(obj.dims)
            if m == "GetDim" and len(args) == 1:
                return obj.dims[args[0]]
            if m == "SetDim" and len(args) == 2:
                obj.dims[args[0]] = int(args[1])
                return None
            if m == "AppendDim" and len(args) == 1:
                obj.dims.append(int(args[0]))
                return None
            if m == "GetShapeSize":
                return int(np.prod(obj.dims, dtype=np.int64))
        elif isinstance(obj, Executor):
            return self._executor(obj, m, args)
        elif isinstance(obj, Platform) and m == "GetSocVersion":
            return obj.soc
        elif isinstance(obj, list | tuple):
            if m in ("push_back", "emplace_back") and isinstance(obj, list):
                obj.append(args[0])
                return None
            if m in ("size", "Size"):
                return len(obj)
            if m in ("data", "GetData"):
                return obj
            if m == "empty":
                return not obj
        raise NotModelled(f"the method {m} of {type(obj).__name__}")

    def _executor(self, executor: Executor, m: str, args: list[Any]) -> Any:
        if m == "get":
            return executor
        if m == "ReleaseTo":
            return None
        if m == "GetWorkspaceSize":
            return 0
        if m in ("AllocIntArray", "AllocFloatArray", "AllocBoolArray") and len(args) == 2:
            return tuple(args[0][:args[1]])
        if m == "AllocScalar" and len(args) == 1:
            return Scalar(args[0])
        if m == "AllocTensor" and len(args) in (2, 3, 4) and isinstance(args[0], Shape):
            return Tensor(self.poison(tuple(args[0].dims), args[1]), args[1])
        if m == "ConvertToTensor" and len(args) == 2 and isinstance(args[1], str):
            v = args[0].value if isinstance(args[0], Scalar) else args[0]
            return T.make(np.asarray([v] if np.ndim(v) == 0 else list(v)), args[1])
        raise NotModelled(f"aclOpExecutor::{m}")


def _shape(t: Any) -> tuple[int, ...]:
    return tuple(t.shape) if isinstance(t, Tensor) else tuple(getattr(t, "dims", ()))


# ------------------------------------------------------------------ the benchmark's binding around it


class BindingThroughAclnn(_FileLines):
    """The benchmark's binding (validation/pybind.cpp) replayed as binding_replay does, its EXEC_NPU_CMD running
    the answer's aclnn entry (aclnnCustomOp is the benchmark's name for aclnn<Op>)."""

    def __init__(self, program: Any, unit: Any, aclnn: AclnnReplay) -> None:
        super().__init__(program, aclnn.launch, aclnn.poison, unit=unit)
        self.aclnn = aclnn

    def _exec(self, node: A.Call, env: dict[str, Any]) -> None:
        if not node.args or not isinstance(node.args[0], A.Name):
            raise NotModelled("EXEC_NPU_CMD without an aclnn name")
        name = node.args[0].qname.parts[-1].name
        name = self.aclnn.own if name == "aclnnCustomOp" else name
        entry = self.aclnn.layer.entry(f"{name}GetWorkspaceSize")
        if entry is None:
            raise NotModelled(f"EXEC_NPU_CMD({name}): the answer defines no {name}GetWorkspaceSize")
        values = [self.value(a, env) for a in node.args[1:]]
        fn, unit = entry
        if len(fn.params) != len(values) + 2:
            raise NotModelled(f"{name}GetWorkspaceSize's {len(fn.params)} parameters for {len(values)} arguments "
                              "(and the workspace size and executor)")
        status = self.aclnn.call(fn, unit, [*values, OutParam(), OutParam()])
        if status not in (0, None):
            raise AclnnFailed(f"{name}GetWorkspaceSize returns {status} (line {getattr(fn.span, 'line', '?')})")
        self.launches += self.aclnn.launches
        self.mark_kernel_results([v for v in values if isinstance(v, Tensor) and v.kernel])


@functools.lru_cache(maxsize=32)
def _binding(path: str, mtime: float) -> Any:
    """The frontend's AST of a binding file (parsed once per version of the file)."""
    from frontend.pipeline import load_text

    program = load_text(Path(path).read_text(errors="replace"), path)
    return next((u.ast for u in program.units if u.ast is not None), None)


def binding_arguments(task: Any, inputs: Any, path: Path) -> list[Any] | None:
    """The arguments ModelNew passes the binding, from the op's inputs and attributes as the suite drew them
    (NPUKernelBenchTask._op_arguments): its tensors in the binding's order, then the attributes. None where the
    draw is not ModelNew's call."""
    from bench.suites.binding import argument_order, read_binding

    if inputs.reference is None:  # the forward inputs as drawn: ModelNew was not run here
        return None
    names = list(inputs.values)
    binding = read_binding(path.read_text(errors="replace"))
    order = argument_order(binding, len(names), names) if binding is not None else None
    values = [T.make(v, inputs.dtypes.get(k, str(v.dtype))) if isinstance(v, np.ndarray) else
              (list(v) if isinstance(v, tuple) else v) for k, v in inputs.values.items()]
    if order is not None:
        placed: list[Any] = [None] * len(values)
        for j, k in enumerate(order):
            placed[k] = values[j]
        values = placed
    return values + [list(a) if isinstance(a, tuple) else a for a in inputs.attrs]


def simulate_aclnn(task: Any, program: Any, chip: str, inputs: Any, expected: dict[str, Any], seed: int,
                   budget: int | None) -> tuple[Any | None, str]:
    """(the correctness stage's Run of one draw through the benchmark's binding and the answer's aclnn layer, '')
    where the answer ships such a layer and the replay models it; (None, why not) where it ships one the replay
    does not model (the caller launches the kernel directly and keeps the reason); (None, '') where it ships
    none."""
    from bench.harness.stages.correctness import Run
    from bench.harness.verdict import Finding
    from passes.verify.kernel_only import op_description

    path = Path(getattr(task, "path", "") or "") / "validation" / "pybind.cpp"
    if not getattr(task, "path", None) or not path.is_file() or not has_layer(program):
        return None, ""
    unit = _binding(str(path), path.stat().st_mtime)
    args = binding_arguments(task, inputs, path)
    if unit is None or args is None:
        return None, "the aclnn replay does not model this binding's arguments (ModelNew's call is not known here)"
    run = Run({}, [], True)
    cycles: list[float | None] = []
    launch, poison = kernel_launcher(program, chip, budget, seed, run, cycles)
    op = str((op_description(program) or {}).get("op") or getattr(task, "op_type", "") or "")
    aclnn = AclnnReplay(program, op, Layer(program), launch, poison, chip)
    replay = BindingThroughAclnn(program, unit, aclnn)
    try:
        result = replay.run(args)
    except Stopped:
        return run, ""
    except AclnnFailed as exc:
        run.findings.append(Finding("aclnn", "error", f"the answer's aclnn layer fails: {exc}"))
        run.completed = False
        return run, ""
    except NotModelled as exc:
        return None, f"the aclnn replay does not model {exc}"
    except (BindingError, TensorError) as exc:
        return None, f"the aclnn replay does not model this call ({exc})"
    except RecursionError:
        return None, "the aclnn replay does not model a call this deeply recursive"
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
        return None, f"the aclnn replay does not model this call ({type(exc).__name__}: {exc})"
    why = finish_run(run, replay, result, expected, seed, cycles)
    if why:
        return None, why.replace("the binding replay", "the aclnn replay")
    return run, ""
