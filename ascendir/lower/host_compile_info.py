"""`context->GetCompileInfo()` in a host tiling function: the object the op's TilingParse function filled.

An op registers, beside its tiling function, a parse function and the struct it fills once per compiled op:

    IMPL_OP_OPTILING(AddRmsNormQuant)
        .Tiling(Tiling4AddRmsNormQuant)
        .TilingParse<AddRmsNormQuantCompileInfo>(TilingPrepare4AddRmsNormQuant);

    ge::graphStatus TilingPrepare4AddRmsNormQuant(gert::TilingParseContext *context) {
        auto compileInfo = context->GetCompiledInfo<AddRmsNormQuantCompileInfo>();
        compileInfo->totalCoreNum = PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();  ...
    }

The framework creates the struct (`new T()`: default member initialisers, the other scalars zero), runs the parse
function on it with the op's platform, and hands its address to every tiling run through
`TilingContext::GetCompileInfo()` (`const void *`, cast to `const T *`; or `GetCompileInfo<T>()`). Here the
struct is an object of the lowering (its members cells) made in the tiling function's entry block the first time
the tiling function asks for it, and the parse function is inlined there on a `gert::TilingParseContext`
handle whose `GetCompiledInfo<T>()` is that object and whose `GetPlatformInfo()` is the tiling context's
platform. A parse function that fails would have failed the op's compilation; its status is not looked at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.builder import Builder, InsertPoint

from ascendir.lower import ctypes as C
from ascendir.lower.function import Frame, Unsupported
from ascendir.lower.astwalk import walk
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


@dataclass(frozen=True)
class Registration:
    """`IMPL_OP_OPTILING(op_type) ... .TilingParse<struct_name>(function_name)`."""

    struct_name: str | None
    function_name: str | None
    op_type: str | None = None


def registration(units: Sequence[A.TranslationUnit]) -> Registration:
    for node in walk(list(units)):
        if not isinstance(node, A.MacroDecl) or node.name != "IMPL_OP_OPTILING":
            continue
        op_type = _type_name(A.TemplateArg(node.span, node.args[0])) if node.args else None
        for call in node.chain:
            callee = call.callee  # the chain's calls name their method: `.TilingParse<T>(f)`
            if isinstance(callee, A.Member) and callee.member == "TilingParse":
                targs = callee.template_args
            elif isinstance(callee, A.Name) and callee.qname.parts[-1].name == "TilingParse":
                targs = callee.qname.parts[-1].template_args
            else:
                continue
            struct = _type_name(targs[0]) if targs else None
            fn = call.args[0].qname.parts[-1].name if call.args and isinstance(call.args[0], A.Name) else None
            return Registration(struct, fn, op_type)
        return Registration(None, None, op_type)
    return Registration(None, None)


def _type_name(arg: A.TemplateArg) -> str | None:
    value = arg.value
    if isinstance(value, A.TypeArgExpr):  # a macro argument that is a type name: IMPL_OP_OPTILING(RmsNorm)
        value = value.type
    if isinstance(value, A.TypeRef) and isinstance(value.base, A.QualifiedName):
        return value.base.parts[-1].name
    if isinstance(value, A.Name):
        return value.qname.parts[-1].name
    return None


def _parse_function(lw: HostLowerer, name: str | None) -> A.FunctionDecl | None:
    """The parse function: the one the registration names, else the only one taking a TilingParseContext*."""
    found = [fn for fns in lw.scope.functions.values() for fn in fns if fn.body is not None and len(fn.params) == 1
             and isinstance(fn.params[0].type.base, A.QualifiedName)
             and fn.params[0].type.base.parts[-1].name == "TilingParseContext"]
    named = [fn for fn in found if fn.name.parts[-1].name == name]
    return named[0] if named else found[0] if len(found) == 1 else None


def compile_info(lw: HostLowerer, e: A.Call, callee: A.Member) -> Val:
    """`context->GetCompileInfo()` / `GetCompileInfo<T>()`: a pointer to the compile-info object."""
    cached = lw.compile_info
    if cached is not None:
        return cached
    reg = registration(lw.units)
    explicit = lw._template_arg_value(callee.template_args[0]) if callee.template_args else None
    struct = explicit.name if isinstance(explicit, C.ClassT) else reg.struct_name
    if struct is None and reg.op_type is None and _parse_function(lw, None) is None:
        # no TilingParse registration at all (an op registered through its OpDef's SetTiling): the framework
        # has no compile info for the op, and GetCompileInfo() is a null pointer
        return Val(C.Pointer(C.VoidT()), const=0)
    if struct is None or struct not in lw.scope.classes:
        raise Unsupported("GetCompileInfo: no `.TilingParse<T>(...)` registration names a compile-info struct "
                          "the sources define", e)
    entry = lw._entry_block
    if entry is None:
        raise Unsupported("GetCompileInfo outside a tiling function", e)
    saved, frames = lw.builder, lw.frames
    first = entry.first_op
    lw.builder = Builder(InsertPoint.before(first) if first is not None else InsertPoint.at_end(entry))
    lw.frames = [Frame("TilingParse", [{}], None, {}, set())]  # the parse function sees namespace scope only
    try:
        t = C.ClassT(struct)
        inst = lw.instantiate(t, "compileInfo", e)
        _value_initialise(lw, inst, e)
        pointer = Val(C.Pointer(t), obj=inst)
        lw.compile_info = pointer
        fn = _parse_function(lw, reg.function_name)
        if fn is not None:
            from ascendir.lower.host import HostT  # here: host imports this module

            lw.inline_function(fn, [Val(HostT("parse_context"), obj=pointer)], None, e)
    except Exception:
        lw.compile_info = None
        raise
    finally:
        lw.builder, lw.frames = saved, frames
    return pointer


def _value_initialise(lw: HostLowerer, inst: Instance, node: A.Node) -> None:
    """`new T()`: a scalar member without a default initialiser starts at zero."""
    info = lw.scope.classes[inst.ctype.name]
    for _, d in info.fields:
        member = inst.members.get(d.name)
        if isinstance(member, Cell) and isinstance(member.ctype, C.Scalar) and d.init is None and not d.ctor_args:
            lw.store(member, Val(member.ctype, const=0), node)


def compiled_info(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`TilingParseContext::GetCompiledInfo<T>()`: the object being filled."""
    pointer = recv.obj
    if not isinstance(pointer, Val) or not isinstance(pointer.obj, Instance):
        raise Unsupported("GetCompiledInfo on a parse context the host lowering did not make", e)
    wanted = lw._template_arg_value(callee.template_args[0]) if callee.template_args else None
    if isinstance(wanted, C.ClassT) and wanted.name != pointer.obj.ctype.name:
        raise Unsupported(f"GetCompiledInfo<{wanted.name}> of a {pointer.obj.ctype.name} compile-info object", e)
    return pointer


