"""The ops repositories' tiling-template framework, for host code that registers tiling classes with it.

Vendor op hosts (LayerNormV4, BatchNormV3, DequantSwigluQuant in NPUKernelBench) derive their tiling classes
from `TilingBaseClass` (`tiling/tiling_base.h`), register them per op with `REGISTER_TILING_TEMPLATE("Op",
Class, priority)` and make the tiling function `return TilingRegistry::GetInstance().DoTilingImpl(context);`
(`tiling/tiling_templates_registry.h`). Neither header ships with an answer. Their documented behaviour:

- `TilingBaseClass(context)` keeps the context in the protected member `context_`; `DoTiling()` runs the hooks
  GetShapeAttrsInfo, GetPlatformInfo, IsCapable, DoOpTiling, DoLibApiTiling, GetWorkspaceSize, PostTiling in
  turn, returning the first status that is not GRAPH_SUCCESS (GRAPH_PARAM_INVALID when IsCapable is false:
  "this class does not support it, try the next"), then sets the tiling key from GetTilingKey();
- `DoTilingImpl(context)` tries the classes registered for the context's op type (`GetNodeType()`) by ascending
  priority (a std::map per op type keyed by it, filled as the registrations run at static initialisation),
  each built from the context, and returns the first DoTiling status that is not GRAPH_PARAM_INVALID, or
  GRAPH_FAILED when none takes the case. (ops-nn's `common/inc/op_host/tiling_templates_registry.h`; a
  project that builds another op's tiling sources too, as ops-nn batch_mat_mul_v3 does mat_mul_v3's, registers
  templates of both ops, at the same priorities.)

When a program registers templates, or derives a class from TilingBaseClass, and defines no TilingBaseClass
of its own, this module adds both classes (with the base's members tilingKey_, workspaceSize_, blockDim_, aicoreParams_)
as source we write here (the registry's DoTilingImpl spelled out for the classes registered), so the host
lowering runs them like any class. The log-only DumpTilingInfo hook is left out.
"""

from __future__ import annotations

from frontend import ast as A

BASE_CLASS = "TilingBaseClass"
_HOOKS = ("GetShapeAttrsInfo", "GetPlatformInfo", None, "DoOpTiling", "DoLibApiTiling", "GetWorkspaceSize",
          "PostTiling")
SOURCE_NAME = "<tiling framework>"
REGISTRY_CLASS = "TilingTemplateRegistry"
# The base's DoTiling under a name of ours, which the registry calls. The registry holds its templates as
# TilingBaseClass pointers and the base's DoTiling is not virtual, so it runs the base's steps even for a template
# declaring a DoTiling() of its own, which only hides it (ops-nn max_pool3d_with_argmax_v2's ksize-one template:
# `void DoTiling()`, a helper of its DoOpTiling). The lowering finds a method on the most derived class first.
BASE_STEPS = "TilingBaseClassDoTiling"
PARAMS_STRUCT = "AiCoreParams"
_PARAMS_SOURCE = (
    f"struct {PARAMS_STRUCT} {{\n    uint64_t ubSize = 0;\n    uint64_t blockDim = 0;\n    uint64_t numBlocks = 0;\n"
    "    uint64_t aicNum = 0;\n    uint64_t l1Size = 0;\n    uint64_t l0aSize = 0;\n    uint64_t l0bSize = 0;\n"
    "    uint64_t l0cSize = 0;\n};\n\n"
)


def is_registration(d: A.Node) -> bool:
    """`REGISTER_TILING_TEMPLATE("Op", Class, priority)` (and the REGISTER_OPS_ / per-arch spellings)."""
    return isinstance(d, A.MacroDecl) and d.name.startswith("REGISTER_") and d.name.endswith("TILING_TEMPLATE") \
        and len(d.args) >= 3


def registered(d: A.MacroDecl) -> tuple[str | None, int, str] | None:
    """(op type, priority, class name) of a registration, or None when the priority or the class is not written
    plainly; the op type is a string literal (`"MatMulV3"`) or, in the ops' own spellings, a bare name
    (`MM_REGISTER_TILING_TEMPLATE(MatMulV3, ...)`), else None."""
    op_arg, cls, prio = d.args[0], d.args[1], d.args[2]
    if isinstance(op_arg, A.TypeArgExpr):
        op_arg = op_arg.type
    op = op_arg.value if isinstance(op_arg, A.StringLit) else op_arg.qname.parts[-1].name \
        if isinstance(op_arg, A.Name) else op_arg.base.parts[-1].name \
        if isinstance(op_arg, A.TypeRef) and isinstance(op_arg.base, A.QualifiedName) else None
    if isinstance(cls, A.TypeArgExpr):
        cls = cls.type
    name = cls.qname.parts[-1].name if isinstance(cls, A.Name) else (
        cls.base.parts[-1].name if isinstance(cls, A.TypeRef) and isinstance(cls.base, A.QualifiedName) else None)
    if isinstance(prio, A.Unary) and prio.op == "-" and isinstance(prio.operand, A.IntLit):
        value: int | None = -prio.operand.value
    else:
        value = prio.value if isinstance(prio, A.IntLit) else None
    return None if name is None or value is None else (op, value, name)


