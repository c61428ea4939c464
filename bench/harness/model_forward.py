"""ModelNew's forward read with `ast` (never run): what a MultiKernelBench answer's module hands its op.

ModelNew hands the op its module's weights and settings: op(x, self.conv.weight, self.conv.bias, self.eps).
`forward_plan` reads the forward into expressions over its arguments and its module; `weighted_inputs`
evaluates them for one input draw, the module's tensors coming from the reference Model built as the benchmark
builds both (seeded with 1024, get_init_inputs) by the same attribute path, else from a plain `self.k = k` of
ModelNew.__init__ bound to get_init_inputs. Only attribute reads and the tensor methods of
`bench.harness.tensor_ops` (the table the op-binding reader uses too) are applied, to the reference's tensors.
bench/harness/model_task.py makes the task whose inputs are those (WeightedTask) for the correctness stage.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bench.harness import tensor_ops as T

TENSOR_METHODS = set(T.OPS)  # the methods forward may apply to what it hands the op: the shared table's
DEVICE_MOVES = {"cpu", "npu", "cuda"}  # where the tensor lives: nothing the op sees
RAW_TENSOR_MAKERS = {"torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.randn_like"}
TORCH_DTYPES = {"float32", "float16", "bfloat16", "int32", "int64", "int8", "uint8", "bool", "float", "half", "long",
                "int"}


def forward_plan(model_src: str) -> list[tuple[Any, ...]] | None:
    """What ModelNew.forward passes the op, argument by argument, as expressions over its own arguments and its
    module: ("param", i), ("const", v), ("self", steps, init) with steps ("attr", name) / ("item", i) and init the
    ModelNew.__init__ source of a plain `self.name = name` / `= constant`, ("method", expr, name, args); locals
    assigned before the return are substituted. None when the forward does anything else (guards that only raise
    are allowed)."""
    import ast

    try:
        tree = ast.parse(model_src)
    except (SyntaxError, ValueError, RecursionError):
        return None
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    if cls is None:
        return None
    fn = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if fn is None:
        return None
    params = [a.arg for a in fn.args.args[1:]]
    init_of: dict[str, tuple[Any, ...]] = {}
    where: dict[str, tuple[int, int]] = {}
    if init is not None:
        names = [a.arg for a in init.args.args[1:]]

        def source(v: ast.expr) -> tuple[Any, ...] | None:
            """A plain init value: a parameter, a constant, a torch module's class, a 1-element tensor of one."""
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in ("int", "float") \
                    and len(v.args) == 1:
                v = v.args[0]
            if isinstance(v, ast.Name) and v.id in names:
                return ("param", v.id)
            if isinstance(v, ast.Constant):
                return ("const", v.value)
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute):
                dotted = ast.unparse(v.func)
                if dotted in ("torch.nn.Parameter", "nn.Parameter") and v.args:
                    return source(v.args[0])
                if dotted in RAW_TENSOR_MAKERS:
                    # a tensor ModelNew draws itself: matched to the reference's by shape (raw_tensors)
                    dtype = next((k.value.attr for k in v.keywords if k.arg == "dtype"
                                  and isinstance(k.value, ast.Attribute)), None)
                    return ("raw", tuple(ast.unparse(a) for a in v.args), dtype)
                if dotted == "torch.tensor" and v.args and isinstance(v.args[0], ast.List | ast.Tuple) \
                        and len(v.args[0].elts) == 1:
                    inner = source(v.args[0].elts[0])
                    dtype = next((k.value.attr for k in v.keywords if k.arg == "dtype"
                                  and isinstance(k.value, ast.Attribute)), "float32")
                    return ("tensor", inner, dtype) if inner and inner[0] in ("param", "const") else None
                if dotted.startswith(("torch.nn.", "nn.")) and dotted.count(".") == dotted.startswith("torch.") + 1:
                    return ("module", v.func.attr)
            return None

        for st in ast.walk(init):
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Attribute) \
                    and isinstance(st.targets[0].value, ast.Name) and st.targets[0].value.id == "self":
                found = source(st.value)
                if found is not None:
                    init_of[st.targets[0].attr] = found
                    where[st.targets[0].attr] = (st.lineno, st.col_offset)
            elif isinstance(st, ast.Call) and isinstance(st.func, ast.Attribute) \
                    and st.func.attr == "register_buffer" and len(st.args) >= 2 \
                    and isinstance(st.args[0], ast.Constant) and isinstance(st.args[0].value, str):
                found = source(st.args[1])
                if found is not None:
                    init_of[st.args[0].value] = found
                    where[st.args[0].value] = (st.lineno, st.col_offset)
    # the order ModelNew makes its modules and its own tensors in: the k-th Linear of ModelNew is the reference's
    # k-th, and its tensors are matched in order (raw_tensors)
    order = tuple((name, *init_of[name]) for name in sorted(init_of, key=lambda n: where.get(n, (0, 0)))
                  if init_of[name][0] in ("module", "raw"))
    for name, *_ in order:
        init_of[name] = (*init_of[name], order)
    local: dict[str, tuple[Any, ...]] = {}

    def arg_value(node: ast.expr) -> Any:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch" \
                and node.attr in TORCH_DTYPES:
            return ("dtype", node.attr)
        if isinstance(node, ast.Attribute) and node.attr == "device":
            return ("device",)
        if isinstance(node, ast.Attribute) and node.attr == "dtype":  # a.dtype: another argument's type
            of = expr(node.value)
            if of is None:
                raise ValueError(ast.unparse(node))
            return ("dtype_of", of)
        return ast.literal_eval(node)

    def to_keywords(node: ast.Call) -> list[ast.expr] | None:
        """x.to(dtype=a.dtype, device=a.device): its dtype as the one positional argument; None for any other
        keyword use."""
        if not node.keywords:
            return list(node.args)
        if node.func.attr != "to" or node.args or any(k.arg not in ("dtype", "device") for k in node.keywords):
            return None
        return [k.value for k in node.keywords if k.arg == "dtype"]

    # module-level helpers whose body is one `return <expression>` over their own parameters
    # (def prepare(a): return a.transpose(0, 1).contiguous()): a call of one is that expression over its arguments
    helpers = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and _single_return(n)}

    def expr(node: ast.expr) -> tuple[Any, ...] | None:
        nonlocal local
        if isinstance(node, ast.Constant):
            return ("const", node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers \
                and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            helper = helpers[node.func.id]
            names = [a.arg for a in helper.args.args]
            if len(node.args) != len(names):
                return None
            values = [expr(a) for a in node.args]
            if any(v is None for v in values):
                return None
            outer, local = local, dict(zip(names, values, strict=True))  # the helper sees only its parameters
            try:
                return expr(helper.body[-1].value)  # type: ignore[attr-defined]
            finally:
                local = outer
        if isinstance(node, ast.Name):
            if node.id in local:
                return local[node.id]
            return ("param", params.index(node.id)) if node.id in params else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TENSOR_METHODS \
                and (positional := to_keywords(node)) is not None:
            inner = expr(node.func.value)
            try:
                args = tuple(arg_value(a) for a in positional)
            except ValueError:
                return None
            return None if inner is None else ("method", inner, node.func.attr, args)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "torch.tensor" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.List | ast.Tuple) \
                and all(k.arg in ("dtype", "device") for k in node.keywords):
            # torch.tensor([float(s)], dtype=a.dtype): a 1-D tensor of numbers
            items = [i.args[0] if isinstance(i, ast.Call) and isinstance(i.func, ast.Name)
                     and i.func.id in ("float", "int") and len(i.args) == 1 else i for i in node.args[0].elts]
            values = [expr(i) for i in items]
            try:
                dtype = next((arg_value(k.value) for k in node.keywords if k.arg == "dtype"), ("dtype", "float32"))
            except ValueError:
                return None
            return None if any(v is None for v in values) else ("tensor", tuple(values), dtype)
        steps: list[tuple[str, Any]] = []
        while isinstance(node, ast.Attribute | ast.Subscript):
            if isinstance(node, ast.Attribute):
                steps.insert(0, ("attr", node.attr))
            else:
                if not isinstance(node.slice, ast.Constant) or not isinstance(node.slice.value, int):
                    return None
                steps.insert(0, ("item", node.slice.value))
            node = node.value
        if isinstance(node, ast.Name) and node.id == "self" and steps and steps[0][0] == "attr":
            return ("self", tuple(steps), init_of.get(steps[0][1]))
        if isinstance(node, ast.Name) and node.id in local and steps and local[node.id][0] == "self":
            _, head, init = local[node.id]  # stride = self.conv.stride; ... stride[0]
            return ("self", head + tuple(steps), init)
        return None

    def tensor_branch(st: ast.stmt) -> tuple[str, tuple[Any, ...]] | None:
        """`if [not] isinstance(s, torch.Tensor): s = A  else: s = B`: ("if_tensor", s, A-or-B as s is a tensor
        or not), decided when the plan is evaluated for a draw."""
        if not isinstance(st, ast.If) or len(st.body) != 1 or len(st.orelse) != 1:
            return None
        test, negated = st.test, False
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negated = test.operand, True
        if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
                and len(test.args) == 2 and ast.unparse(test.args[1]) == "torch.Tensor"):
            return None
        arms = [st.body[0], st.orelse[0]]
        if not all(isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
                   for a in arms) or len({a.targets[0].id for a in arms}) != 1:  # type: ignore[attr-defined]
            return None
        subject = expr(test.args[0])
        then, other = (expr(a.value) for a in arms)  # type: ignore[attr-defined]
        if subject is None or then is None or other is None:
            return None
        is_tensor, not_tensor = (other, then) if negated else (then, other)
        return arms[0].targets[0].id, ("if_tensor", subject, is_tensor, not_tensor)  # type: ignore[attr-defined]

    def is_self_to_device(st: ast.stmt) -> bool:
        """self.h = self.h.to(x.device): a move to the device, nothing the op sees."""
        return isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.value, ast.Call) \
            and isinstance(st.value.func, ast.Attribute) and st.value.func.attr == "to" \
            and ast.unparse(st.value.func.value) == ast.unparse(st.targets[0])

    *before, last = fn.body or [ast.Pass()]
    call: ast.expr | None = last.value if isinstance(last, ast.Return) else None
    if isinstance(last, ast.Return) and last.value is not None and before and isinstance(before[-1], ast.Assign) \
            and len(before[-1].targets) == 1 and ast.unparse(before[-1].targets[0]) == ast.unparse(last.value) \
            and isinstance(before[-1].value, ast.Call) and isinstance(before[-1].value.func, ast.Attribute) \
            and isinstance(before[-1].value.func.value, ast.Name) \
            and before[-1].value.func.value.id not in ("self", "torch", "F", "nn"):
        *before, assigned = before  # y = op(...); return y   (or self.h = op(...); return self.h)
        call = assigned.value  # type: ignore[attr-defined]
    for st in before:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) or isinstance(st, ast.Assert | ast.Pass) \
                or isinstance(st, ast.If) and not st.orelse and all(isinstance(b, ast.Raise) for b in st.body) \
                or isinstance(st, ast.Delete) and all(isinstance(t, ast.Name) and t.id in params
                                                      for t in st.targets) \
                or is_self_to_device(st):
            continue
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            value = expr(st.value)
            if value is None:
                return None
            local[st.targets[0].id] = value
            continue
        branch = tensor_branch(st)
        if branch is not None:
            local[branch[0]] = branch[1]
            continue
        return None
    call, _ = _peel(call)
    if not isinstance(call, ast.Call) or call.keywords or not _extension_call(call, tree):
        return None
    plan = [expr(a) for a in call.args]
    return None if any(p is None for p in plan) else plan  # type: ignore[return-value]


