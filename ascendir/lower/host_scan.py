"""Finding the host functions: the tiling function the OpDef registers (`.SetTiling(f)`, `.Tiling(f)`, else one
taking a `gert::TilingContext*` named like one), the InferShape function, and the structs used as tiling
data (`GetTilingData<S>()`), in one walk over the host sources.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ascendir.lower.astwalk import walk
from frontend import ast as A


def find_tiling_function(units: Sequence[A.TranslationUnit]) -> A.FunctionDecl | None:
    """The function the OpDef registers with `.SetTiling(f)` / `.Tiling(f)`, else a function taking a
    `gert::TilingContext*` named TilingFunc, else one with "Tiling" in its name."""
    return scan_units(units).function


def find_infer_shape_function(units: Sequence[A.TranslationUnit]) -> A.FunctionDecl | None:
    """The function the OpDef registers with `.SetInferShape(f)`, else a function taking a
    `gert::InferShapeContext*` named InferShape, else one with "InferShape" in its name (any case)."""
    return scan_units(units).infer_shape


@dataclass
class HostScan:
    """What one walk over the host sources finds."""

    function: A.FunctionDecl | None
    tiling_data_args: set[str]  # S of every GetTilingData<S>()
    infer_shape: A.FunctionDecl | None = None
    # the template arguments the registration gives a function template (`SetTiling(TilingFunc<F>)`)
    function_template_args: list[A.TemplateArg] = field(default_factory=list)


def _chain_method(call: A.Call) -> str | None:
    """The method a registration call names: `x.Tiling(f)`, or `.Tiling(f)` in the chain after a macro
    (`IMPL_OP_OPTILING(Op).Tiling(f)`, whose chain calls the parser keeps with a plain name as callee)."""
    if isinstance(call.callee, A.Member):
        return call.callee.member
    if isinstance(call.callee, A.Name):
        return call.callee.qname.parts[-1].name
    return None


def scan_units(units: Sequence[A.TranslationUnit]) -> HostScan:
    candidates: dict[str, A.FunctionDecl] = {}
    infer_candidates: dict[str, A.FunctionDecl] = {}
    registered: list[str] = []
    registered_targs: dict[str, list[A.TemplateArg]] = {}
    registered_infer: list[str] = []
    tiling_data_args: set[str] = set()
    for node in walk(list(units)):
        if isinstance(node, A.FunctionDecl) and node.body is not None and _takes_context(node):
            if node.kind == "function":  # (a tiling class's constructor taking the context is no tiling function)
                candidates.setdefault(node.name.parts[-1].name, node)
        elif isinstance(node, A.FunctionDecl) and node.body is not None and \
                _takes_context(node, "InferShapeContext"):
            infer_candidates.setdefault(node.name.parts[-1].name, node)
        elif isinstance(node, A.Call) and _chain_method(node) in ("SetTiling", "Tiling") and node.args and \
                isinstance(node.args[0], A.Name):
            registered.append(node.args[0].qname.parts[-1].name)
            registered_targs.setdefault(registered[-1], list(node.args[0].qname.parts[-1].template_args or []))
        elif isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.args and \
                node.callee.member == "SetInferShape" and isinstance(node.args[0], A.Name):
            registered_infer.append(node.args[0].qname.parts[-1].name)
        elif isinstance(node, A.Member) and node.member == "GetTilingData" and node.template_args:
            value = node.template_args[0].value
            if isinstance(value, A.TypeRef) and isinstance(value.base, A.QualifiedName):
                tiling_data_args.add(value.base.parts[-1].name)
            elif isinstance(value, A.Name):
                tiling_data_args.add(value.qname.parts[-1].name)
    # a folder registering several ops' tilings (rms_norm: RmsNorm and GemmaRmsNorm) runs the one of the op it
    # defines (OP_ADD), whatever order the registrations come in
    registered = _op_added_tilings(units) + registered
    function = next((candidates[n] for n in registered if n in candidates), candidates.get("TilingFunc"))
    if function is None:
        function = next((fn for n, fn in candidates.items() if "tiling" in n.lower()), None)
    infer_shape = next((infer_candidates[n] for n in registered_infer if n in infer_candidates),
                       infer_candidates.get("InferShape"))
    if infer_shape is None:
        infer_shape = next((fn for n, fn in infer_candidates.items() if "infershape" in n.lower()), None)
    targs = registered_targs.get(function.name.parts[-1].name, []) if function is not None else []
    return HostScan(function, tiling_data_args, infer_shape, targs)


def _op_added_tilings(units: Sequence[A.TranslationUnit]) -> list[str]:
    """The tiling functions `IMPL_OP_OPTILING(Op).Tiling(f)` registers for the ops the units OP_ADD."""
    added: list[str] = []
    by_op: dict[str, str] = {}
    for node in walk(list(units)):
        if not isinstance(node, A.MacroDecl) or not node.args:
            continue
        op = _macro_name(node.args[0])
        if op is None:
            continue
        if node.name == "OP_ADD":
            added.append(op)
        elif node.name == "IMPL_OP_OPTILING":
            for call in node.chain:
                if _chain_method(call) in ("SetTiling", "Tiling") and call.args and isinstance(call.args[0], A.Name):
                    by_op.setdefault(op, call.args[0].qname.parts[-1].name)
    return [by_op[op] for op in added if op in by_op]


def _macro_name(arg: object) -> str | None:
    """A macro argument that names an op: `RmsNorm` as a name or as a type."""
    if isinstance(arg, A.TypeArgExpr):
        arg = arg.type
    if isinstance(arg, A.TypeRef) and isinstance(arg.base, A.QualifiedName):
        return arg.base.parts[-1].name
    if isinstance(arg, A.Name):
        return arg.qname.parts[-1].name
    return None


def _takes_context(fn: A.FunctionDecl, context: str = "TilingContext") -> bool:
    if len(fn.params) != 1 or len(fn.name.parts) > 1:
        return False  # methods defined out of class (`Tiling::Run(ctx)`) are reached through their class
    base = fn.params[0].type.base
    return isinstance(base, A.QualifiedName) and base.parts[-1].name == context
