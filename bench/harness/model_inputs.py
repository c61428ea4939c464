"""The op's inputs for one draw of a MultiKernelBench task whose ModelNew hands the op its module's tensors:
forward_plan's expressions (bench/harness/model_forward.py) evaluated over get_inputs' tensors, with the reference
Model (built as the benchmark builds it: seeded, from get_init_inputs) standing in for ModelNew's module, and
ModelNew.__init__'s parameters bound to get_init_inputs. ModelNew itself is read, never built or run."""

from __future__ import annotations

from typing import Any

import numpy as np

from bench.harness import tensor_ops as T

DEVICE_MOVES = {"cpu", "npu", "cuda"}  # where the tensor lives: nothing the op sees


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
