"""SetBlockDim missing (ASC906): the host tiling function never calls it, returns success on a path that does
not, or a tiling class registered with the op's tiling registry (REGISTER_OPS_TILING_TEMPLATE) runs its steps
without one setting it. The path analysis is host_block_dim_paths.py's.
"""

from __future__ import annotations

from dataclasses import dataclass

from frontend import ast as A
from frontend.diagnostics import Note, Severity
from passes.verify.host_block_dim_paths import BLOCK_DIM_SETTERS, BlockDimPaths
from passes.verify.host_gert_types import HOST_ROLES
from passes.verify.project import class_members, functions, name_of, nodes, report_once, span
from passes.verify.rules import CheckContext, rule


@rule(
    "ASC906", "set-block-dim-missing", "host",
    summary="The host tiling function never calls SetBlockDim, or returns success on a path that does not "
            "(directly or through a helper that sets it on every path it returns normally).",
    why="The kernel is launched on as many cores as the tiling function asks with SetBlockDim; without it "
        "the launch has no valid block count and fails, or runs a single core that writes one slice. A tiling "
        "class registered with the op's tiling registry (REGISTER_OPS_TILING_TEMPLATE) is run step by step "
        "(GetShapeAttrsInfo ... PostTiling), and one of its steps must set it. A call that hands the context "
        "to code the checker does not have (a base class it cannot see) counts as setting it, and switch "
        "statements are not followed.",
    example="static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n    if (total == 0) { "
            "tiling.set_tileNum(0); }   // no SetBlockDim here\n    else { context->SetBlockDim(coreNum); }\n"
            "    return ge::GRAPH_SUCCESS;\n}",
    instead="if (total == 0) { tiling.set_tileNum(0); context->SetBlockDim(1); }",
    severity=Severity.WARNING,
)
def set_block_dim_missing(ctx: CheckContext) -> None:
    tiling_funcs = [fn for fn in functions(ctx, "host") if any(name_of(p.type) == "TilingContext" for p in fn.params)]
    if not tiling_funcs:
        return
    if not any(isinstance(node, A.Member) and node.member in BLOCK_DIM_SETTERS for node in nodes(ctx, *HOST_ROLES)):
        fn = tiling_funcs[0]
        report_once(ctx, span(fn.name), f"'{fn.name.parts[-1].name}' never calls SetBlockDim")
        return
    # SetBlockDim is called somewhere: each registered tiling function must reach it before returning success
    by_name: dict[str, list[A.FunctionDecl]] = {}  # functions and methods by their own name
    for fn in functions(ctx, *HOST_ROLES):
        by_name.setdefault(fn.name.parts[-1].name, []).append(fn)
    paths = BlockDimPaths(by_name, _free_functions(ctx))
    for entry in _registered_tiling_functions(ctx):
        for fn in by_name.get(entry, []):
            unset = paths.unset_success_return(fn)
            if unset is None:
                continue
            report_once(ctx, span(unset), f"'{entry}' returns success here without calling SetBlockDim on this path",
                        Note("the tiling function sets the block count on its other paths; this one launches the "
                             "kernel with none", kind="note"))
    # and so must each tiling class registered as a template of the op's tiling registry
    for template in _tiling_templates(ctx):
        unset = _template_unset_return(template, by_name, paths.free)
        if unset is not None:
            report_once(ctx, span(unset), f"tiling template '{template.name}' returns success here, and none of "
                        "its tiling steps calls SetBlockDim on the way",
                        Note("the registry runs GetShapeAttrsInfo, GetPlatformInfo, IsCapable, DoOpTiling, "
                             "DoLibApiTiling, GetWorkspaceSize and PostTiling in turn; one of them must set the "
                             "block count", kind="note"))


def _registered_tiling_functions(ctx: CheckContext) -> list[str]:
    """Functions registered as an op's tiling: `this->AICore().SetTiling(optiling::F)` in an OpDef,
    `IMPL_OP_OPTILING(Op).Tiling(F)`."""
    out: list[str] = []
    for node in nodes(ctx, *HOST_ROLES):
        if not isinstance(node, A.Call) or len(node.args) != 1 or not isinstance(node.args[0], A.Name):
            continue
        callee = node.callee
        method = (callee.member if isinstance(callee, A.Member)
                  else callee.qname.parts[-1].name if isinstance(callee, A.Name) else None)
        if method in ("SetTiling", "Tiling"):  # (the chain of IMPL_OP_OPTILING(Op) holds `Tiling(F)` calls)
            name = node.args[0].qname.parts[-1].name
            if name not in out:
                out.append(name)
    return out


