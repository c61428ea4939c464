"""Read our JSON test case format (`inputs`, `attrs`, `init_args`) with located diagnostics: the text is
parsed with `ast` so every value keeps its line and column.
"""

from __future__ import annotations

import ast
import json
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ascendir.host_eval import TensorSpec
from ascendir.testcase_dtypes import DTYPE_NAMES
from ascendir.testcase_types import MAX_RANK, TestCase, TestCaseProblem
from ascendir.testcase_values import loc


_JSON_DTYPE_ALIASES = {name: name for name in DTYPE_NAMES} | {
    "fp16": "float16", "half": "float16", "bf16": "bfloat16", "fp32": "float32", "float": "float32",
    "fp64": "float64", "double": "float64", "int": "int32", "long": "int64",
}


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
    line, col = loc(node)
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
    if len(dims) > MAX_RANK:
        report(f"`{what}` has more than {MAX_RANK} dimensions", j)
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
