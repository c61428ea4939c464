"""Project consistency (ASC8xx): the files of an op project or benchmark answer must agree with each other.

The op description (json) names the operator; the build derives the kernel entry symbol and the tiling
header's file name from it, the host registers a tiling struct for it, the kernel reads that struct's
fields, and the Python binding calls the generated `aclnn<Op>` entry. Each mismatch is a late failure in
the vendor build (or a silent wrong value at run time); all of them are visible in the sources.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from ascendir.dialects import ascendc as asc
from ascendir.lower import MISSING_INCLUDE
from frontend import ast as A
from frontend.diagnostics import LazySpan, Note, Severity, Span
from passes.verify.ast_index import Walked, ast_index
from passes.verify.ir import ops_of, ops_of_kind
from passes.verify.rules import CheckContext, rule

# ------------------------------------------------------------------ shared helpers (host_code.py uses them too)

T = TypeVar("T")


def report_once(ctx: CheckContext, where: object, message: str, *notes: Note,
                severity: Severity | None = None) -> None:
    """ctx.report, dropping a repeat: a header included by several sources is walked once per source."""
    before = len(ctx.diagnostics)
    ctx.report(where, message, *notes, severity=severity)  # type: ignore[arg-type]
    new = ctx.diagnostics[-1]
    if any(d.code == new.code and d.span == new.span and d.message == new.message for d in ctx.diagnostics[:before]):
        ctx.diagnostics.pop()


def span(node: A.Node) -> Span:
    s = node.span
    return s.resolve() if isinstance(s, LazySpan) else s


def cached(ctx: CheckContext, key: object, make: Callable[[], T]) -> T:
    """A value computed once per check run (the rules of these families share AST walks)."""
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    if key not in store:
        store[key] = make()
    return store[key]  # type: ignore[return-value]


def units(ctx: CheckContext, *roles: str) -> list[A.TranslationUnit]:
    if ctx.program is None:
        return []
    return [u.ast for u in ctx.program.units if not roles or u.unit.role in roles]


def nodes_per_unit(ctx: CheckContext) -> list[tuple[str, list[A.Node]]]:
    """(role, every AST node) of each source, walked once per run (the walk every rule shares)."""
    return ast_index(ctx).units


def nodes(ctx: CheckContext, *roles: str) -> list[A.Node]:
    """Every AST node of the sources of the given roles (all roles when none); the same list for the same
    roles throughout a run: do not modify it."""
    def make() -> Walked:
        index = ast_index(ctx)
        chosen = tuple(i for i, (role, _) in enumerate(index.units) if not roles or role in roles)
        # role lists that select the same sources share one list (and its calls, found once): a single-file
        # kernel's () and ("kernel",) and ("host", "kernel", "other") are all its one walk
        return cached(ctx, ("nodes of units", chosen), lambda: index.units[chosen[0]][1] if len(chosen) == 1 else Walked(
            [n for i in chosen for n in index.units[i][1]], index.unit_calls))
    return cached(ctx, ("nodes", roles), make)


def functions(ctx: CheckContext, *roles: str) -> list[A.FunctionDecl]:
    """Function definitions (with a body) in the sources of the given roles."""
    return cached(ctx, ("functions", roles), lambda: [
        n for n in nodes(ctx, *roles) if isinstance(n, A.FunctionDecl) and n.body is not None])[:]


def parsed_units(ctx: CheckContext, *roles: str) -> list[object]:
    if ctx.program is None:
        return []
    return [u for u in ctx.program.units if not roles or u.unit.role in roles]


def snake_variants(op: str) -> set[str]:
    """The kernel entry names the build accepts for OpType `op`: msopgen puts `_` before each capital
    (`AddCustom` -> `add_custom`); acronyms (`GELUCustom`) are also accepted in their one-word form."""
    simple = re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower()
    two_pass = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", op)
    two_pass = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", two_pass).lower()
    # a run of capitals kept whole up to the last word (`NormalizeBBox` -> `normalize_bbox`)
    runs = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", op).lower()
    return {simple, two_pass, runs}


def snake(op: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower()


@dataclass
class OpInfo:
    name: str
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)
    complete: bool = True  # False when the OpDef computes some names: counts are then lower bounds


def op_info(ctx: CheckContext) -> OpInfo | None:
    """The operator of the op json (the first one), when the input has one."""
    return cached(ctx, "op_info", lambda: _op_info(ctx))


def _op_info(ctx: CheckContext) -> OpInfo | None:
    if ctx.program is None:
        return None
    if not ctx.program.bundle.op_json:
        return _opdef_op_info(ctx)
    op = ctx.program.bundle.op_json[0]
    name = op.get("op")
    if not isinstance(name, str) or not name:
        return None

    def names(key: str) -> list[str]:
        out: list[str] = []
        items = op.get(key) or []
        if not isinstance(items, list):
            return out
        for item in items:
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                out.append(item["name"])
        return out

    info = OpInfo(name, names("input_desc"), names("output_desc"), names("attr"))
    # the OpDef in the host source declares them too; a json computed at answer time may be partial
    for kind, found in _opdef_declarations(ctx).items():
        listed = getattr(info, kind)
        if found is None:
            info.complete = False
            continue
        listed.extend(n for n in found if n not in listed)
    return info


def _opdef_op_info(ctx: CheckContext) -> OpInfo | None:
    """The operator of a project without an op json (ops-nn, ops-math, cann-ops): the one OpDef class of
    the host sources that `OP_ADD(Name)` registers, with the names its constructor declares."""
    opdefs = {n.name for n in nodes(ctx, "host") if isinstance(n, A.ClassDecl) and n.name
              and any(isinstance(b.base, A.QualifiedName) and b.base.parts[-1].name == "OpDef" for b in n.bases)}
    added = [name for n in nodes(ctx, "host") if isinstance(n, A.MacroDecl) and n.name == "OP_ADD"
             and len(n.args) == 1 and (name := _written_name(n.args[0])) is not None]
    registered = [name for name in dict.fromkeys(added) if name in opdefs]
    if len(registered) != 1 or len(set(added)) != 1:
        return None  # none, or several operators in one project: no single op to compare with
    info = OpInfo(registered[0])
    for kind, found in _opdef_declarations(ctx).items():
        if found is None:
            info.complete = False
        else:
            getattr(info, kind).extend(found)
    return info


def _written_name(node: A.Node) -> str | None:
    """The last name of `Scale` / `ops::Scale`, written as a name or (a known class) as a type."""
    if isinstance(node, A.TypeArgExpr):
        node = node.type
    if isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName) and not node.pointers:
        return node.base.parts[-1].name
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    return None


def _opdef_declarations(ctx: CheckContext) -> dict[str, list[str] | None]:
    """Names the OpDef declares with `this->Input("x")` / `Output` / `Attr` (None: some name is computed)."""
    out: dict[str, list[str] | None] = {"inputs": [], "outputs": [], "attrs": []}
    kinds = {"Input": "inputs", "Output": "outputs", "Attr": "attrs"}
    for call in calls(nodes(ctx, "host"), *kinds):
        if not isinstance(call.callee, A.Member) or len(call.args) != 1:
            continue
        kind = kinds[call.callee.member]
        arg = call.args[0]
        listed = out[kind]
        if listed is None:
            continue
        if isinstance(arg, A.StringLit):
            name = arg.value.strip('"')
            if name not in listed:
                listed.append(name)
        else:
            out[kind] = None
    return out


_UNIT_CALLS: dict[int, tuple[A.TranslationUnit, list[A.Call]]] = {}


def _unit_calls(unit: A.TranslationUnit) -> list[A.Call]:
    """Every call in a translation unit, collected once: several rules ask, each walk costs ~5 ms (the
    lists `nodes` returns use the run's index instead; this keeps a few units, not every tree seen)."""
    hit = _UNIT_CALLS.get(id(unit))
    if hit is not None and hit[0] is unit:
        return hit[1]
    found = [n for n in unit.walk() if isinstance(n, A.Call)]
    if len(_UNIT_CALLS) > 8:
        _UNIT_CALLS.clear()
    _UNIT_CALLS[id(unit)] = (unit, found)
    return found


def calls(where: list[A.TranslationUnit] | list[A.Node], *names: str) -> Iterator[A.Call]:
    """Calls (of the given names) among `nodes(...)`, or inside the given translation units."""
    if isinstance(where, Walked):  # the same sequence, from the run's index
        if len(names) == 1:
            yield from where.calls_named(names[0])
        elif names:
            wanted_names = set(names)
            yield from (c for c in where.call_sequence() if c.callee_name in wanted_names)
        else:
            yield from where.call_sequence()
        return
    wanted = set(names)
    for item in where:
        for node in (_unit_calls(item) if isinstance(item, A.TranslationUnit) else (item,)):
            if isinstance(node, A.Call) and (not wanted or node.callee_name in wanted):
                yield node


def const_int(node: A.Node | None) -> int | None:
    """An integer literal, possibly negated, cast or suffixed: `2`, `2U`, `static_cast<uint64_t>(2)`."""
    if isinstance(node, A.IntLit):
        return node.value
    if isinstance(node, A.Unary) and node.op == "-" and isinstance(node.operand, A.IntLit):
        return -node.operand.value
    if isinstance(node, A.Cast) and isinstance(node.expr, A.Node) and not node.args:
        return const_int(node.expr)
    return None


def tiling_structs(ctx: CheckContext) -> dict[str, list[tuple[str, str]]]:
    """Tiling layouts of the program: name -> [(field, kind)], from legacy definitions and plain structs."""
    from ascendir.lower.scope import collect

    def make() -> dict[str, list[tuple[str, str]]]:
        scope = collect(units(ctx))
        return {name: [(f[0], f[3]) for f in ts.fields] for name, ts in scope.tiling_structs.items()}

    return cached(ctx, "tiling_structs", make)


def legacy_tiling_defs(ctx: CheckContext) -> dict[str, A.TilingDataDef]:
    return cached(ctx, "legacy_tiling_defs", lambda: _legacy_tiling_defs(ctx))


def _legacy_tiling_defs(ctx: CheckContext) -> dict[str, A.TilingDataDef]:
    out: dict[str, A.TilingDataDef] = {}
    for node in nodes(ctx):
        if isinstance(node, A.TilingDataDef):
            out.setdefault(node.name, node)
    return out


def includes(ctx: CheckContext, *roles: str) -> list[tuple[str, Span]]:
    """`#include` targets of the sources of the given roles, with where each is written."""
    out: list[tuple[str, Span]] = []
    for pu in parsed_units(ctx, *roles):
        unit = pu.unit  # type: ignore[attr-defined]
        for i, line in enumerate(unit.text.splitlines()):
            m = _INCLUDE_RE.match(line)
            if m:
                col = m.start(1) + 1 + (unit.col_offset if i == 0 else 0)
                out.append((m.group(1), Span(unit.file, unit.line_offset + i + 1, col, unit.line_offset + i + 1,
                                             col + len(m.group(1)))))
    return out


_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def name_of(node: A.Node | None) -> str | None:
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    if isinstance(node, A.TypeArgExpr):
        return name_of(node.type)
    if isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName):
        return node.base.parts[-1].name
    return None