# The tiling framework's base class (tiling_base.h of the ops repositories): its DoTiling calls these hooks
# in turn, each returning a status (IsCapable a bool), then sets the tiling key. It never sets the block count.
_TILING_BASE = "TilingBaseClass"
_TILING_HOOKS = ("GetShapeAttrsInfo", "GetPlatformInfo", "IsCapable", "DoOpTiling", "DoLibApiTiling",
                 "GetWorkspaceSize", "PostTiling")


@dataclass
class _TilingTemplate:
    """A tiling class registered for an op (REGISTER_OPS_TILING_TEMPLATE(Op, Class, priority)) with the
    methods it runs: its own and those of its bases, the most derived first."""

    name: str
    methods: dict[str, A.FunctionDecl]


def _tiling_templates(ctx: CheckContext) -> list[_TilingTemplate]:
    """The registered tiling classes whose every base is seen, up to the framework's TilingBaseClass (a base
    we do not have may set the block count itself), and which keep the framework's DoTiling."""
    classes: dict[str, A.ClassDecl] = {}
    outside: dict[str, dict[str, A.FunctionDecl]] = {}  # `Class::Method` definitions
    registered: list[A.MacroDecl] = []
    for node in nodes(ctx, *HOST_ROLES):
        if isinstance(node, A.ClassDecl) and node.name and node.is_definition:
            classes.setdefault(node.name, node)
        elif isinstance(node, A.FunctionDecl) and node.body is not None and len(node.name.parts) >= 2:
            outside.setdefault(node.name.parts[-2].name, {})[node.name.parts[-1].name] = node
        elif isinstance(node, A.MacroDecl) and "TILING_TEMPLATE" in node.name and node.name.startswith("REGISTER_"):
            registered.append(node)
    out: list[_TilingTemplate] = []
    for macro in registered:
        name = next((name_of(a) for a in macro.args[1:] if name_of(a) in classes), None)
        if name is None or any(t.name == name for t in out):
            continue
        methods: dict[str, A.FunctionDecl] = {}
        current: str | None = name
        while current is not None and current != _TILING_BASE:
            decl = classes.get(current)
            if decl is None or len(decl.bases) != 1:
                methods = {}
                break
            for member in class_members(decl):
                if isinstance(member, A.FunctionDecl) and member.body is not None:
                    methods.setdefault(member.name.parts[-1].name, member)
            for method, fn in outside.get(current, {}).items():
                methods.setdefault(method, fn)
            current = name_of(decl.bases[0])
        if methods and "DoTiling" not in methods:
            out.append(_TilingTemplate(name, methods))
    return out


def _template_unset_return(template: _TilingTemplate, by_name: dict[str, list[A.FunctionDecl]],
                           free: dict[str, list[A.FunctionDecl]]) -> A.Node | None:
    """A success return of the template's DoOpTiling (or its last hook) reached on a run of the framework's
    DoTiling where no hook called SetBlockDim: every hook has a success path without it. None when a hook
    sets it on all its success paths, or may (through code we do not have, a return not judged)."""
    paths = BlockDimPaths(by_name, free, methods=template.methods, context_members=("context_",))
    unset_returns: dict[str, A.Node] = {}
    for hook in _TILING_HOOKS:
        fn = template.methods.get(hook)
        if fn is None or fn.body is None:
            return None  # a pure virtual left undefined: not a class that builds
        if hook == "IsCapable":
            if paths.sets_anywhere(fn):
                return None
            continue
        unset = paths.unset_success_return(fn)
        if unset is None:
            return None
        unset_returns[hook] = unset
    return unset_returns.get("DoOpTiling") or unset_returns["PostTiling"]


def _free_functions(ctx: CheckContext) -> dict[str, list[A.FunctionDecl]]:
    """Host functions defined outside any class, by name (what a plain `F(...)` outside a class calls)."""
    methods = {id(m) for node in nodes(ctx, *HOST_ROLES) if isinstance(node, A.ClassDecl)
               for m in class_members(node) if isinstance(m, A.FunctionDecl)}
    out: dict[str, list[A.FunctionDecl]] = {}
    for fn in functions(ctx, *HOST_ROLES):
        if len(fn.name.parts) == 1 and id(fn) not in methods:
            out.setdefault(fn.name.parts[0].name, []).append(fn)
    return out
