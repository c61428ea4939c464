"""Which binding argument reaches which op input when an answer ships its own aclnn layer.

An NPUKernelBench binding calls `EXEC_NPU_CMD(aclnnX, a, b, c, ...)`. Most answers generate aclnnX from the op
description, so its tensor arguments are the op's inputs in order. Some ship the two layers of a CANN operator
instead (op_host/aclnn_*.cpp and an l0op file): `aclnnXGetWorkspaceSize(gradOutput, self, target, ...)` calls
`l0op::X(gradOutputContiguous, selfContiguous, targetContiguous, ...)`, whose
`ADD_TO_LAUNCHER_LIST_AICORE(X, OP_INPUT(self, target, gradOutput), ...)` launches the kernel with its inputs in
another order (NPUKernelBench's MseLossGradV2). This module follows that chain, as text with a few patterns (the
answer's C++ is never run): binding argument -> aclnn parameter -> l0op argument (through `v = l0op::Contiguous(p,
...)`-style locals) -> l0op parameter -> OP_INPUT position.
"""

from __future__ import annotations

import re

from bench.suites.binding import brace_body, paren_body, read_binding, split_top

_NAME = r"[A-Za-z_]\w*"
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def op_input_order(binding_text: str, host_texts: list[str], inputs: int) -> list[int] | None:
    """For each op input, the position of the binding parameter that reaches it through the answer's aclnn and
    l0op layers; None where the answer has no such layers, the chain is not followed, or it keeps the order."""
    binding_text = _COMMENTS.sub("", binding_text)
    binding = read_binding(binding_text)
    call = re.search(r"\bEXEC_NPU_CMD\s*\(", binding_text)
    if binding is None or call is None:
        return None
    aclnn, *exec_args = [a.strip() for a in split_top(paren_body(binding_text, call.end()))]
    texts = [_COMMENTS.sub("", t) for t in host_texts]
    found = _definition(texts, f"{aclnn}GetWorkspaceSize")
    if found is None:
        return None
    aclnn_params, aclnn_body = found
    launch = _launching_l0op(texts, aclnn_body)
    if launch is None:
        return None
    l0_args, l0_params, op_inputs = launch
    if len(op_inputs) != inputs:
        return None
    binding_body = _function_body(binding_text, call.start())
    order: list[int] = []
    for name in op_inputs:
        if name not in l0_params or l0_params.index(name) >= len(l0_args):
            return None
        a = _source_param(l0_args[l0_params.index(name)], aclnn_params, aclnn_body)
        if a is None or a >= len(exec_args):
            return None
        b = _source_param(exec_args[a], binding.params, binding_body)
        if b is None:
            return None
        order.append(b)
    if len(set(order)) != len(order) or order == list(range(len(order))):
        return None
    return order


def _definition(texts: list[str], name: str) -> tuple[list[str], str] | None:
    """(parameter names, body) of the function `name` defined in one of `texts`."""
    for text in texts:
        for m in re.finditer(rf"\b{re.escape(name)}\s*\(", text):
            params_text = paren_body(text, m.end())
            after = text[m.end() + len(params_text) + 1:]
            brace = re.match(r"\s*(?:const\s*)?\{", after)
            if brace is None:
                continue
            start = m.end() + len(params_text) + 1 + brace.end()
            return [_param_name(p) for p in split_top(params_text)], brace_body(text, start)
    return None


def _launching_l0op(texts: list[str], body: str) -> tuple[list[str], list[str], list[str]] | None:
    """(call arguments, l0op parameter names, OP_INPUT names) of the first l0op call in `body` whose definition
    launches a kernel with ADD_TO_LAUNCHER_LIST_AICORE."""
    for m in re.finditer(rf"\bl0op\s*::\s*({_NAME})\s*\(", body):
        found = _definition(texts, m.group(1))
        if found is None:
            continue
        params, l0_body = found
        launch = re.search(r"ADD_TO_LAUNCHER_LIST_AICORE\s*\(", l0_body)
        if launch is None:
            continue
        op_input = re.search(r"\bOP_INPUT\s*\(", l0_body[launch.end():])
        if op_input is None:
            continue
        names = [n.strip() for n in split_top(paren_body(l0_body, launch.end() + op_input.end()))]
        args = [a.strip() for a in split_top(paren_body(body, m.end()))]
        return args, params, names
    return None


def _source_param(expr: str, params: list[str], body: str) -> int | None:
    """The parameter an argument expression carries: itself, or the first parameter named in the initialiser of
    the local it names (`auto selfContiguous = l0op::Contiguous(self, executor);`, `auto xs = at::TensorList(x);`)."""
    expr = expr.strip().lstrip("&*").strip()
    if expr in params:
        return params.index(expr)
    if not re.fullmatch(_NAME, expr):
        return None
    made = re.search(rf"\b{expr}\s*=\s*([^;]*);", body)
    if made is None:
        return None
    for token in re.findall(_NAME, made.group(1)):
        if token in params:
            return params.index(token)
    return None


def _param_name(text: str) -> str:
    found = re.search(rf"({_NAME})\s*(?:\[[^\]]*\])?\s*(?:=.*)?$", text.strip(), re.S)
    return found.group(1) if found else ""


def _function_body(text: str, at: int) -> str:
    """The text of the function that holds position `at` (from its opening brace up to `at` is enough here)."""
    depth, i = 0, at
    while i > 0:
        i -= 1
        if text[i] == "}":
            depth += 1
        elif text[i] == "{":
            if depth == 0:
                return text[i + 1:at]
            depth -= 1
    return text[:at]
