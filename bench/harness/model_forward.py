"""ModelNew's forward read with `ast` (never run): what a MultiKernelBench answer's module hands its op.

ModelNew hands the op its module's weights and settings: op(x, self.conv.weight, self.conv.bias, self.eps).
`forward_plan` reads the forward into expressions over its arguments and its module; `weighted_inputs`
(bench/harness/model_inputs.py) evaluates them for one input draw, the module's tensors coming from the reference
Model built as the benchmark builds both (seeded with 1024, get_init_inputs) by the same attribute path, else from a
plain `self.k = k` of ModelNew.__init__ bound to get_init_inputs. Only attribute reads and the tensor methods of
`bench.harness.tensor_ops` (the table the op-binding reader uses too) are applied, to the reference's tensors.
bench/harness/model_task.py makes the task whose inputs are those (WeightedTask) for the correctness stage.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bench.harness import tensor_ops as T

TENSOR_METHODS = set(T.OPS)  # the methods forward may apply to what it hands the op: the shared table's
RAW_TENSOR_MAKERS = {"torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.randn_like"}
TORCH_DTYPES = {"float32", "float16", "bfloat16", "int32", "int64", "int8", "uint8", "bool", "float", "half", "long",
                "int"}


def _model_new(model_src: str) -> tuple[Any, Any] | None:
    """The answer module's syntax tree and its ModelNew class; None when the source does not parse or defines no
    ModelNew (the readers below then answer their 'not read' value)."""
    import ast

    try:
        tree = ast.parse(model_src)
    except (SyntaxError, ValueError, RecursionError):
        return None
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    return None if cls is None else (tree, cls)


def forward_plan(model_src: str) -> list[tuple[Any, ...]] | None:
    """What ModelNew.forward passes the op, argument by argument, as expressions over its own arguments and its
    module: ("param", i), ("const", v), ("self", steps, init) with steps ("attr", name) / ("item", i) and init the
    ModelNew.__init__ source of a plain `self.name = name` / `= constant`, ("method", expr, name, args); locals
    assigned before the return are substituted. None when the forward does anything else (guards that only raise
    are allowed)."""
    import ast

    read = _model_new(model_src)
    if read is None:
        return None
    tree, cls = read
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

    return isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
        and call.func.value.id in _extension_modules(tree)


def _extension_modules(tree: Any) -> set[str]:
    """The names under which the answer's module imports (or binds with importlib) a module other than torch and
    its helpers: its op extensions (custom_ops_lib)."""
    import ast

    modules = {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
               for a in n.names}
    modules |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                and ast.unparse(n.value.func).endswith("import_module") for t in n.targets
                if isinstance(t, ast.Name)}  # ops_lib = importlib.import_module("custom" + "_ops_lib")
    return modules - {"torch", "torch_npu", "F", "nn", "np", "numpy", "math"}


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

    read = _model_new(model_src)
    if read is None:
        return []
    tree, cls = read
    fn = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
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

    read = _model_new(model_src)
    if read is None:
        return False
    tree, cls = read
    fn = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    if fn is None:
        return False
    extensions = _extension_modules(tree)

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