def _single_return(fn: Any) -> bool:
    """`def f(a, b): ["doc"] return <expression>` with plain positional parameters whose body names nothing but
    them (and torch)."""
    import ast

    body = [st for st in fn.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
    a = fn.args
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None or a.vararg or a.kwarg \
            or a.kwonlyargs or a.posonlyargs or a.defaults or fn.decorator_list:
        return False
    own = {p.arg for p in a.args} | {"torch"}
    return all(n.id in own for n in ast.walk(body[0].value) if isinstance(n, ast.Name))


def _extension_call(call: Any, tree: Any) -> bool:
    """custom_ops_lib.op(...): a function of a module the answer imports (or binds with importlib), other than
    torch and its helpers."""
    import ast

    modules = {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
               for a in n.names}
    modules |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                and ast.unparse(n.value.func).endswith("import_module") for t in n.targets if isinstance(t, ast.Name)}
    return isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
        and call.func.value.id in modules - {"torch", "torch_npu", "F", "nn", "np", "numpy", "math"}


def _peel(call: Any) -> tuple[Any, list[tuple[str, tuple[Any, ...]]]]:
    """`op(x).unsqueeze(1).contiguous()` -> (the op's call, [("unsqueeze", (1,)), ("contiguous", ())]): the tensor
    methods forward applies to the op's result, innermost first (constant arguments only)."""
    import ast

    post: list[tuple[str, tuple[Any, ...]]] = []
    while isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in TENSOR_METHODS \
            and isinstance(call.func.value, ast.Call) and not call.keywords:
        try:
            args = tuple(ast.literal_eval(a) for a in call.args)
        except ValueError:
            break
        post.insert(0, (call.func.attr, args))
        call = call.func.value
    return call, post


