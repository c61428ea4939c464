"""Project rules on the tiling struct that host and kernel share (ASC8xx): a field the definition does not
declare (ASC803), a field the kernel reads that the host never sets (ASC804), and a constant tiling key the
host sets that no TILING_KEY_IS branch of the kernel handles (ASC805).
"""

from __future__ import annotations

from collections.abc import Iterator

from ascendir.dialects import ascendc as asc
from ascendir.lower import MISSING_INCLUDE
from frontend import ast as A
from frontend.diagnostics import Note, Severity
from passes.verify.ir import ops_of_kind
from passes.verify.project_facts import (
    calls,
    const_int,
    functions,
    legacy_tiling_defs,
    name_of,
    nodes,
    report_once,
    span,
    tiling_structs,
)
from passes.verify.rules import CheckContext, rule


def _defined_twice(ctx: CheckContext) -> set[str]:
    """Class names the program defines more than once (pool_3d_common's Pool3D::ShapeInfo and
    GatherIndexImpl::ShapeInfo): the lowering does not keep namespaces apart, so their fields are mixed."""
    seen: dict[str, int] = {}
    for node in nodes(ctx):
        if isinstance(node, A.ClassDecl) and node.name and node.is_definition:
            seen[node.name] = seen.get(node.name, 0) + 1
    return {name for name, count in seen.items() if count > 1}


@rule(
    "ASC803", "tiling-field-undeclared", "project",
    summary="The kernel reads, or the host sets, a tiling field the tiling definition does not declare.",
    why="The kernel and the host share the tiling struct's layout only through its definition. A field it "
        "lacks does not compile on the host (\"has no member named 'set_x'\") or in the kernel (GET_TILING_DATA "
        "expands to that struct), typically after a field was renamed in one file only.",
    example="BEGIN_TILING_DATA_DEF(T) TILING_DATA_FIELD_DEF(uint32_t, tileLength); END_TILING_DATA_DEF;\n"
            "op.Init(x, y, td.tileLen);        // kernel\ntiling.set_tileNum(4);            // host",
    instead="op.Init(x, y, td.tileLength);\ntiling.set_tileLength(4);",
)
def tiling_field_undeclared(ctx: CheckContext) -> None:
    structs = tiling_structs(ctx)
    if not structs:
        return
    reported: set[tuple[str, str, int]] = set()
    twice: set[str] | None = None
    for op in ops_of_kind(ctx, (asc.TilingFieldOp,)):
        t = op.tiling.type
        if not isinstance(t, asc.TilingType):
            continue
        struct = t.type_name.data
        fields = structs.get(struct)
        if not fields:
            continue
        if twice is None:
            twice = _defined_twice(ctx)
        if struct in twice:
            continue  # two structs of that name in different namespaces: which one this is, is not known here
        first = op.field.data.split(".")[0]
        if first in {f for f, _ in fields}:
            continue
        where = op.location
        key = (struct, first, getattr(getattr(where, "line", None), "data", 0))
        if key in reported:
            continue
        reported.add(key)
        report_once(ctx, op, f"tiling field '{first}' is not declared in '{struct}'",
                   Note("declared: " + ", ".join(f for f, _ in fields), kind="note"))
    # host side: `tiling.set_x(v)` on a legacy tiling struct
    defs = legacy_tiling_defs(ctx)
    if not defs:
        return
    members, method_class = _tiling_members(ctx, defs)
    for fn in functions(ctx, "host", "tiling_header", "header"):
        if fn.body is None:
            continue
        owner = method_class.get(id(fn)) or (fn.name.parts[-2].name if len(fn.name.parts) >= 2 else None)
        typed = {**members.get(owner or "", {}), **_tiling_vars(fn, defs)}
        if not typed:
            continue
        for node in fn.body.walk():
            if not (isinstance(node, A.Call) and isinstance(node.callee, A.Member)):
                continue
            member = node.callee.member
            var = name_of(node.callee.obj)
            if var is None or var not in typed or not member.startswith("set_"):
                continue
            struct = typed[var]
            names = {f.name for f in defs[struct].fields}
            if member[4:] not in names:
                report_once(ctx, span(node.callee), f"'{struct}' has no field '{member[4:]}' ({member} is not "
                           "generated)", Note("declared: " + ", ".join(f.name for f in defs[struct].fields)))