def platform_info(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`TilingParseContext::GetPlatformInfo()`: the platform the tiling context has."""
    from ascendir.lower.host import HostT

    return Val(HostT("platform_info"))


def node_name(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`GetNodeName()`: the node's name in the graph, which only the framework knows (logs print it)."""
    from ascendir.lower.host import HostT

    return Val(HostT("node_name"))


def node_type(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`GetNodeType()`: the op type, as a C string: the op the project's OpDef adds (OP_ADD), which the tiling is
    launched for, else the name IMPL_OP_OPTILING registers the tiling under. (A project whose build compiles
    another op's tiling sources too, as ops-nn batch_mat_mul_v3 does mat_mul_v3's, has that op's
    IMPL_OP_OPTILING as well.)"""
    added = {_type_name(A.TemplateArg(n.span, n.args[0])) for n in walk(list(lw.units))
             if isinstance(n, A.MacroDecl) and n.name == "OP_ADD" and n.args}
    op_type = next(iter(added)) if len(added) == 1 else registration(lw.units).op_type
    if op_type is None:
        return node_name(lw, e, recv, callee)
    return Val(C.UnknownT("string"), const=op_type)


PARSE_CONTEXT_METHODS = {"GetCompiledInfo": compiled_info, "GetPlatformInfo": platform_info,
                         "GetNodeName": node_name, "GetNodeType": node_type}
