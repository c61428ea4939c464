"""Which inputs an NPUKernelBench op updates in place, as its task declares it.

A task declares it in two places, and both are read:
- the op description (question/op_host/<k>.cpp): an output named after an input (`Input("var")` and
  `Output("var")`) is a ref: the framework gives the kernel the input's memory for it;
- the Python binding (validation/pybind.cpp): the function bound with `m.def` returns some of its own tensor
  parameters (`return input;`, `result = {x1, rstdOut, x2}; return result;`, a loop pushing a tensor list's
  items): those tensors come back as the op's outputs, so the kernel writes its results into them.

The binding is C++ the benchmark ships; it is read as text with a few patterns (assignments of a name, a brace
list or a TensorList of names, range-for loops, push_back/emplace_back, return), never compiled or run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
IDENT = r"[A-Za-z_]\w*"


@dataclass
class Binding:
    """The function a pybind.cpp binds, as far as in-place updates go."""

    params: list[str]  # its parameters, in order
    tensor_params: list[str]  # those of a tensor type (Tensor, TensorList, a vector or optional of Tensor)
    # per returned tensor, in order, the parameter it is (None: a tensor the binding makes); None when the
    # order is not known (a return built in ways the patterns do not follow)
    returned: list[str | None] | None = None
    written: set[str] = field(default_factory=set)  # every parameter that comes back as an output


def read_binding(text: str) -> Binding | None:
    """The bound function of a pybind.cpp's text (the first `m.def` whose function is defined there)."""
    text = COMMENT_RE.sub("", text)
    for fn in re.findall(rf"\.def\s*\(\s*\"[^\"]*\"\s*,\s*&?\s*({IDENT})", text):
        m = re.search(rf"\b{fn}\s*\(([^)]*)\)\s*\{{", text)
        if m is None:
            continue
        params, tensors = binding_parameters(m.group(1))
        body = brace_body(text, m.end())
        return _flow(Binding(params, tensors), body)
    return None


def binding_parameters(text: str) -> tuple[list[str], list[str]]:
    params: list[str] = []
    tensors: list[str] = []
    for part in (p.strip() for p in split_top(text)):
        found = re.search(rf"({IDENT})\s*(=.*)?$", part, re.S)
        if not found:
            continue
        params.append(found.group(1))
        if "Tensor" in part[:found.start()]:
            tensors.append(found.group(1))
    return params, tensors


def split_top(text: str) -> list[str]:
    """`text` split at commas outside <> and ()."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def brace_body(text: str, start: int) -> str:
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]


def _flow(binding: Binding, body: str) -> Binding:
    """Follows the tensors from the parameters to the return: which variable holds which parameters, in order."""
    holds: dict[str, list[str | None]] = {p: [p] for p in binding.tensor_params}

    def names(expr: str) -> list[str | None] | None:
        """What an expression holds, in order, when it is a name, a TensorList of one, or a brace list."""
        expr = expr.strip()
        wrapped = re.fullmatch(rf"(?:at::)?TensorList\s*\(\s*({IDENT})\s*\)", expr)
        if wrapped:
            expr = wrapped.group(1)
        if re.fullmatch(IDENT, expr):
            return list(holds.get(expr, [None]))
        if expr.startswith("{") and expr.endswith("}"):
            out: list[str | None] = []
            for item in split_top(expr[1:-1]):
                out += names(item) or [None]
            return out
        return None  # a call that makes a tensor (empty_like, ...): nothing of the parameters'

    for stmt in re.finditer(r"[^;{}]*(?:\{[^{};]*\})?[^;{}]*;|for\s*\([^)]*\)", body):
        s = stmt.group(0).strip()
        loop = re.match(rf"for\s*\([^)]*?({IDENT})\s*:\s*({IDENT})\s*\)", s)
        if loop:  # the loop variable is an item of the list (one input), and the body may follow unbraced
            holds[loop.group(1)] = list(holds.get(loop.group(2), [None]))[:1]
            s = s[loop.end():].strip()
        push = re.search(rf"({IDENT})\s*\.\s*(?:push_back|emplace_back)\s*\((.*)\)\s*;$", s, re.S)
        if push:
            got = names(push.group(2))
            holds.setdefault(push.group(1), [])
            holds[push.group(1)] = [h for h in holds[push.group(1)] if h is not None] + (got or [None])
            continue
        ret = re.match(r"return\s+(.*);$", s, re.S)
        if ret:
            got = names(ret.group(1))
            binding.returned = got
            binding.written |= {h for h in got or [] if h is not None}
            continue
        assign = re.search(rf"({IDENT})\s*=\s*(.*);$", s, re.S)
        if assign and "==" not in s:
            got = names(assign.group(2))
            if got is not None and len(got) >= len(holds.get(assign.group(1), [])):
                holds[assign.group(1)] = got  # of two branches' lists, the longer (all that may come back)
    return binding


def _normal(name: str) -> str:
    n = re.sub(r"[^a-z0-9]", "", name.lower())
    for suffix in ("optional", "tensorio", "tensor", "ref", "io"):
        if n.endswith(suffix) and len(n) > len(suffix):
            n = n[: -len(suffix)]
    return n


def op_input(binding: Binding, param: str, inputs: list[str]) -> str | None:
    """The op input a binding parameter stands for: the one of the same name (less a Ref/_ref/Optional suffix),
    else the one at its position among the binding's tensor parameters."""
    by_name = {_normal(n): n for n in inputs}
    if _normal(param) in by_name:
        return by_name[_normal(param)]
    if param in binding.tensor_params:
        k = binding.tensor_params.index(param)
        return inputs[k] if k < len(inputs) else None
    return None