def class_members(cls: A.ClassDecl) -> Iterator[A.Node]:
    """The members of a class, a member template as the declaration it templates."""
    for m in cls.members:
        yield m.decl if isinstance(m, A.TemplateDecl) else m


def _tiling_members(ctx: CheckContext, defs: dict[str, A.TilingDataDef]
                    ) -> tuple[dict[str, dict[str, str]], dict[int, str]]:
    """Member variables of a legacy tiling struct type per host class (`HansEncodeTilingData tilingData;` in a
    tiling class whose methods call tilingData.set_x), and the class of each method defined in its body."""
    members: dict[str, dict[str, str]] = {}
    method_class: dict[int, str] = {}
    for cls in nodes(ctx, "host", "tiling_header", "header"):
        if not isinstance(cls, A.ClassDecl) or not cls.name:
            continue
        for m in class_members(cls):
            if isinstance(m, A.VarDecl):
                _add_tiling_typed(m, defs, members.setdefault(cls.name, {}))
            elif isinstance(m, A.FunctionDecl) and m.body is not None:
                method_class[id(m)] = cls.name
    return members, method_class


def _tiling_vars(fn: A.FunctionDecl, defs: dict[str, A.TilingDataDef]) -> dict[str, str]:
    """Local variables (and reference parameters) of a legacy tiling struct type: name -> struct."""
    out: dict[str, str] = {}
    for p in fn.params:
        t = name_of(p.type)
        if p.name and t in defs:
            out[p.name] = t  # type: ignore[assignment]
    assert fn.body is not None
    for node in fn.body.walk():
        if isinstance(node, A.VarDecl):
            _add_tiling_typed(node, defs, out)
    return out


def _other_struct_names(host: list[A.Node], defs: dict[str, A.TilingDataDef]) -> set[str]:
    """Names that every host declaration gives a class or struct the host defines other than a tiling struct
    (`ApplyTilingParam tilingParam;`): their members are not tiling fields."""
    host_classes = {n.name for n in host if isinstance(n, A.ClassDecl) and n.name and n.name not in defs}
    types: dict[str, set[str | None]] = {}
    for node in host:
        if isinstance(node, A.VarDecl):
            for d in node.declarators:
                types.setdefault(d.name, set()).add(name_of(d.type))
        elif isinstance(node, A.Param) and node.name:
            types.setdefault(node.name, set()).add(name_of(node.type))
    return {name for name, declared in types.items() if declared <= host_classes}


def _add_tiling_typed(decl: A.VarDecl, defs: dict[str, A.TilingDataDef], into: dict[str, str]) -> None:
    """The declared names of `decl` whose type is a legacy tiling struct: name -> struct."""
    for d in decl.declarators:
        t = name_of(d.type)
        if t in defs:
            into[d.name] = t  # type: ignore[assignment]


@rule(
    "ASC804", "tiling-field-never-set", "project",
    summary="The kernel reads a tiling field that the host tiling function never sets.",
    why="Fields of a legacy tiling struct start at zero; a field the host forgets to `set_` reaches the "
        "kernel as 0, so loops run zero times, divisions trap or only core 0's slice is written: a "
        "silently wrong result, not a build error.",
    example="tiling.set_totalLength(n);   // host never calls set_tileNum\n"
            "uint32_t tiles = td.tileNum;  // kernel: always 0",
    instead="tiling.set_totalLength(n);\ntiling.set_tileNum(8);",
    severity=Severity.WARNING,
)
def tiling_field_never_set(ctx: CheckContext) -> None:
    defs = legacy_tiling_defs(ctx)
    host = nodes(ctx, "host", "tiling_header", "header")
    if not defs or not host:
        return
    setters: set[str] = set()
    touched: set[str] = set()  # fields reached in any other way (`tiling.sub.x`, GetTiling(tiling.cube), &tiling)
    whole_struct_use = False
    other_structs = _other_struct_names(host, defs)
    defined = {fn.name.parts[-1].name for fn in functions(ctx, "host", "tiling_header", "header")}
    for node in host:
        if isinstance(node, A.Member):
            if node.member.startswith("set_"):
                setters.add(node.member[4:])
            elif name_of(node.obj) not in other_structs:  # (`param.tileNum` of a host struct is not the field)
                touched.add(node.member)
        elif isinstance(node, A.Call) and node.callee_name in ("memcpy", "memcpy_s", "SetTilingData") \
                and node.callee_name not in defined:
            whole_struct_use = True  # (a SetTilingData of the project's own sets fields one by one: followed)
    if not setters or whole_struct_use:
        return
    reported: set[str] = set()
    for op in ops_of_kind(ctx, (asc.TilingFieldOp,)):
        if not isinstance(op.tiling.type, asc.TilingType):
            continue
        struct = op.tiling.type.type_name.data
        if struct not in defs:
            continue
        first = op.field.data.split(".")[0]
        kinds = {f.name: f.kind for f in defs[struct].fields}
        if first not in kinds or kinds[first] != "scalar" or first in setters or first in touched:
            continue
        if first in reported:
            continue
        reported.add(first)
        report_once(ctx, op, f"tiling field '{first}' is read here but the host never calls set_{first}; it is 0")