# ------------------------------------------------------------------ rules


@rule(
    "ASC801", "kernel-entry-name-mismatch", "project",
    summary="No kernel entry function is named after the operator: the build looks for snake_case(OpType).",
    why="The op build compiles op_kernel/<op_snake>.cpp and looks up the `__global__` function named "
        "snake_case(OpType) (`AddCustom` -> `add_custom`, `Pooling2DCustom` -> `pooling2_d_custom`). When "
        "the name differs the build stops with \"kernel entry `x' not implement in `x.cpp'\" after every "
        "other file has compiled.",
    example='{"op": "AveragePooling2DCustom", ...}\n'
            'extern "C" __global__ __aicore__ void average_pooling2d_custom(GM_ADDR x, ...)',
    instead='{"op": "AveragePooling2dCustom", ...}\n'
            'extern "C" __global__ __aicore__ void average_pooling2d_custom(GM_ADDR x, ...)',
)
def kernel_entry_name(ctx: CheckContext) -> None:
    op = op_info(ctx)
    if op is None:
        return
    kernels = [fn for fn in functions(ctx, "kernel") if fn.is_kernel]
    if not kernels:
        return
    wanted = snake_variants(op.name)
    if any(fn.name.parts[-1].name in wanted for fn in kernels):
        return
    expected = snake(op.name)
    for fn in kernels:
        report_once(ctx, span(fn.name), f"kernel entry '{fn.name.parts[-1].name}' does not match op '{op.name}'; "
                   f"the build looks for '{expected}'",
                   Note(f"rename the function to '{expected}', or the op to the PascalCase of the function name",
                        kind="help"))