def source(classes: dict[str | None, list[str]], with_params: bool = True) -> str:
    """The framework's two classes, with DoTilingImpl trying the classes registered for the context's op type in
    order (`classes`: by op type; a single op type's are tried for any), and the AiCoreParams struct of the
    base's aicoreParams_, unless `with_params` is false: the program defines it."""
    steps = []
    for hook in _HOOKS:
        if hook is None:
            steps.append("        if (!this->IsCapable()) {\n            return ge::GRAPH_PARAM_INVALID;\n        }")
        else:
            steps.append(f"        ret = this->{hook}();\n        if (ret != ge::GRAPH_SUCCESS) {{\n"
                         "            return ret;\n        }")
    counter = iter(range(sum(len(v) for v in classes.values())))

    def tried(names: list[str]) -> str:
        return "".join(
            f"        {{\n            {cls} tiling{k}(context);\n"
            f"            ge::graphStatus status{k} = tiling{k}.{BASE_STEPS}();\n"
            f"            if (status{k} != ge::GRAPH_PARAM_INVALID) {{\n"
            f"                return status{k};\n            }}\n"
            "        }\n" for cls in names for k in (next(counter),))

    if len(classes) == 1:  # (one op type: the one the tiling runs for; its name need not be known)
        tries = tried(next(iter(classes.values())))
    else:
        tries = "        const char *opType = context->GetNodeType();\n" + "".join(
            f"        if (strcmp(opType, \"{op}\") == 0) {{\n{tried(names)}        }}\n"
            for op, names in classes.items() if op is not None)
    return (
        (_PARAMS_SOURCE if with_params else "")
        + f"class {BASE_CLASS} {{\npublic:\n"
        f"    explicit {BASE_CLASS}(gert::TilingContext *context) : context_(context) {{}}\n"
        "    ge::graphStatus DoTiling()\n    {\n"
        f"        return this->{BASE_STEPS}();\n    }}\n"
        f"    ge::graphStatus {BASE_STEPS}()\n    {{\n        ge::graphStatus ret = ge::GRAPH_SUCCESS;\n"
        + "\n".join(steps)
        + "\n        context_->SetTilingKey(this->GetTilingKey());\n        return ge::GRAPH_SUCCESS;\n    }\n"
        # the members the framework's TilingBaseClass gives its subclasses (the steps set tilingKey_ and
        # workspaceSize_ and return them from GetTilingKey / GetWorkspaceSize; aicoreParams_ holds the platform's)
        "protected:\n    gert::TilingContext *context_;\n    uint32_t blockDim_ = 0;\n"
        "    uint64_t workspaceSize_ = 0;\n    uint64_t tilingKey_ = 0;\n"
        f"    {PARAMS_STRUCT} aicoreParams_;\n}};\n\n"
        f"class {REGISTRY_CLASS} {{\npublic:\n"
        "    ge::graphStatus DoTilingImpl(gert::TilingContext *context)\n    {\n"
        + tries
        + "        return ge::GRAPH_FAILED;\n    }\n};\n\n"
        # (the registry's static GetInstance() as a function of a namespace of its name: the same call)
        f"namespace TilingRegistry {{\n{REGISTRY_CLASS} GetInstance()\n{{\n"
        f"    {REGISTRY_CLASS} registry;\n    return registry;\n}}\n}}\n"
    )


def unit_for(registrations: list[A.MacroDecl], derived: bool = False,
             with_params: bool = True) -> A.TranslationUnit | None:
    """The framework's classes as a parsed unit, for the classes `registrations` name (per op type, by priority;
    the first registration of an op type's priority wins, as TilingCases::AddTiling keeps it). With no
    registration, only where a class of the program derives from TilingBaseClass (`derived`: a host that runs
    `XTiling(context).DoTiling()` itself, as ops-math's stateless_random_uniform_v2)."""
    from frontend.parser import get_parser

    by_op: dict[str | None, dict[int, str]] = {}
    for d in registrations:
        found = registered(d)
        if found is not None:
            by_op.setdefault(found[0], {}).setdefault(found[1], found[2])
    if not by_op and not derived:
        return None
    classes = {op: [cases[p] for p in sorted(cases)] for op, cases in by_op.items()} or {None: []}
    return get_parser().parse(source(classes, with_params), SOURCE_NAME).unit
