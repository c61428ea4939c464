"""The Python binding's C++ (MultiKernelBench `python_bind_src`, CppExtension/csrc/op.cpp): ATen calls that do
not compile, and calls of built-in aclnn operators that do not fit their signature. Project family (ASC8xx): a
binding that does not build or run fails the whole answer."""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from pathlib import Path

from ascendir.binding_args import binding_initialisers, op_binding_call  # noqa: F401  (this module's before)
from frontend import ast as A
from frontend.diagnostics import Note
from passes.verify.project import calls, functions, name_of, nodes, op_info, report_once, span
from passes.verify.rules import CheckContext, rule

if sys.version_info >= (3, 11):
    import tomllib
else:  # python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

BUILTIN_ACLNN = Path(__file__).with_name("data") / "aclnn_builtin.toml"

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


# ------------------------------------------------------------------ built-in aclnn operators


@dataclass(frozen=True)
class BuiltinOp:
    """One built-in aclnn operator: the parameters of aclnn<Op>GetWorkspaceSize before workspaceSize/executor."""

    name: str
    params: tuple[tuple[str, str], ...]  # (name, kind)
    header: str
    experimental: bool = False

    def signature(self) -> str:
        return "(" + ", ".join(f"{name}: {kind}" for name, kind in self.params) + ")"


@functools.lru_cache(maxsize=1)
def builtin_aclnn() -> dict[str, BuiltinOp]:
    """The catalog of built-in aclnn signatures (data/aclnn_builtin.toml, made by tools/aclnn_signatures.py)."""
    with open(BUILTIN_ACLNN, "rb") as fh:
        raw = tomllib.load(fh)
    return {name: BuiltinOp(name, tuple((p["name"], p["kind"]) for p in entry.get("params", [])),
                            entry.get("header", ""), bool(entry.get("experimental", False)))
            for name, entry in raw.items()}


# a binding variable's C++ type -> the kind of value EXEC_NPU_CMD hands on for it
_BINDING_KINDS = {
    **dict.fromkeys(("at::Tensor", "torch::Tensor", "Tensor"), "tensor"),
    **dict.fromkeys(("at::Scalar", "c10::Scalar", "torch::Scalar", "Scalar"), "scalar"),
    **dict.fromkeys(("at::IntArrayRef", "c10::IntArrayRef", "torch::IntArrayRef", "IntArrayRef"), "int_array"),
    **dict.fromkeys(("at::ScalarType", "c10::ScalarType", "torch::ScalarType", "ScalarType", "aclDataType"),
                    "number"),
    **dict.fromkeys(("bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
                     "unsigned", "long", "unsigned long", "long long", "unsigned long long", "float", "double",
                     "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
                     "size_t", "std::int64_t", "std::int32_t", "std::size_t"), "number"),
}
# which parameter kinds each binding kind fits (a parameter of kind "other" is not checked)
_FITS = {
    "tensor": {"tensor"},
    "scalar": {"scalar"},
    "int_array": {"int_array"},
    "number": {"int", "float", "bool", "dtype"},
}
_TENSOR_FACTORIES = {"empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
                     "empty_strided"}


def _binding_kind(written: A.TypeRef, init: A.Node | None = None) -> str | None:
    """The kind of a declared variable, or None when unknown (pointers, other classes, `auto` from a call
    that is not an at:: tensor factory)."""
    if any(p != "&" for p in written.pointers) or written.array_dims:
        return None
    base = written.base
    if isinstance(base, A.QualifiedName) and base.parts[-1].name == "optional" and base.parts[-1].template_args:
        inner = base.parts[-1].template_args[0].value  # c10::optional<at::Tensor> becomes a nullable aclTensor*
        return "tensor" if isinstance(inner, A.TypeRef) and _binding_kind(inner) == "tensor" else None
    if isinstance(base, A.QualifiedName) and any(p.template_args for p in base.parts):
        return None
    if written.name == "auto":
        callee = init.callee if isinstance(init, A.Call) else None
        if isinstance(callee, A.Name) and [p.name for p in callee.qname.parts[:-1]] in (["at"], ["torch"]) \
                and callee.qname.parts[-1].name in _TENSOR_FACTORIES:
            return "tensor"
        return None
    return _BINDING_KINDS.get(written.name)