@rule(
    "ASC802", "tiling-registration-mismatch", "project",
    summary="REGISTER_TILING_DATA_CLASS names another operator than the op (its json, or the OpDef that OP_ADD "
            "registers) and no registration names the op itself (one for a tiling key, `Op_2`, does not), or a "
            "struct that is not defined.",
    why="The framework finds the tiling struct of an operator by the OpType in REGISTER_TILING_DATA_CLASS. "
        "With another name the kernel's GET_TILING_DATA has no registered layout (the kernel build fails, "
        "or reads an empty struct); an undefined struct does not compile.",
    example="REGISTER_TILING_DATA_CLASS(AddCustomV2, AddCustomTilingData)   // op json says AddCustom",
    instead="REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)",
)
def tiling_registration(ctx: CheckContext) -> None:
    op = op_info(ctx)
    structs = tiling_structs(ctx)
    registrations = [node for node in nodes(ctx) if isinstance(node, A.RegisterTilingData)]

    def for_the_op(node: A.RegisterTilingData) -> bool:  # `Op_<key>`: the struct for tiling key <key>
        if op is None:
            return False
        return node.op_type == op.name or re.fullmatch(rf"{re.escape(op.name)}_\d+", node.op_type) is not None

    # a header shared by several operators (ops-nn's foreach utilities) registers them all: only when none
    # is for this op is a registration for another one the mistake. A registration for one tiling key
    # (`Op_1002`) does not count: the other keys' GET_TILING_DATA reads the op's own registration.
    registers_the_op = op is not None and any(node.op_type == op.name for node in registrations)
    for node in registrations:
        if (op is not None and not registers_the_op and not for_the_op(node)
                and node.struct_name not in _nested_tiling_structs(ctx)):
            report_once(ctx, span(node), f"REGISTER_TILING_DATA_CLASS registers '{node.op_type}' but the op is "
                       f"'{op.name}'")
        if structs and node.struct_name not in structs and not _declared_class(ctx, node.struct_name) \
                and not _includes_unread(ctx, node):
            known = ", ".join(sorted(structs)) or "none"
            report_once(ctx, span(node), f"REGISTER_TILING_DATA_CLASS names '{node.struct_name}', which is not "
                       f"defined (tiling structs: {known})")


