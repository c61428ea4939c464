"""Project rules on the names the build derives from the op (ASC8xx): the kernel entry function (ASC801), the
tiling struct's registration (ASC802), the DTYPE_<NAME> macros of the op's inputs and outputs (ASC806), and
the file name under which the host includes the tiling header (ASC810).
"""

from __future__ import annotations

import re

from frontend import ast as A
from frontend.diagnostics import Note
from passes.verify.project_facts import (
    functions,
    includes,
    legacy_tiling_defs,
    nodes,
    op_info,
    parsed_units,
    report_once,
    snake,
    snake_variants,
    span,
    tiling_structs,
)
from passes.verify.rules import CheckContext, rule


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


def _declared_class(ctx: CheckContext, name: str) -> bool:
    for node in nodes(ctx):
        if isinstance(node, A.ClassDecl) and node.name == name:
            return True
        if isinstance(node, A.AliasDecl) and node.name == name:
            return True
    return False


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