def argument_order(binding: Binding, count: int, inputs: list[str]) -> list[int] | None:
    """For each op input, the position of the binding argument that carries it, where the binding's first `count`
    parameters name the op's inputs in another order: NPUKernelBench's ForeachPowScalarAndTensor binds `(x,
    scalar)` and passes them on as the op's `(scalar, x)` (aclnnForeachPowScalarAndTensor(scalar, x, y)). None
    when they are in op order, or when their names do not all match the op's inputs (then position decides)."""
    params = [_normal(p) for p in binding.params[:count]]
    wanted = [_normal(n) for n in inputs]
    if len(params) != len(wanted) or sorted(params) != sorted(wanted) or len(set(params)) != len(params):
        return None
    order = [params.index(n) for n in wanted]
    return None if order == list(range(len(order))) else order


def returned_count(text: str, values: dict[str, Any]) -> int | None:
    """How many tensors the bound function returns for these parameter values, where it builds its result as a
    brace list and appends more under `if (flag)` / `if (!flag)` on a bool parameter (NPUKernelBench's
    CrossEntropyLoss: `result = {lossOut, logProbOut}; if (returnZloss) { result.push_back(zlossOut); ... }`).
    NPUKernelBench compares zip(Model's outputs, the binding's): the outputs past this count are not compared.
    None where the result is built in another way or a condition is not such a flag."""
    text = COMMENT_RE.sub("", text)
    binding = read_binding(text)
    if binding is None:
        return None
    for fn in re.findall(rf"\.def\s*\(\s*\"[^\"]*\"\s*,\s*&?\s*({IDENT})", text):
        m = re.search(rf"\b{fn}\s*\(([^)]*)\)\s*\{{", text)
        if m is not None:
            body = brace_body(text, m.end())
            break
    else:
        return None
    returns = list(re.finditer(r"\breturn\b", body))
    ret = re.search(rf"\breturn\s+({IDENT})\s*;", body)
    if ret is None or len(returns) != 1:
        return None  # (an early return in a branch: which one runs is not followed)
    var = ret.group(1)
    made = re.search(rf"\b{var}\s*=\s*\{{([^{{}}]*)\}}\s*;", body)
    if made is None:
        return None
    count = len(split_top(made.group(1)))
    for push in re.finditer(rf"\b{var}\s*\.\s*(?:push_back|emplace_back)\s*\(", body[made.end():ret.start()]):
        at = made.end() + push.start()
        flag = _enclosing_flag(body, at)
        if flag is None:
            return None
        name, negated = flag
        if name == "":
            count += 1  # not inside any if: always
        elif name in values:
            count += int(bool(values[name]) != negated)
        else:
            return None
    return count


def _enclosing_flag(body: str, at: int) -> tuple[str, bool] | None:
    """The condition of the innermost block holding position `at`: ("", False) when there is none, (param,
    negated) for `if (param)` / `if (!param)`, None for anything else (a loop, another condition)."""
    i = _open_brace(body, at)
    if i is None:
        return ("", False)
    head = re.search(rf"\bif\s*\(\s*(!?)\s*({IDENT})\s*\)\s*$", body[:i])
    return (head.group(2), head.group(1) == "!") if head else None