def _includes_unread(ctx: CheckContext, node: A.Node) -> bool:
    """Whether the file of `node` includes a header that could not be found (ASC002), which may define what
    it names (ops-math's slice registers the StridedSliceTilingData of strided_slice's header)."""
    if ctx.program is None or node.span is None:
        return False
    return any(d.code == "ASC002" and d.span is not None and d.span.file == node.span.file
               for d in ctx.program.diagnostics)


def _nested_tiling_structs(ctx: CheckContext) -> set[str]:
    """Tiling structs used as a TILING_DATA_FIELD_DEF_STRUCT of another: registered under a helper name of
    their own (`REGISTER_TILING_DATA_CLASS(EmbeddingDenseGradV2TilingParamOp, ...)`), not the operator's."""
    return {f.type.base.parts[-1].name for d in legacy_tiling_defs(ctx).values() for f in d.fields
            if f.kind == "struct" and isinstance(f.type.base, A.QualifiedName)}


def _defined_twice(ctx: CheckContext) -> set[str]:
    """Class names the program defines more than once (pool_3d_common's Pool3D::ShapeInfo and
    GatherIndexImpl::ShapeInfo): the lowering does not keep namespaces apart, so their fields are mixed."""
    seen: dict[str, int] = {}
    for node in nodes(ctx):
        if isinstance(node, A.ClassDecl) and node.name and node.is_definition:
            seen[node.name] = seen.get(node.name, 0) + 1
    return {name for name, count in seen.items() if count > 1}


def _declared_class(ctx: CheckContext, name: str) -> bool:
    for node in nodes(ctx):
        if isinstance(node, A.ClassDecl) and node.name == name:
            return True
        if isinstance(node, A.AliasDecl) and node.name == name:
            return True
    return False


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


_DEFINED_DTYPE_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+((?:ORIG_)?DTYPE_\w+)", re.M)


