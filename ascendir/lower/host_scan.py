"""Finding the host functions: the tiling function the OpDef registers (`.SetTiling(f)`, `.Tiling(f)`, else one
taking a `gert::TilingContext*` named like one), the InferShape function, and the structs used as tiling
data (`GetTilingData<S>()`), in one walk over the host sources.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ascendir.lower.astwalk import walk
from frontend import ast as A

_ARCH_FOLDER = re.compile(r"(?:^|/)arch\d+/")  # an ops repository's per-architecture op_host folder


def find_tiling_function(units: Sequence[A.TranslationUnit], chip: str | None = None) -> A.FunctionDecl | None:
    """The function the OpDef registers with `.SetTiling(f)` / `.Tiling(f)`, else a function taking a
    `gert::TilingContext*` named TilingFunc, else one with "Tiling" in its name. `chip`: the chip the build is
    for (an op registering its tiling once per architecture folder runs that chip's)."""
    return scan_units(units, chip).function


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


def scan_units(units: Sequence[A.TranslationUnit], chip: str | None = None) -> HostScan:
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
    added = _op_added_tilings(units, chip)
    registered = [name for name, _ in added] + registered
    # the registration of the op the units define gives the template arguments: one function template may be
    # registered for several ops with other arguments (ops-nn swi_glu: SwiGlu's Tiling4SwiGlu<SWIGLU_SINGLE> and
    # SwiGluGrad's Tiling4SwiGlu<SWIGLU_GRAD_SINGLE>), and the first registration met need not be the op's
    for name, targs in reversed(added):
        registered_targs[name] = targs
    function = next((candidates[n] for n in registered if n in candidates), candidates.get("TilingFunc"))
    if function is None:
        function = next((fn for n, fn in candidates.items() if "tiling" in n.lower()), None)
    infer_shape = next((infer_candidates[n] for n in registered_infer if n in infer_candidates),
                       infer_candidates.get("InferShape"))
    if infer_shape is None:
        infer_shape = next((fn for n, fn in infer_candidates.items() if "infershape" in n.lower()), None)
    targs = registered_targs.get(function.name.parts[-1].name, []) if function is not None else []
    return HostScan(function, tiling_data_args, infer_shape, targs)


def _op_added_tilings(units: Sequence[A.TranslationUnit], chip: str | None = None
                      ) -> list[tuple[str, list[A.TemplateArg]]]:
    """The tiling functions `IMPL_OP_OPTILING(Op).Tiling(f)` registers for the ops the units OP_ADD. An op may
    register one per architecture folder (ops-nn deep_norm: op_host/arch22 and op_host/arch35, each
    `IMPL_OP_OPTILING(DeepNorm)`): the ops repositories' build compiles, of the tiling sources in such folders,
    only those of the folder its CMakeLists pairs with the SoC built for (add_modules_sources' COMPUTE_UNIT /
    TILING_DIR; arch35 for ascend950). The folder names that say an architecture (ascendir.chips.folder_arch)
    rank the registrations: `chip`'s own folder first, then one in no such folder, another architecture's last.
    Each with the template arguments the registration gives it (`.Tiling(Tiling4SwiGlu<SWIGLU_SINGLE>)`)."""
    added: list[str] = []
    found: dict[str, list[tuple[int, str, list[A.TemplateArg]]]] = {}
    arch = _chip_arch(chip)
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
                    last = call.args[0].qname.parts[-1]
                    found.setdefault(op, []).append((_build_rank(node.span.file, arch), last.name,
                                                     list(last.template_args or [])))
    best = [min(found[op], key=lambda hit: hit[0]) for op in added if op in found]
    return [(name, targs) for _, name, targs in best]


def built_units(units: Sequence[A.TranslationUnit], chip: str | None) -> list[A.TranslationUnit]:
    """The host sources the build for `chip` compiles: those in another architecture's folder (ops-nn's
    op_host/arch35 on a 910B) left out, when the rest still hold a tiling function; else all of them. (Both
    folders may define a struct of one name: deep_norm's DeepNormTilingData is a TILING_DATA_DEF in
    op_host/arch22/deep_norm_tiling.h and a plain struct in op_kernel/arch35/deep_norm_tiling_data.h.)"""
    arch = _chip_arch(chip)
    own = [u for u in units if _build_rank(u.file, arch) < 2]
    if arch is None or len(own) == len(units) or scan_units(own, chip).function is None:
        return list(units)
    return own


def _chip_arch(chip: str | None) -> int | None:
    from ascendir.chips import UnknownChipError, load_chip

    try:
        return load_chip(chip).npu_arch if chip is not None else None
    except UnknownChipError:
        return None


def _build_rank(file: str, arch: int | None) -> int:
    """0: a source in the folder of the architecture built for; 1: in no architecture's folder; 2: another's. The
    ops repositories name the 950's tiling folder arch35 (ascendir.chips.folder_arch); their other `archNN`
    folders (deep_norm's arch22: ascend910b, ascend910_93, ascend310p, ...) are builds of other chips than it."""
    from ascendir.chips import folder_arch

    built_for = folder_arch(file)
    if built_for is not None:
        return 0 if built_for == arch else 2
    if arch is not None and arch == folder_arch("arch35/f.cpp") and _ARCH_FOLDER.search(file.replace("\\", "/")):
        return 2
    return 1


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