def _open_brace(body: str, at: int) -> int | None:
    """The position of the `{` opening the innermost block that holds position `at`; None outside every block."""
    depth, i = 0, at
    while i > 0:
        i -= 1
        if body[i] == "}":
            depth += 1
        elif body[i] == "{":
            if depth == 0:
                return i
            depth -= 1
    return None


def in_place(binding_text: str, inputs: list[str], outputs: list[str]) -> tuple[list[str], list[str | None]]:
    """(the op inputs updated in place, in input order; for each output the binding returns, the input it is, or
    None), from a pybind.cpp's text and the op description's input and output names."""
    written = {n for n in inputs if n in outputs}  # refs: an output named after an input
    returned: list[str | None] = []
    binding = read_binding(binding_text) if binding_text else None
    if binding is not None:
        written |= {i for p in binding.written if (i := op_input(binding, p, inputs)) is not None}
        returned = [op_input(binding, p, inputs) if p is not None else None for p in binding.returned or []]
    return [n for n in inputs if n in written], returned


# the value a tensor-making call fills with: at::zeros / torch::zeros_like / ones / full(shape, value)
_MAKERS = re.compile(rf"(?:at|torch)\s*::\s*(zeros|ones|full)(?:_like)?\s*\((.*)\)\s*$", re.S)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fFlL]?")


def _number(text: str) -> float | None:
    text = text.strip()
    return float(text.rstrip("fFlL")) if _NUMBER.fullmatch(text) else None


def initial_fills(text: str, outputs: list[str]) -> dict[str, float]:
    """The op outputs the binding fills before it launches the kernel, and the value: the framework's memory
    that elements no core writes keep on the device. NPUKernelBench's GroupedMatmulSliceK makes its result with
    `torch::empty(...)` then `result.fill_(0.0f)`, and its kernel skips a group whose k is 0, whose rows stay 0.

    Read in the function that calls EXEC_NPU_CMD: statements before the call that make a tensor with zeros /
    ones / full(_like) or fill one with `.fill_(v)` / `.zero_()`; the call's last arguments are the op's outputs
    in order. A fill whose value is not a literal number, or inside a branch, is not followed."""
    text = COMMENT_RE.sub("", text)
    call = re.search(r"\bEXEC_NPU_CMD\s*\(", text)
    if call is None or not outputs:
        return {}
    args = split_top(paren_body(text, call.end()))
    if len(args) <= len(outputs):
        return {}
    filled: dict[str, float] = {}
    for s in function_statements(text, call.start()):
        made = re.match(rf"(?:[\w:<>]+\s+)?({IDENT})\s*=\s*(.*)$", s, re.S)
        if made and "==" not in s:
            maker = _MAKERS.search(made.group(2))
            value = None
            if maker is not None:
                value = {"zeros": 0.0, "ones": 1.0}.get(maker.group(1))
                if maker.group(1) == "full":
                    parts = split_top(maker.group(2))
                    value = _number(parts[1]) if len(parts) >= 2 else None
            if value is None:
                filled.pop(made.group(1), None)  # made anew (at::empty, a view): not filled
            else:
                filled[made.group(1)] = value
            continue
        fill = re.fullmatch(rf"({IDENT})\s*\.\s*(fill_|zero_)\s*\((.*)\)", s, re.S)
        if fill:
            value = 0.0 if fill.group(2) == "zero_" else _number(fill.group(3))
            if value is not None:
                filled[fill.group(1)] = value
            else:
                filled.pop(fill.group(1), None)
    out_args = [a.strip() for a in args[len(args) - len(outputs):]]
    return {o: filled[a] for o, a in zip(outputs, out_args) if a in filled}


def paren_body(text: str, start: int) -> str:
    """The text from `start` (just inside an opening parenthesis) to its closing one."""
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]


def function_statements(text: str, end: int) -> list[str]:
    """The statements of the function body that holds position `end`, up to it, outside any nested block
    (an if or a loop: those may not run)."""
    braces, parens, body_start = 0, 0, -1
    for i in range(end):
        c = text[i]
        if c == "(":
            parens += 1
        elif c == ")":
            parens -= 1
        elif c == "{" and parens == 0:
            if braces == 0:
                body_start = i + 1
            braces += 1
        elif c == "}" and parens == 0:
            braces -= 1
    if body_start < 0:
        return []
    statements: list[str] = []
    depth, parens, current = 0, 0, []
    for c in text[body_start:end]:
        if c == "(":
            parens += 1
        elif c == ")":
            parens -= 1
        if parens == 0 and c == "{":
            depth += 1
            current = []
            continue
        if parens == 0 and c == "}":
            depth -= 1
            current = []
            continue
        if parens == 0 and c == ";":
            if depth == 0:
                statements.append("".join(current).strip())
            current = []
            continue
        current.append(c)
    return statements