def result_methods(model_src: str) -> list[tuple[str, tuple[Any, ...]]]:
    """The tensor methods ModelNew.forward applies to the op's result before returning it
    (`return custom_ops_lib.op(x).unsqueeze(1)`), innermost first; [] when none (or the forward is not read)."""
    import ast

    try:
        tree = ast.parse(model_src)
    except (SyntaxError, ValueError, RecursionError):
        return []
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    fn = cls and next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    last = fn.body[-1] if fn and fn.body else None
    if not isinstance(last, ast.Return) or last.value is None:
        return []
    call, post = _peel(last.value)
    return post if isinstance(call, ast.Call) and _extension_call(call, tree) else []


def apply_result_methods(value: Any, post: Any) -> Any:
    """An output array (or a list of them) with forward's methods applied (tensor_ops, float32 values)."""
    if not post or not isinstance(value, np.ndarray):
        return value
    t = T.Tensor(value, str(value.dtype))
    for name, args in post:
        t = T.call(name, t, *args)
    return np.ascontiguousarray(t.data)


def bypasses_kernel(model_src: str) -> bool:
    """Whether ModelNew.forward never calls the op where it counts: no call of an extension module's function
    (custom_ops_lib.op(...)) outside `if False:` blocks. Such a final passed on hardware by computing its result
    with torch (a helper that touches the op on a probe tensor, a CPU fallback): its kernel's inputs are not the
    task's, and there is nothing of the answer's to judge on the simulator."""
    import ast

    try:
        tree = ast.parse(model_src)
    except (SyntaxError, ValueError, RecursionError):
        return False
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    fn = cls and next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    if fn is None:
        return False
    torch_side = {"torch", "torch_npu", "F", "nn", "math", "np", "numpy"}
    extensions = {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
                  for a in n.names}
    extensions |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                   and ast.unparse(n.value.func).endswith("import_module") for t in n.targets
                   if isinstance(t, ast.Name)}  # ops_lib = importlib.import_module("custom" + "_ops_lib")
    extensions -= torch_side

    def live(nodes: list[ast.stmt]) -> bool:
        for st in nodes:
            if isinstance(st, ast.If) and isinstance(st.test, ast.Constant) and not st.test.value:
                if live(st.orelse):
                    return True
                continue
            for n in ast.walk(st):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                        and isinstance(n.func.value, ast.Name) and n.func.value.id in extensions:
                    return True
        return False

    return not live(fn.body)


