"""Read a MultiKernelBench-style reference program (`get_inputs()`, `get_init_inputs()`, `Model`'s parameter
names) with `ast` and the test-case evaluator; the program is never run.
"""

from __future__ import annotations

import ast
import warnings
from typing import Any

from ascendir.testcase_eval import Evaluator
from ascendir.testcase_types import TestCase, TestCaseProblem
from ascendir.testcase_values import DType, EvalError, Quiet, Tensor, describe, to_spec


def _to_init_value(v: Any) -> object:
    if isinstance(v, Tensor):
        return to_spec(v)
    if isinstance(v, tuple):
        return tuple(_to_init_value(x) for x in v)
    if isinstance(v, list):
        return [_to_init_value(x) for x in v]
    if isinstance(v, DType):
        return v.name
    return v


def _is_plain(v: Any) -> bool:
    if isinstance(v, (bool, int, float, str)) or v is None:
        return True
    if isinstance(v, (tuple, list)):
        return all(_is_plain(x) for x in v)
    return isinstance(v, (Tensor, DType))


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
    ev = Evaluator(filename)
    tree, problem = parse_python(text, filename)
    if tree is None:
        case.diagnostics.append(problem)  # type: ignore[arg-type]
        return case
    try:
        _read_tree(tree, ev, case)
    except RecursionError:
        ev.report("expression nested too deeply to evaluate", None)
    except (EvalError, Quiet) as e:  # defensive: all are caught inside
        if isinstance(e, EvalError):
            ev.report(e.message, e.node)
    case.diagnostics = ev.diagnostics + case.diagnostics
    case.diagnostics.sort(key=lambda d: (d.line, d.col))
    return case


def _read_tree(tree: ast.Module, ev: Evaluator, case: TestCase) -> None:
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
            if isinstance(value, Tensor):
                spec = to_spec(value)
                case.inputs.append(spec)
                case.call_args.append(spec)
            elif isinstance(value, (bool, int, float)):
                case.scalars.append(value)
                case.call_args.append(value)
            elif isinstance(value, (tuple, list)) and all(isinstance(x, (bool, int, float)) for x in value):
                case.scalars.append(tuple(value))
                case.call_args.append(tuple(value))
            else:
                ev.report(f"entry of `get_inputs()` is {describe(value)}; expected a tensor, a number or a tuple of numbers", node)
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
                ev.report(f"entry of `get_init_inputs()` is {describe(value)}; not a plain value", node)
