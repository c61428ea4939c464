"""Project rules on the Python binding of MultiKernelBench answers (ASC8xx): the aclnn op the binding calls
(ASC807), and EXEC_NPU_CMD's arguments: temporaries (ASC808), std containers (ASC809), the op's float
attributes passed as a C++ float where the generated aclnn entry takes a double (ASC812).

ASC812 is an error the build accepts (`BUILD_ACCEPTS`): its note `READS_ZERO` names the attribute the op then
reads as 0, so the benchmark harness runs the answer with that value (`zeroed_attribute`) instead of failing
its compile stage: the device gives wrong results only where the kernel uses the attribute.
"""

from __future__ import annotations

import re

from frontend import ast as A
from frontend.diagnostics import Diagnostic, Note
from passes.verify.key_guard import BUILD_ACCEPTS
from passes.verify.project_facts import calls, functions, name_of, nodes, op_info, report_once, span
from passes.verify.rules import CheckContext, rule


def _exec_calls(ctx: CheckContext) -> list[A.Call]:
    return [c for c in calls(nodes(ctx, "python_bind"), "EXEC_NPU_CMD") if c.args]


@rule(
    "ASC807", "binding-op-name-mismatch", "project",
    summary="The Python binding calls aclnn<Name>Custom for another operator than the op json's.",
    why="The build generates one entry, aclnn<OpType>, for the operator. A binding that calls another "
        "custom name fails to link or at run time with \"aclnnX not in libopapi.so\".",
    example='{"op": "CumsumScanCustom"}\nEXEC_NPU_CMD(aclnnCumsumCustom, self, result);',
    instead="EXEC_NPU_CMD(aclnnCumsumScanCustom, self, result);",
)
def binding_op_name(ctx: CheckContext) -> None:
    op = op_info(ctx)
    if op is None:
        return
    for call in _exec_calls(ctx):
        api = name_of(call.args[0])
        if api is None or not api.startswith("aclnn") or not api.endswith("Custom"):
            continue  # built-in aclnn operators (aclnnConvolution) are fine
        if api != f"aclnn{op.name}":
            report_once(ctx, span(call.args[0]), f"the binding calls '{api}' but the op is '{op.name}'; the generated "
                       f"entry is 'aclnn{op.name}'")


_RVALUE_KINDS = (A.IntLit, A.FloatLit, A.BoolLit, A.StringLit, A.CharLit, A.NullLit, A.Cast, A.Call, A.Binary,
                 A.Unary, A.Conditional, A.InitList)


@rule(
    "ASC808", "exec-npu-cmd-temporary", "project",
    summary="An EXEC_NPU_CMD argument is a literal, cast or call result instead of a named variable.",
    why="EXEC_NPU_CMD converts its arguments through non-const references; a temporary (`false`, `0.1`, "
        "`static_cast<float>(s)`, `x.scalar_type()`) does not bind and the extension fails to build "
        "(\"Failed to build wheel package\").",
    example="EXEC_NPU_CMD(aclnnScaleCustom, x, static_cast<float>(scale), false, result);",
    instead="double scaleValue = static_cast<double>(scale);\nbool flag = false;\n"
            "EXEC_NPU_CMD(aclnnScaleCustom, x, scaleValue, flag, result);",
)
def exec_npu_cmd_temporary(ctx: CheckContext) -> None:
    for call in _exec_calls(ctx):
        for arg in call.args[1:]:
            if isinstance(arg, A.Unary) and arg.op in ("*",):
                continue  # `*ptr` is an lvalue
            if isinstance(arg, _RVALUE_KINDS):
                text = _short(ctx, arg)
                report_once(ctx, span(arg), f"EXEC_NPU_CMD argument '{text}' is a temporary; pass a named variable",
                           Note(f"declare it first: `auto value = {text};`", kind="help"))


@rule(
    "ASC809", "exec-npu-cmd-std-container", "project",
    summary="An EXEC_NPU_CMD argument is a std::vector or std::array instead of an at::IntArrayRef.",
    why="EXEC_NPU_CMD converts integer lists from at::IntArrayRef (to aclIntArray); std::vector and "
        "std::array have no conversion and the extension does not build.",
    example="std::vector<int64_t> size = {256, 256};\nEXEC_NPU_CMD(aclnnUpsampleCustom, x, size, result);",
    instead="std::vector<int64_t> sizeVec = {256, 256};\nat::IntArrayRef size(sizeVec);\n"
            "EXEC_NPU_CMD(aclnnUpsampleCustom, x, size, result);",
)
def exec_npu_cmd_container(ctx: CheckContext) -> None:
    for fn in functions(ctx, "python_bind"):
        if fn.body is None:
            continue
        containers: dict[str, str] = {}
        for node in fn.body.walk():
            if isinstance(node, A.VarDecl):
                for d in node.declarators:
                    base = d.type.base
                    if isinstance(base, A.QualifiedName) and base.parts[-1].name in ("vector", "array") \
                            and not d.type.pointers:
                        containers[d.name] = f"std::{base.parts[-1].name}"
                    else:
                        containers.pop(d.name, None)
        if not containers:
            continue
        for node in fn.body.walk():
            if isinstance(node, A.Call) and node.callee_name == "EXEC_NPU_CMD":
                for arg in node.args[1:]:
                    var = name_of(arg)
                    if var in containers:
                        report_once(ctx, span(arg), f"EXEC_NPU_CMD argument '{var}' is a {containers[var]}; "
                                   "pass an at::IntArrayRef",
                                   Note(f"at::IntArrayRef {var}Ref({var}); and pass {var}Ref", kind="help"))


