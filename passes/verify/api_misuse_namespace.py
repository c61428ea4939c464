"""API-misuse rules on namespace AscendC: an AscendC API called or type named without `AscendC::` where no
using-directive or argument-dependent lookup finds it (ASC509), and the global EVENT_IDn enumerators written
as members of AscendC (ASC510).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note, Severity, as_span
from frontend.readers import HEADER_SUFFIXES
from passes.verify.api_misuse_calls import location_of
from passes.verify.api_misuse_index import source_index
from passes.verify.ir import walk_of
from passes.verify.rules import CheckContext, rule

if TYPE_CHECKING:
    from frontend.pipeline import Program as FrontendProgram


@rule(
    "ASC509", "missing-ascendc-qualification", "api",
    summary="An AscendC API is called, or an AscendC type (LocalTensor, TPipe, TQue, ...) named, without "
            "`AscendC::` where no `using namespace AscendC` is in effect and, for a call, argument-dependent "
            "lookup cannot find it (no AscendC-typed argument, or explicit template arguments).",
    why="The AscendC APIs live in namespace AscendC. `SetFlag<HardEvent::V_S>(EVENT_ID0)`, "
        "`PipeBarrier<PIPE_V>()` and `GetBlockIdx()` written bare fail to compile with \"use of undeclared "
        "identifier 'SetFlag'; did you mean 'AscendC::SetFlag'?\"; a type written bare (`LocalTensor<float>`, "
        "`TPipe`) is \"unknown type name\". (Calls such as `Add(dst, a, b, n)` on LocalTensors still compile: "
        "lookup finds them through the argument types.) Each bare type is reported at its first use.",
    example='#include "kernel_operator.h"\n// no using namespace AscendC\nuint32_t core = GetBlockIdx();',
    instead="uint32_t core = AscendC::GetBlockIdx();   // or: using namespace AscendC;",
)
def missing_ascendc_qualification(ctx: CheckContext) -> None:
    if ctx.program is None:
        return
    index = source_index(ctx)
    # `using namespace AscendC`, or of a vendor namespace that may itself bring AscendC in (matmul)
    if index.using_namespaces - index.own_namespaces - {"std"}:
        return
    ops_at: dict[tuple[str, int, int], list[Operation]] | None = None
    in_header = _header_rooted_nodes(ctx.program) if index.unqualified_calls or index.unqualified_types else set()
    # a project header out of reach may hold the using-directive (ops-nn's dua_quantize_add_layer_norm gets it
    # from another op's base header): then the names are only suspect
    hidden = _missing_project_include(ctx.program)
    severity = Severity.WARNING if hidden else None
    why_not_sure = [Note(f"'{hidden}' could not be read; if it has 'using namespace AscendC', this compiles")] \
        if hidden else []
    for call in index.unqualified_calls:
        if id(call) in in_header:
            continue
        name_part = call.callee.qname.parts[0]  # type: ignore[attr-defined]
        name = name_part.name
        api = ctx.catalog.api(name)
        if name in index.declared or api is None or api.global_scope:
            continue
        span = as_span(call.span)
        explicit = name_part.template_args is not None
        if not explicit and call.args:  # an AscendC-typed argument lets argument-dependent lookup find it
            if ops_at is None:
                ops_at = _ops_by_location(ctx.module)
            ops = ops_at.get((span.file, span.line, span.col))
            if not ops or any(_ascendc_typed(v) for op in ops for v in op.operands):
                continue
        ctx.report(span, f"'{name}' is not declared here: AscendC APIs need 'AscendC::' or "
                         "'using namespace AscendC'",
                   *why_not_sure, Note(f"write AscendC::{name}", kind="help"), severity=severity)
    reported: set[str] = set()
    for ref in sorted(index.unqualified_types, key=lambda r: (str(r.span.file), r.span.line, r.span.col)):
        name = ref.base.parts[0].name  # type: ignore[union-attr]
        if name in reported or name in index.declared or name in index.named or id(ref) in in_header:
            continue
        reported.add(name)  # once per type: every later use fails the same way
        ctx.report(as_span(ref.span), f"unknown type name '{name}': AscendC types need 'AscendC::' or "
                                      "'using namespace AscendC'",
                   *why_not_sure, Note(f"write AscendC::{name}", kind="help"), severity=severity)


def _missing_project_include(program: FrontendProgram) -> str | None:
    """A quoted include of the program that could not be read, other than a tiling header (those declare
    tiling structs, not namespaces); None when every one was found."""
    for unit in program.units:
        for name in unit.preprocessed.missing_includes if unit.preprocessed is not None else ():
            if "tiling" not in os.path.basename(name).lower():
                return name
    return None


# the headers a folder is searched for, and the other header kinds a user may name as an input
_HEADER_SUFFIXES = (*HEADER_SUFFIXES, ".hxx", ".inl", ".inc")


def _header_rooted_nodes(program: FrontendProgram) -> set[int]:
    """The AST nodes (by id) of units that are a header checked on its own. Such a header is compiled only
    through the sources that include it, after their `using namespace AscendC;`, which this check cannot see
    (prompt_flash_attention_base_api.h names TPipe bare; its kernel .cpp holds the using-directive)."""
    return {id(node) for unit in program.units if unit.unit.path.lower().endswith(_HEADER_SUFFIXES)
            for node in unit.ast.walk()}


def _ops_by_location(module: ModuleOp) -> dict[tuple[str, int, int], list[Operation]]:
    out: dict[tuple[str, int, int], list[Operation]] = {}
    for op in walk_of(module):
        if isinstance(op, asc.ApiCallOp) or op.dialect_name() == "ascendc":
            loc = location_of(op)
            if loc is not None:
                out.setdefault(loc, []).append(op)
    return out


def _ascendc_typed(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, asc.LocalTensorType | asc.GlobalTensorType | asc.TQueType | asc.TBufType | asc.TPipeType
                      | asc.StructType | asc.EnumType | asc.ObjectType | asc.TilingType)


@rule(
    "ASC510", "global-enumerator-qualified", "api",
    summary="`AscendC::EVENT_ID0` (and the other EVENT_IDn): the event-id enumerators are global, not members "
            "of namespace AscendC.",
    why="The EVENT_IDn values come from the compiler's built-in `event_t` at global scope. Qualifying them "
        "fails the build with \"no member named 'EVENT_ID0' in namespace 'AscendC'; did you mean simply "
        "'EVENT_ID0'?\" (while SetFlag/WaitFlag themselves do need AscendC::).",
    example="AscendC::SetFlag<AscendC::HardEvent::V_S>(AscendC::EVENT_ID0);",
    instead="AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);",
)
def global_enumerator_qualified(ctx: CheckContext) -> None:
    for node in source_index(ctx).ascendc_event_names:
        parts = [p.name for p in node.qname.parts]
        ctx.report(as_span(node.span), f"no member named '{parts[1]}' in namespace 'AscendC': "
                                       f"{parts[1]} is a global enumerator",
                   Note(f"write {parts[1]}", kind="help"))