@rule(
    "ASC805", "tiling-key-without-branch", "project",
    summary="The host sets a constant tiling key that no TILING_KEY_IS branch of the kernel handles (or a "
            "non-zero key for a kernel with no TILING_KEY_IS branch at all).",
    why="With TILING_KEY_IS branches the kernel is compiled once per key it names; a key the host picks "
        "that none names has no binary (\"tiling key not found\") or runs no branch at all, so the output is "
        "never written. A kernel without any TILING_KEY_IS is compiled once, for key 0: the launch of a "
        "non-zero key fails (\"PTA call acl api failed\"), although every file compiled.",
    example="context->SetTilingKey(3);\n...\nif (TILING_KEY_IS(1)) { ... } else if (TILING_KEY_IS(2)) { ... }",
    instead="context->SetTilingKey(2);",
)
def tiling_key_without_branch(ctx: CheckContext) -> None:
    keys: set[int] = set()
    for op in ops_of_kind(ctx, (asc.TilingKeyIsOp,)):
        keys.add(op.key.value.data)
    for call in calls(nodes(ctx, "kernel"), "TILING_KEY_IS"):
        value = const_int(call.args[0]) if call.args else None
        if value is not None:
            keys.add(value)
    if not keys:
        _key_without_any_branch(ctx)
        return
    for call in calls(nodes(ctx, "host", "header"), "SetTilingKey"):
        value = const_int(call.args[0]) if call.args else None
        if value is not None and value not in keys:
            report_once(ctx, span(call), f"tiling key {value} has no TILING_KEY_IS({value}) branch in the kernel",
                       Note("the kernel handles keys " + ", ".join(str(k) for k in sorted(keys))))


# Kernel-side ways to select code by tiling key other than TILING_KEY_IS: a kernel that uses any of them
# is built per key in a way this rule does not follow.
_OTHER_KEY_SELECTORS = ("TILING_KEY_VAR", "TILING_KEY_LIST", "GET_TPL_TILING_KEY", "ASCENDC_TPL_")


def _key_without_any_branch(ctx: CheckContext) -> None:
    """A kernel with no TILING_KEY_IS at all is built once, for tiling key 0; a launch with any other key
    finds no binary. Reported only where the whole kernel is in view: an entry that is not a template (a
    template entry is instantiated per key), no other key selector, no quoted include left unread."""
    if ctx.program is None or any(d.code == MISSING_INCLUDE for u in ctx.program.units
                                  if u.unit.role in ("kernel", "header") for d in u.diagnostics):
        return
    entries = [fn for fn in functions(ctx, "kernel") if fn.is_kernel and fn.body is not None]
    if not entries or any(fn.template_params for fn in entries):
        return
    for node in nodes(ctx, "kernel"):
        if type(node) is A.NamePart and node.name.startswith(_OTHER_KEY_SELECTORS):
            return
    for call in calls(nodes(ctx, "host", "header"), "SetTilingKey"):
        value = const_int(call.args[0]) if call.args else None
        if value:
            report_once(ctx, span(call), f"tiling key {value}, but the kernel has no TILING_KEY_IS branch: "
                       "it is built for key 0 only, and the launch finds no kernel for this key",
                       Note("drop the SetTilingKey call (the key is then 0), or branch on "
                            f"TILING_KEY_IS({value}) in the kernel", kind="help"))