@rule(
    "ASC806", "dtype-macro-unknown", "project",
    summary="The kernel uses a DTYPE_<NAME> macro that names no input or output of the operator.",
    why="The build defines DTYPE_<NAME> (and ORIG_DTYPE_<NAME>) only for the op's declared inputs and "
        "outputs, upper-cased. Any other name is undeclared in the kernel compile.",
    example='"input_desc": [{"name": "x"}], "output_desc": [{"name": "z"}]\n'
            "GlobalTensor<DTYPE_Y> yGm;",
    instead="GlobalTensor<DTYPE_Z> zGm;",
)
def dtype_macro_unknown(ctx: CheckContext) -> None:
    op = op_info(ctx)
    if op is None or not (op.inputs or op.outputs) or not op.complete:
        return
    declared = {n.upper() for n in op.inputs + op.outputs}
    # names the sources declare themselves (`int DTYPE_SIZE = 4;`, `using DTYPE_X_ = ...`) are not the build's
    own = {n.name for n in nodes(ctx) if isinstance(n, A.Declarator | A.AliasDecl | A.TemplateParam)
           and isinstance(getattr(n, "name", None), str)}
    # and macros they #define (`#define DTYPE_SCALAR DTYPE_SCALARS` before including a header shared with the
    # single-scalar op, in NPUKernelBench's Foreach*ScalarList): that header, also walked as a unit of its own,
    # names the macro where the source that includes it has it defined
    if ctx.program is not None:
        own |= {m for u in ctx.program.units for m in _DEFINED_DTYPE_MACRO.findall(u.unit.text)}
    seen: set[tuple[str, int]] = set()
    for node in nodes(ctx, "kernel"):
        name: str | None = None
        if isinstance(node, A.Name):
            name = node.qname.parts[-1].name
        elif isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName):
            name = node.base.parts[-1].name
        if not name:
            continue
        m = re.fullmatch(r"(?:ORIG_)?DTYPE_([A-Z0-9_]+?)(?:_REF)?", name)  # (`_REF`: an in-place output)
        if m is None or m.group(1) in declared or name in own:
            continue
        where = span(node)
        if (name, where.line) in seen:
            continue
        seen.add((name, where.line))
        report_once(ctx, where, f"{name} names no input or output of '{op.name}'",
                   Note("defined: " + ", ".join(f"DTYPE_{n}" for n in sorted(declared))))


# ------------------------------------------------------------------ the Python binding (MultiKernelBench)


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
        "half of a double register: the kernel sees a tiny or zero value and computes wrong results, with no "
        "build error and no warning.",
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
                                "a double: EXEC_NPU_CMD passes it unconverted and the kernel reads garbage",
                                Note(f"declare it as double: `double {var} = ...;`", kind="help"))


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


@rule(
    "ASC810", "tiling-header-name-mismatch", "project",
    summary="The host includes a `*_tiling.h` header under another name than the one the build writes.",
    why="The project keeps the tiling header as op_host/<op_snake>_tiling.h, named after the OpType. An "
        "include spelled after another name (an older op name, the task name) fails with \"fatal error: "
        "x_tiling.h: No such file or directory\".",
    example='{"op": "ShuffleNetUnitCustom"}\n#include "shufflenet_unit_custom_tiling.h"',
    instead='#include "shuffle_net_unit_custom_tiling.h"',
)
def tiling_header_name(ctx: CheckContext) -> None:
    if ctx.program is None:
        return
    headers = {p.replace("\\", "/").rsplit("/", 1)[-1] for p in ctx.program.bundle.virtual_files}
    headers |= {pu.unit.path.replace("\\", "/").rsplit("/", 1)[-1]  # type: ignore[attr-defined]
                for pu in parsed_units(ctx)}
    tiling_headers = {h for h in headers if h.endswith("_tiling.h")}
    if not tiling_headers:
        return
    for target, where in includes(ctx, "host", "kernel"):
        name = target.replace("\\", "/").rsplit("/", 1)[-1]
        if not name.endswith("_tiling.h") or name in headers or "/" in target.strip("./"):
            continue
        report_once(ctx, where, f"'{name}' is not a file of this project; the tiling header is "
                   + " or ".join(f"'{h}'" for h in sorted(tiling_headers)))
