"""The buffers an NPUKernelBench binding allocates for the op's outputs (validation/pybind.cpp).

The bound function makes each output with `at::Tensor out = torch::empty({d0, d1, ...}, x.options()...)` and
passes it to EXEC_NPU_CMD, whose last arguments are the op's outputs in order. The kernel writes into those
buffers, whatever the op's InferShape says: FlashAttentionScoreWithLargeHeadDim's binding makes softmax_max
{batch, head_num, seq_len, 8} while its InferShape says {batch, 1, seq_len, 8}, and its kernel writes all of
head_num's rows. An output the binding does not return is not compared, but it still needs that buffer.

Read as text, never compiled or run: the statements of the function body before the call, outside any nested
block; integer locals (`const int64_t batch = query.size(0);`) and the dims are evaluated from the draw's input
shapes and scalar arguments with a small evaluator over Python's `ast` (numbers, names, + - * / %, parentheses,
`t.size(i)`, `t.dim()`, casts to integer types); anything else leaves that output to InferShape.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from bench.suites.binding import (
    COMMENT_RE,
    IDENT,
    binding_parameters,
    brace_body,
    function_statements,
    paren_body,
    split_top,
)

_INT_TYPES = r"(?:const\s+)?(?:int64_t|int32_t|uint64_t|uint32_t|int|long|size_t|auto)"
_CAST = re.compile(r"static_cast\s*<\s*(?:const\s+)?(?:int64_t|int32_t|uint64_t|uint32_t|int|long|size_t)\s*>")
_TORCH_DTYPES = {
    "kFloat32": "float32", "kFloat": "float32", "kFloat16": "float16", "kHalf": "float16",
    "kBFloat16": "bfloat16", "kInt32": "int32", "kInt": "int32", "kInt64": "int64", "kLong": "int64",
    "kInt8": "int8", "kChar": "int8", "kUInt8": "uint8", "kByte": "uint8", "kBool": "bool", "kInt16": "int16",
}  # fmt: skip


class _Unknown(Exception):
    """An expression the evaluator does not follow."""


def _eval(node: ast.AST, env: dict[str, int], shapes: dict[str, tuple[int, ...]]) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _eval(node.operand, env, shapes)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, env, shapes), _eval(node.right, env, shapes)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Div | ast.FloorDiv | ast.Mod) and b != 0:
            quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C truncates toward zero
            return quotient if not isinstance(node.op, ast.Mod) else a - quotient * b
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
        shape = shapes.get(node.func.value.id)
        if shape is not None and node.func.attr == "size" and len(node.args) == 1:
            i = _eval(node.args[0], env, shapes)
            if -len(shape) <= i < len(shape):
                return shape[i]
        if shape is not None and node.func.attr == "dim" and not node.args:
            return len(shape)
    raise _Unknown()


def _value(expr: str, env: dict[str, int], shapes: dict[str, tuple[int, ...]]) -> int | None:
    text = _CAST.sub("", expr).replace("->", ".").strip()
    try:
        return _eval(ast.parse(text, mode="eval").body, env, shapes)
    except (SyntaxError, _Unknown, RecursionError):
        return None


def _dtype(options: str, dtypes: dict[str, str]) -> str | None:
    named = re.search(r"(?:torch|at|c10)::(?:ScalarType::)?(k\w+)", options)
    if named is not None:
        return _TORCH_DTYPES.get(named.group(1))
    like = re.match(rf"\s*({IDENT})\s*\.\s*options\s*\(\s*\)\s*$", options)
    return dtypes.get(like.group(1)) if like is not None else None


def allocated_outputs(text: str, outputs: list[str], shapes: dict[str, tuple[int, ...]], dtypes: dict[str, str],
                      values: dict[str, Any]) -> dict[str, tuple[tuple[int, ...], str]]:
    """{op output: (shape, dtype)} for the outputs the bound function allocates with torch::empty / at::empty
    before its EXEC_NPU_CMD, evaluated for this draw: `shapes` and `dtypes` by the binding's tensor parameters,
    `values` its scalar parameters. Outputs it makes otherwise, or whose dims or dtype are not followed, are left
    out."""
    text = COMMENT_RE.sub("", text)
    start, params = None, []
    for fn in re.findall(rf"\.def\s*\(\s*\"[^\"]*\"\s*,\s*&?\s*({IDENT})", text):
        m = re.search(rf"\b{fn}\s*\(([^)]*)\)\s*\{{", text)
        if m is not None:
            start, params = m.end(), binding_parameters(m.group(1))[0]
            break
    if start is None or not outputs:
        return {}
    body = brace_body(text, start)
    call = re.search(r"\bEXEC_NPU_CMD\s*\(", body)
    if call is None:
        return {}
    args = [a.strip() for a in split_top(paren_body(body, call.end()))]
    if len(args) <= len(outputs):
        return {}
    out_args = dict(zip(args[len(args) - len(outputs):], outputs))
    env = {p: int(v) for p, v in values.items() if isinstance(v, int | float) and not isinstance(v, bool)
           and float(v).is_integer()}
    env = {p: v for p, v in env.items() if p in params}
    made: dict[str, tuple[tuple[int, ...], str]] = {}
    for stmt in function_statements(text, start + call.start()):
        local = re.fullmatch(rf"{_INT_TYPES}\s+({IDENT})\s*=\s*(.+)", stmt, re.S)
        if local is not None:
            value = _value(local.group(2), env, shapes)
            if value is not None:
                env[local.group(1)] = value
            else:
                env.pop(local.group(1), None)
            continue
        empty = re.fullmatch(rf"(?:at::Tensor|torch::Tensor|auto)\s+({IDENT})\s*=\s*(?:torch|at)::empty\s*\(\s*"
                             rf"\{{([^{{}}]*)\}}\s*(?:,(.*))?\)", stmt, re.S)
        if empty is None or empty.group(1) not in out_args:
            continue
        dims = [_value(d, env, shapes) for d in split_top(empty.group(2))]
        dtype = _dtype(empty.group(3) or "", dtypes)
        if dims and all(d is not None and d >= 0 for d in dims) and dtype is not None:
            made[out_args[empty.group(1)]] = (tuple(int(d) for d in dims if d is not None), dtype)
    return made
