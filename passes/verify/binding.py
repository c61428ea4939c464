"""The Python binding's C++ (MultiKernelBench `python_bind_src`, CppExtension/csrc/op.cpp): ATen calls that do
not compile. Project family (ASC8xx): a binding that does not build fails the whole answer."""

from __future__ import annotations

from frontend import ast as A
from passes.verify.project import calls, nodes, report_once, span
from passes.verify.rules import CheckContext, rule

# at::convNd(input, weight, bias, stride, padding, dilation, groups): the padding parameter (index 4) also
# has a c10::string_view overload ("same"/"valid")
_CONV_PADDING_INDEX = {"conv1d": 4, "conv2d": 4, "conv3d": 4}


def _is_zero(node: A.Node) -> bool:
    return isinstance(node, A.IntLit) and node.value == 0


@rule(
    "ASC811", "aten-conv-padding-ambiguous", "project",
    summary="at::conv1d/2d/3d with a padding of `{0}` or `{0, 0}`: the call is ambiguous and does not compile.",
    why="ATen declares each convNd twice: with `IntArrayRef padding` and with `c10::string_view padding` "
        "(\"same\", \"valid\"). A braced list whose first element is the literal 0 converts to both: to an "
        "IntArrayRef, and to string_view(const char*, size_t) with 0 as a null pointer. g++ reports \"call of "
        "overloaded 'conv2d(...)' is ambiguous\" and the extension does not build.",
    example="at::conv2d(x, weight, bias, {1, 1}, {0, 0}, {1, 1}, 1);",
    instead="const int64_t noPadding[2] = {0, 0};\n"
            "at::conv2d(x, weight, bias, {1, 1}, at::IntArrayRef(noPadding, 2), {1, 1}, 1);",
)
def aten_conv_padding_ambiguous(ctx: CheckContext) -> None:
    for call in calls(nodes(ctx, "python_bind"), *_CONV_PADDING_INDEX):
        index = _CONV_PADDING_INDEX[call.callee_name or ""]
        callee = call.callee
        qualified = isinstance(callee, A.Name) and [p.name for p in callee.qname.parts[:-1]] in (["at"], ["torch"])
        if not qualified or len(call.args) <= index:
            continue
        padding = call.args[index]
        if isinstance(padding, A.InitList) and 1 <= len(padding.items) <= 2 and _is_zero(padding.items[0]):
            shown = "{0}" if len(padding.items) == 1 else "{0, ...}"
            report_once(ctx, span(padding), f"padding {shown} makes this {call.callee_name} call ambiguous: it "
                        "converts to IntArrayRef and to c10::string_view (0 as a null pointer)")