def is_passthrough(plan: list[tuple[Any, ...]]) -> bool:
    """The op gets forward's own arguments, in order (contiguous() aside): the harness's own case."""
    def param(e: tuple[Any, ...]) -> int | None:
        while e[0] == "method" and e[2] == "contiguous":
            e = e[1]
        return e[1] if e[0] == "param" else None

    return [param(e) for e in plan] == list(range(len(plan)))


def init_bindings(model_src: str, init_inputs: list[Any]) -> dict[str, Any]:
    """ModelNew.__init__'s parameters bound to get_init_inputs() (positional, then the defaults)."""
    import ast

    tree = ast.parse(model_src)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew")
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return {}
    args = init.args.args[1:]
    defaults = dict(zip([a.arg for a in args][len(args) - len(init.args.defaults):], init.args.defaults))
    # ModelNew(*get_init_inputs()) with too few or too many positional values is Python's TypeError: the answer
    # was written for another task's init inputs (conv_transpose2d_add_min_gelu_multiply's ModelNew takes padding,
    # output_padding and groups the reference does not give). Reading its settings from the reference's modules
    # then hands the op values of other types (a stride tuple for an int64_t), a misleading failure further on.
    missing = [a.arg for a in args[len(init_inputs):] if a.arg not in defaults]
    if missing or (len(init_inputs) > len(args) and init.args.vararg is None):
        lack = f"{', '.join(missing)} without a default" if missing else f"only {len(args)}"
        raise RuntimeError(f"ModelNew(*get_init_inputs()) cannot be built: its __init__ (line {init.lineno} of "
                           f"model_src) takes {len(args)} parameters ({lack}) and get_init_inputs() gives "
                           f"{len(init_inputs)}, which Python rejects (TypeError)")
    bound: dict[str, Any] = {}
    for i, a in enumerate(args):
        if i < len(init_inputs):
            bound[a.arg] = init_inputs[i]
        elif a.arg in defaults:
            try:
                bound[a.arg] = ast.literal_eval(defaults[a.arg])
            except ValueError:
                pass
    for node in ast.walk(init):
        # int(p) / float(p) of a parameter bound to a shape or list: Python's TypeError when the benchmark builds
        # ModelNew (matmul_swish_sum_group_norm: eps=1e-5 in ModelNew, bias_shape=(1024,) in get_init_inputs)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float") \
                and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in bound \
                and isinstance(bound[node.args[0].id], tuple | list | dict | type(None)):
            name = node.args[0].id
            raise RuntimeError(f"ModelNew(*get_init_inputs()) cannot be built: its __init__ takes "
                               f"{node.func.id}({name}) (line {node.lineno} of model_src) of {name} = "
                               f"{bound[name]!r} from get_init_inputs(), which Python rejects (TypeError)")
    return bound