def returned_outputs(text: str, outputs: list[str], values: dict[str, Any]) -> list[str] | None:
    """The op outputs the bound function returns for these parameter values, in its return order: the names the
    benchmark's zip(Model's outputs, the binding's) gives the Model's outputs. NPUKernelBench's AddLayerNorm
    launches the op with outputs (yOut, meanOut, rstdOut, xOut) and returns `{xOut, yOut}` when additionalOut is
    set, `{yOut}` otherwise: its Model's [x, layer_norm(x)] are the op's x and y, not its y and mean.

    Read in the bound function: the last arguments of its EXEC_NPU_CMD are the op's outputs in order (a variable
    each); the returned variable is built by brace-list assignments and push_back/emplace_back, each either
    unconditional or inside `if (flag)` / `if (!flag)` / the `else` of one, on a bool parameter given in `values`.
    None where the result is built another way, or returns a tensor that is none of the op's outputs."""
    text = COMMENT_RE.sub("", text)
    body, params = None, set()
    for fn in re.findall(rf"\.def\s*\(\s*\"[^\"]*\"\s*,\s*&?\s*({IDENT})", text):
        m = re.search(rf"\b{fn}\s*\(([^)]*)\)\s*\{{", text)
        if m is not None:
            body, params = brace_body(text, m.end()), set(binding_parameters(m.group(1))[0])
            break
    if body is None or not outputs:
        return None
    call = re.search(r"\bEXEC_NPU_CMD\s*\(", body)
    if call is None:
        return None
    args = [a.strip() for a in split_top(paren_body(body, call.end()))]
    if len(args) <= len(outputs):
        return None
    out_args = args[len(args) - len(outputs):]
    if any(not re.fullmatch(IDENT, a) or a in params for a in out_args):
        # fewer outputs in the call than the op has (BatchNormV3's aclnnBatchNorm takes the running statistics
        # among its inputs and ends with (output, saveMean, saveInvstd) of the op's five): a parameter, a scalar
        # among the last arguments: which is which is not known
        return None
    by_var = dict(zip(out_args, outputs))
    returns = list(re.finditer(r"\breturn\b", body))
    ret = re.search(rf"\breturn\s+({IDENT})\s*;", body)
    if ret is None or len(returns) != 1:
        return None
    var = ret.group(1)
    if var in by_var:
        return [by_var[var]]
    result: list[str] | None = None
    pattern = rf"\b{var}\s*(?:=\s*\{{([^{{}}]*)\}}|\.\s*(?:push_back|emplace_back)\s*\(\s*({IDENT})\s*\))\s*;"
    for step in re.finditer(pattern, body[:ret.start()]):
        runs = _runs(body, step.start(), values)
        if runs is None:
            return None
        if not runs:
            continue
        items = [i.strip() for i in split_top(step.group(1))] if step.group(1) is not None else [step.group(2)]
        if any(i not in by_var for i in items):
            return None
        if step.group(1) is not None:
            result = [by_var[i] for i in items]
        elif result is not None:
            result.append(by_var[items[0]])
        else:
            return None
    return result


def _runs(body: str, at: int, values: dict[str, Any]) -> bool | None:
    """Whether the statement at `at` runs for these parameter values: it stands in no block, or in `if (flag)` /
    `if (!flag)` on a flag in `values`, or in the `else` of one; None for any other block."""
    i = _open_brace(body, at)
    if i is None:
        return True
    head = body[:i]
    orelse = re.search(r"\}\s*else\s*$", head)
    if orelse is not None:  # the else of the block that closes there: find that block's head
        j = _open_brace(body, orelse.start()) or 0
        taken = _runs_head(body[:j], values)
        outer = _runs(body, j, values)
        return None if taken is None or outer is None else (not taken and outer)
    taken = _runs_head(head, values)
    outer = _runs(body, i, values)
    return None if taken is None or outer is None else (taken and outer)


def _runs_head(head: str, values: dict[str, Any]) -> bool | None:
    m = re.search(rf"\bif\s*\(\s*(!?)\s*({IDENT})\s*\)\s*$", head)
    if m is None or m.group(2) not in values:
        return None
    return bool(values[m.group(2)]) != (m.group(1) == "!")