@rule(
    "ASC812", "exec-npu-cmd-float-attr", "project",
    summary="A float attribute of the operator goes to EXEC_NPU_CMD as a C++ float; the generated aclnn entry "
            "takes it as double.",
    why="The build generates aclnn<Op>GetWorkspaceSize with every float attribute as a `double` parameter "
        "(inputs, then attributes, then outputs). EXEC_NPU_CMD calls that entry through a function pointer "
        "typed from its own arguments and does not convert them, so a `float` argument arrives in the lower "
        "half of a double register (AArch64 zeroes the upper half on the float write): the op reads about "
        "1e-315, 0 as a float, with no build error and no warning. A kernel that uses the attribute computes "
        "with 0 and gives wrong results; one that ignores it (its value hard-coded) is unaffected. The KernelHive "
        "records show it: convtranspose3d_mean_add_softmax_tanh_scaling's output was 0 everywhere on the device "
        "(its largest difference was the reference's value), and was right once the binding passed a double. "
        "The benchmark harness (`ascendir bench`) does what the device does: the error does not stop the "
        "answer's compile stage, and its runs give the op 0 for that attribute, so the verdict is the "
        "device's (wrong, or correct where the kernel ignores the value).",
    example='"attr": [{"name": "scale", "type": "float"}]\n'
            "float scaleValue = static_cast<float>(scale);\n"
            "EXEC_NPU_CMD(aclnnScaleCustom, x, scaleValue, result);",
    instead="double scaleValue = scale;\nEXEC_NPU_CMD(aclnnScaleCustom, x, scaleValue, result);",
)
def exec_npu_cmd_float_attr(ctx: CheckContext) -> None:
    attrs = _json_attr_types(ctx)
    op = op_info(ctx)
    if op is None or not attrs or not op.complete:
        return
    inputs, outputs = len(op.inputs), len(op.outputs)
    float_positions = {inputs + i: name for i, (name, kind) in enumerate(attrs) if kind == "float"}
    if not float_positions:
        return
    for fn in functions(ctx, "python_bind"):
        if fn.body is None:
            continue
        declared: dict[str, A.TypeRef] = {p.name: p.type for p in fn.params if p.name}
        for node in fn.body.walk():
            if isinstance(node, A.VarDecl):
                declared.update((d.name, d.type) for d in node.declarators)
            elif isinstance(node, A.Call) and node.callee_name == "EXEC_NPU_CMD":
                args = node.args[1:]
                if len(args) != inputs + len(attrs) + outputs:
                    continue  # optional inputs left out, or another operator: the positions are unknown
                for position, attr in float_positions.items():
                    var = name_of(args[position])
                    written = declared.get(var or "")
                    if written is None or written.pointers or written.base != "float":
                        continue
                    report_once(ctx, span(args[position]),
                                f"'{var}' is a float, but aclnn{op.name} takes the float attribute '{attr}' as "
                                f"a double: EXEC_NPU_CMD passes it unconverted, and the op reads '{attr}' as 0",
                                Note(f"declare it as double: `double {var} = ...;`", kind="help"),
                                Note(BUILD_ACCEPTS),
                                Note(READS_ZERO.format(attr=attr, index=position - inputs)))


# ASC812's note naming the attribute the op reads as 0 (its index among the op json's attributes)
READS_ZERO = ("the op reads attribute {index} ('{attr}') as 0: the float's bits fill only the low half of the double "
              "(about 1e-315); the benchmark harness runs the answer so, as the device does")
_READS_ZERO_RE = re.compile(r"^the op reads attribute (\d+) \(")


def zeroed_attribute(d: Diagnostic) -> int | None:
    """The index (among the op json's attributes) of the attribute an ASC812 error says the op reads as 0;
    None for any other diagnostic."""
    if d.code != "ASC812" or not d.is_error:
        return None
    return next((int(m.group(1)) for n in d.notes if (m := _READS_ZERO_RE.match(n.message))), None)


def _json_attr_types(ctx: CheckContext) -> list[tuple[str, str]]:
    """(name, type) of the op json's attributes, in order; [] when any is unreadable."""
    if ctx.program is None or not ctx.program.bundle.op_json:
        return []
    items = ctx.program.bundle.op_json[0].get("attr") or []
    out: list[tuple[str, str]] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            return []
        out.append((item["name"], str(item.get("type", ""))))
    return out


def _short(ctx: CheckContext, node: A.Node) -> str:
    s = span(node)
    if ctx.program is not None and s.line == s.end_line:
        line = ctx.program.line(s.file, s.line)
        if line is not None:
            text = line[s.col - 1:s.end_col - 1].strip()
            if text:
                return text if len(text) <= 40 else text[:37] + "..."
    return type(node).__name__.lower()