def weighted_inputs(task: Any, drawn: Any, case: Any = None) -> Any:
    """The op's inputs for one draw of `case`: forward_plan's expressions over get_inputs' tensors and the reference
    Model (built as the benchmark builds it: seeded, from get_init_inputs) standing in for ModelNew's module. The
    program is the case's (its size constants reduced under --fit-shapes), so the module's weights have the shapes
    of the reduced inputs."""
    from bench.suites.model import Inputs
    from bench.suites.multikernelbench import SEED
    from bench.suites.torch_ref import dtype_name, seed_all, to_torch, torch_module

    torch = torch_module()
    module = task._module(case)
    seed_all(SEED)
    with torch.no_grad():
        init_inputs = list(module.get_init_inputs())
        model = module.Model(*init_inputs)
    bound = init_bindings(task.model_src, init_inputs)
    names = list(drawn.values)

    def value(e: tuple[Any, ...]) -> Any:
        if e[0] == "const":
            return e[1]
        if e[0] == "param":
            v = drawn.values[names[e[1]]]
            return to_torch(v, drawn.dtypes.get(names[e[1]])) if isinstance(v, np.ndarray) else v
        if e[0] == "if_tensor":
            return value(e[2] if isinstance(value(e[1]), torch.Tensor | T.Tensor) else e[3])
        if e[0] == "tensor":
            return T.make(np.array([value(v) for v in e[1]], dtype=np.float64), argument(e[2]))
        if e[0] == "method":
            inner = value(e[1])
            if any(a == ("device",) for a in e[3]) or e[2] in DEVICE_MOVES:
                return inner  # .to(x.device), .cpu(): the tensor where it is
            if isinstance(inner, torch.Tensor):
                t = inner.detach().cpu()
                inner = T.make((t.float() if t.dtype == torch.bfloat16 else t).numpy(), dtype_name(t))
            if not isinstance(inner, T.Tensor):
                return inner
            return T.call(e[2], inner, *[argument(a) for a in e[3]])
        _, steps, init = e
        return walk(first(steps[0][1], init, steps[1:]), steps[1:], steps)

    def argument(a: Any) -> Any:
        """A method's argument: a dtype (torch.float16, or another argument's: a.dtype) as the table names it."""
        if isinstance(a, tuple) and a[:1] == ("dtype",):
            return T.DTYPE_NAMES[a[1]]
        if isinstance(a, tuple) and a[:1] == ("dtype_of",):
            of = value(a[1])
            return of.dtype if isinstance(of, T.Tensor) else dtype_name(of) if isinstance(of, torch.Tensor) \
                else "float32"
        return a

    raw = raw_tensors(torch, model, task.plan, bound)

    def first(name: str, init: tuple[Any, ...] | None, rest: tuple[tuple[str, Any], ...]) -> Any:
        """self.<name> of ModelNew: the reference Model's attribute of that name; else, by what ModelNew.__init__
        makes of it: the reference's submodule of the same class in the same place among those of its class, the
        reference's tensor matched to one ModelNew draws itself (raw_tensors), the value of a plain parameter or
        constant (as a tensor where it wraps one in a tensor; indexed, a setting of one of the reference's
        submodules: stride[0] of a stride given as 2), for a module list indexed, the reference's leaf modules
        that have what is read next (self.layers[3].weight: the fourth with a weight); else a setting of that
        name on exactly one of the reference's submodules (self.groups -> conv_transpose.groups)."""
        if name in raw:
            return raw[name]
        if hasattr(model, name):
            v = getattr(model, name)
            if init is not None and init[0] == "tensor" and isinstance(v, int | float):
                return torch.tensor([v], dtype=getattr(torch, init[2]))  # ModelNew holds it as a tensor
            return v
        held = [getattr(m, name) for m in model.modules() if m is not model and hasattr(m, name)]
        if init is not None and init[0] == "module":
            same = [m for m in model.modules() if m is not model and type(m).__name__ == init[1]]
            mine = [k[0] for k in init[2] if k[1:3] == ("module", init[1])]
            if len(same) == 1:
                return same[0]
            if len(same) == len(mine) and name in mine:
                return same[mine.index(name)]
            if init[1] in ("ModuleList", "Sequential") and len(rest) >= 2 and rest[0][0] == "item" \
                    and rest[1][0] == "attr":
                return [m for m in model.modules() if m is not model and not list(m.children())
                        and hasattr(m, rest[1][1])]
        if init is not None and init[0] in ("param", "const", "tensor"):
            plain = init[1] if init[0] == "tensor" else init
            if plain is not None and (plain[0] == "const" or plain[1] in bound):
                v = plain[1] if plain[0] == "const" else bound[plain[1]]
                if isinstance(v, int | float) and rest[:1] and rest[0][0] == "item":
                    settings = [h for h in held if isinstance(h, tuple | list)]
                    if settings and all(h == settings[0] for h in settings):
                        return settings[0]  # ModelNew made a tuple of it as the module does
                    return (v,) * (rest[0][1] + 1)
                return torch.tensor([v], dtype=getattr(torch, init[2])) if init[0] == "tensor" else v
        if len(held) == 1:
            return held[0]
        if held and not any(isinstance(h, torch.Tensor) for h in held) and all(h == held[0] for h in held):
            return held[0]  # the same setting on every submodule that has one
        raise RuntimeError(f"ModelNew's self.{name} is not the reference Model's: neither an attribute of it, nor "
                           "a module, plain parameter or constant of ModelNew.__init__, nor a setting of one of its "
                           "submodules")

    def walk(v: Any, rest: tuple[tuple[str, Any], ...], steps: tuple[tuple[str, Any], ...]) -> Any:
        for kind, key in rest:
            try:
                v = getattr(v, key) if kind == "attr" else v[key]
            except (AttributeError, IndexError, KeyError, TypeError):
                path = "".join(f".{k}" if kd == "attr" else f"[{k}]" for kd, k in steps)
                raise RuntimeError(f"ModelNew's self{path} cannot be read from the reference Model") from None
        return v

    values: dict[str, Any] = {}
    dtypes: dict[str, str] = {}
    with torch.no_grad():
        for i, e in enumerate(task.plan):
            v = value(e)
            name = f"arg{i}"
            if isinstance(v, T.Tensor):
                dtypes[name] = v.dtype
                values[name] = np.array(v.data, copy=True, order="C")
            elif isinstance(v, torch.Tensor):
                dtypes[name] = dtype_name(v)
                t = v.detach().cpu()
                values[name] = (t.to(torch.float32) if t.dtype == torch.bfloat16 else t).contiguous().numpy().copy()
            else:
                values[name] = v
    return Inputs(values, dtypes, drawn.seed)