def _declared_kinds(fn: A.FunctionDecl) -> dict[str, tuple[str, str]]:
    """name -> (kind, C++ type) of the function's parameters and locals; a name declared twice with different
    kinds (shadowing) is left out."""
    seen: dict[str, set[tuple[str, str] | None]] = {}
    for p in fn.params:
        if p.name:
            kind = _binding_kind(p.type)
            seen.setdefault(p.name, set()).add((kind, p.type.name) if kind else None)
    for node in fn.body.walk() if fn.body is not None else ():
        if isinstance(node, A.VarDecl):
            for d in node.declarators:
                kind = _binding_kind(d.type, d.init)
                seen.setdefault(d.name, set()).add((kind, d.type.name) if kind else None)
    return {name: only for name, ks in seen.items() if len(ks) == 1 for only in ks if only is not None}


def _fitting_variant(op: BuiltinOp, kinds: list[str | None]) -> BuiltinOp | None:
    """Another version of the operator (aclnnCumsumV2 for aclnnCumsum) whose parameters fit the arguments."""
    catalog = builtin_aclnn()
    for suffix in ("V2", "V3", "V4", "V5"):
        other = catalog.get(op.name + suffix)
        if other is None or other.experimental or len(other.params) != len(kinds):
            continue
        if all(k is None or pk == "other" or pk in _FITS[k] for k, (_, pk) in zip(kinds, other.params)):
            return other
    return None


@rule(
    "ASC813", "binding-builtin-aclnn-signature", "project",
    summary="EXEC_NPU_CMD calls a built-in aclnn operator with arguments that do not fit its signature.",
    why="EXEC_NPU_CMD(aclnnX, args...) passes its arguments, converted one by one (at::Tensor to aclTensor*, "
        "at::Scalar to aclScalar*, numbers unchanged), positionally to aclnnXGetWorkspaceSize(args..., "
        "&workspaceSize, &executor), through a pointer typed from the arguments themselves: nothing is checked "
        "at build time. One argument too many or too few shifts workspaceSize and executor, and a number where "
        "a tensor is expected is read as a pointer; the run fails with EZ1001 \"found nullptr\" or reads "
        "garbage. The parameters of the built-in operators are read from the vendor headers "
        "(passes/verify/data/aclnn_builtin.toml).",
    example="// aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype, aclTensor* out,"
            " ...)\nEXEC_NPU_CMD(aclnnCumsum, x, dim, exclusive, reverse, result);",
    instead="at::ScalarType dtype = x.scalar_type();\nEXEC_NPU_CMD(aclnnCumsum, x, dim, dtype, result);\n"
            "// or, for exclusive/reverse scans: EXEC_NPU_CMD(aclnnCumsumV2, x, dim, exclusive, reverse, result);",
)
def binding_builtin_aclnn_signature(ctx: CheckContext) -> None:
    op = op_info(ctx)
    own = f"aclnn{op.name}" if op is not None else None
    catalog = builtin_aclnn()
    for fn in functions(ctx, "python_bind"):
        declared: dict[str, tuple[str, str]] | None = None
        for call in fn.body.walk() if fn.body is not None else ():
            if not isinstance(call, A.Call) or call.callee_name != "EXEC_NPU_CMD" or not call.args:
                continue
            api = name_of(call.args[0])
            builtin = catalog.get(api or "")
            if builtin is None or builtin.experimental or api == own:
                continue
            if declared is None:
                declared = _declared_kinds(fn)
            _check_builtin_call(ctx, call, builtin, declared)


def _check_builtin_call(ctx: CheckContext, call: A.Call, op: BuiltinOp, declared: dict[str, tuple[str, str]]) -> None:
    args = call.args[1:]
    known = [declared.get(a.qname.parts[0].name) if isinstance(a, A.Name) and len(a.qname.parts) == 1 else None
             for a in args]
    kinds = [k[0] if k else None for k in known]
    notes = [Note(f"declared in {op.header}")] if op.header else []
    if len(args) != len(op.params):
        variant = _fitting_variant(op, kinds)
        if variant is not None:
            notes.append(Note(f"{variant.name} takes {variant.signature()}", kind="help"))
        report_once(ctx, span(call.args[0]), f"{op.name} takes {op.signature()}; EXEC_NPU_CMD passes "
                    f"{len(args)} argument{'s' if len(args) != 1 else ''}", *notes)
        return
    for index, (arg, info, (pname, pkind)) in enumerate(zip(args, known, op.params), start=1):
        if info is None or pkind == "other" or pkind in _FITS[info[0]]:
            continue
        report_once(ctx, span(arg), f"{op.name} takes {op.signature()}; argument {index} '{name_of(arg)}' is "
                    f"{_a(info[1])} where '{pname}' is {_a(pkind)}", *notes)


def _a(word: str) -> str:
    return ("an " if word[:1] in tuple("aeiou") else "a ") + word