def shape_of(args: tuple[str, ...], bound: dict[str, Any]) -> tuple[int, ...] | None:
    """The shape torch.randn(*args) makes, with ModelNew.__init__'s parameters bound: names, numbers, + - * //,
    an item of a bound list, a tuple of those, or one bound shape."""
    import ast

    def ev(n: ast.expr) -> Any:
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name) and n.id in bound:
            return bound[n.id]
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add | ast.Sub | ast.Mult | ast.FloorDiv):
            a, b = ev(n.left), ev(n.right)
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(n.op)) if not isinstance(
                n.op, ast.FloorDiv) else a // b
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
            return ev(n.value)[n.slice.value]
        if isinstance(n, ast.Tuple | ast.List):
            return tuple(ev(e) for e in n.elts)
        raise ValueError(ast.unparse(n))

    try:
        dims = [ev(ast.parse(a, mode="eval").body) for a in args]
    except (ValueError, TypeError, IndexError, KeyError, SyntaxError, ZeroDivisionError):
        return None
    if len(dims) == 1 and isinstance(dims[0], tuple | list):
        dims = list(dims[0])
    return tuple(int(d) for d in dims) if all(isinstance(d, int) for d in dims) else None


def raw_tensors(torch: Any, model: Any, plan: Any, bound: dict[str, Any]) -> dict[str, Any]:
    """The reference's tensors standing in for those ModelNew draws itself (self.w = nn.Parameter(torch.randn(
    in_features, out_features))): in ModelNew's order, each takes the reference's tensor of its name, else the
    first one not taken of its shape, else of its shape transposed (a 2-D weight kept as in x out where the
    reference's Linear keeps out x in), cast to the dtype ModelNew asks for."""
    order = next((e[2][-1] for e in plan if e[0] == "self" and e[2] is not None and e[2][0] in ("module", "raw")),
                 ())
    mine = [(k[0], k[2], k[3]) for k in order if k[1] == "raw"]
    if not mine:
        return {}
    theirs: list[tuple[str, Any]] = list(model.named_parameters()) + list(model.named_buffers())
    theirs += [(n, v) for n, v in vars(model).items() if isinstance(v, torch.Tensor)
               and all(v is not t for _, t in theirs)]
    taken: set[int] = set()
    found: dict[str, Any] = {}
    picks: dict[str, int] = {}
    for name, args, _ in mine:  # names first, so that a name-sake is not taken by shape before its turn
        shape = shape_of(args, bound)
        pick = next((i for i, (n, t) in enumerate(theirs) if n == name
                     and (shape is None or tuple(t.shape) in (shape, shape[::-1] if len(shape) == 2 else shape))),
                    None)
        if pick is not None:
            picks[name] = pick
            taken.add(pick)
    for name, args, dtype in mine:
        shape = shape_of(args, bound)
        pick = picks.get(name)
        if pick is None and shape is not None:
            pick = next((i for i, (_, t) in enumerate(theirs) if i not in taken and tuple(t.shape) == shape), None)
            if pick is None and len(shape) == 2:
                pick = next((i for i, (_, t) in enumerate(theirs) if i not in taken
                             and tuple(t.shape) == shape[::-1]), None)
        if pick is None:
            continue
        taken.add(pick)
        t = theirs[pick][1].detach()
        if shape is not None and tuple(t.shape) != shape:
            t = t.t().contiguous()
        found[name] = t.to(getattr(torch, dtype)) if dtype else t
    return found
