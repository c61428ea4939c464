"""API-misuse rules on objects and what calls leave in them: a state-changing method of a member object called
from a const method (ASC511), the source of an in-place reduction read again as data (ASC512), a member an
AscendC parameter struct does not have (ASC513), and an API whose body the target chip compiles out, so its
outputs keep what they held (ASC514).
"""

from __future__ import annotations

from xdsl.ir import Operation, Region, SSAValue

from ascendir.dialects import ascendc as asc
from frontend import ast as A
from frontend.diagnostics import Note, as_span
from passes.verify.api_misuse_calls import catalog_calls, chip_arch, kernel_of
from passes.verify.api_misuse_index import source_index
from passes.verify.ir import api_calls_of, arg, constant_of, ops_of, ops_of_kind
from passes.verify.rules import CheckContext, rule


# Methods the vendor classes declare without `const` (they change the object or what it hands out).
_NON_CONST_METHODS = {
    "GlobalTensor": frozenset({"SetValue", "SetGlobalBuffer", "SetL2CacheHint"}),
    "TQue": frozenset({"AllocTensor", "FreeTensor", "EnQue", "DeQue"}),
    "TPipe": frozenset({"InitBuffer", "Reset"}),
}


@rule(
    "ASC511", "mutating-call-in-const-method", "api",
    summary="A `const` member function calls a state-changing method of a member object: "
            "GlobalTensor::SetValue/SetGlobalBuffer, TQue::AllocTensor/EnQue/DeQue/FreeTensor, "
            "TPipe::InitBuffer.",
    why="Inside a const method every member is const, and these methods are not marked const: the build "
        "fails with \"'this' argument to member function 'SetValue' has type 'const GlobalTensor<float>', "
        "but function is not marked const\".",
    example="__aicore__ inline void Process() const { yGm.SetValue(0, 0.0f); }",
    instead="__aicore__ inline void Process() { yGm.SetValue(0, 0.0f); }",
)
def mutating_call_in_const_method(ctx: CheckContext) -> None:
    index = source_index(ctx)
    classes: dict[str, dict[str, str]] = {}  # class -> member -> vendor class of a non-mutable member
    methods = [(fn.name.parts[-2].name, fn) for fn in index.out_of_class_const]
    for node in index.classes:
        if not node.name:
            continue
        fields = classes.setdefault(node.name, {})
        for member in node.members:
            if isinstance(member, A.VarDecl) and "mutable" not in member.specifiers:
                for d in member.declarators:
                    base = d.type.base
                    name = base.name if isinstance(base, A.QualifiedName) else str(base)
                    if name in _NON_CONST_METHODS and not d.type.pointers:
                        fields[d.name] = name
            elif isinstance(member, A.FunctionDecl) and "const" in member.qualifiers and member.body:
                methods.append((node.name, member))
    for owner, method in methods:
        fields = classes.get(owner, {})
        if not fields or method.body is None:
            continue
        for node in method.body.walk():
            if not (isinstance(node, A.Call) and isinstance(node.callee, A.Member)):
                continue
            obj = node.callee.obj
            field_name = None
            if isinstance(obj, A.Name) and len(obj.qname.parts) == 1:
                field_name = obj.qname.parts[0].name
            elif isinstance(obj, A.Member) and isinstance(obj.obj, A.This):
                field_name = obj.member
            cls = fields.get(field_name or "")
            if cls is None or node.callee.member not in _NON_CONST_METHODS[cls]:
                continue
            if _shadowed(method, field_name or ""):
                continue
            fn = method.name.parts[-1].name
            ctx.report(as_span(node.span), f"'{node.callee.member}' changes {field_name}, but {fn}() is const: "
                                           f"{field_name} is a const {cls} there and the call does not compile",
                       Note(f"drop 'const' from {fn}()", kind="help"))


def _shadowed(method: A.FunctionDecl, name: str) -> bool:
    """A parameter or local of the method with the member's name (the call then is not on the member)."""
    if any(p.name == name for p in method.params):
        return True
    return method.body is not None and any(isinstance(n, A.Declarator) and n.name == name for n in method.body.walk())


_IN_PLACE_REDUCTIONS = frozenset({"ReduceSum", "ReduceMax", "ReduceMin"})


def _tensor_root(value: SSAValue | None) -> SSAValue | None:
    from passes.verify.value_fold import source_of

    root = source_of(value)
    return root if root is not None and isinstance(root.type, asc.LocalTensorType) else None


@rule(
    "ASC512", "reduce-in-place-source-reread", "api",
    summary="After ReduceSum/ReduceMax/ReduceMin with dst and src the same tensor, a vector instruction or "
            "DataCopy reads that tensor again as data before anything rewrites it.",
    why="An in-place reduction writes its result (the sum, or the max/min and its index) over the first "
        "elements of src; src is no longer the data it was. Reading only the result (GetValue(0)) is fine; "
        "reading the tensor as the original values (the numerators of a softmax, the rows to normalise) uses "
        "the result in their place, and the output is wrong in the first element(s), without any error. The "
        "vendor's overlap rules also allow src and dst of one instruction to overlap only completely.",
    example="ReduceSum(expLocal, expLocal, work, n);\nfloat sum = expLocal.GetValue(0);\n"
            "Muls(expLocal, expLocal, 1.0f / sum, n);   // element 0 is the sum, not exp(x0)",
    instead="ReduceSum(sumLocal, expLocal, work, n);   // a separate dst\nfloat sum = sumLocal.GetValue(0);\n"
            "Muls(expLocal, expLocal, 1.0f / sum, n);",
)
def reduce_in_place_source_reread(ctx: CheckContext) -> None:
    ops = ops_of(ctx)
    reductions = [op for op in api_calls_of(ctx) if op.api.data in _IN_PLACE_REDUCTIONS]
    position = {id(op): i for i, op in enumerate(ops)} if reductions else {}
    for reduce in reductions:
        root = _tensor_root(arg(reduce, "dst"))
        if root is None or root is not _tensor_root(arg(reduce, "src")):
            continue
        count = constant_of(arg(reduce, "count"))
        if isinstance(count, int) and count <= 1:
            continue
        kernel = kernel_of(reduce)
        reduced = _same_count(arg(reduce, "count"))
        for later in ops[position[id(reduce)] + 1:]:
            if kernel_of(later) is not kernel:
                break
            if isinstance(later, asc.SetValueOp) and _tensor_root(later.tensor) is root:
                break  # element rewritten by hand: the code knows what it holds
            if not isinstance(later, asc.ApiCallOp) or _exclusive(reduce, later):
                continue
            dst = arg(later, "dst")
            reads = any(_tensor_root(a) is root for a in later.args if a is not dst)
            writes = _tensor_root(dst) is root
            if not (reads or writes):
                continue
            extent = _extent(later, reduced)
            if extent == "result":
                continue  # `Adds(sum, sum, eps, 1)`: works on the result itself
            if reads and extent == "all":
                _report_reread(ctx, later, reduce)
            break  # reported, or rewritten, or a range not known: nothing more to say


def _same_count(value: SSAValue | None) -> object:
    from passes.verify.value_fold import source_of

    return source_of(value) if value is not None else None


def _extent(op: asc.ApiCallOp, reduced: object) -> str | None:
    """How much of its tensors a count-form call touches: "result" (the first one or two elements an
    in-place reduction wrote), "all" (the reduction's own count, or a constant beyond the result), or None."""
    count_value = arg(op, "count")
    if count_value is None:
        return None
    count = constant_of(count_value)
    if isinstance(count, int):
        return "result" if count <= 2 else "all"
    return "all" if reduced is not None and _same_count(count_value) is reduced else None


def _exclusive(a: Operation, b: Operation) -> bool:
    """Whether `a` and `b` sit in different regions of one op (the two branches of an `if`)."""
    regions: dict[int, Region] = {}
    x: Operation | None = a
    while x is not None and x.parent_region() is not None:
        region = x.parent_region()
        assert region is not None
        owner = region.parent_op()
        if owner is None:
            break
        regions[id(owner)] = region
        x = owner
    y: Operation | None = b
    while y is not None and y.parent_region() is not None:
        region = y.parent_region()
        assert region is not None
        owner = region.parent_op()
        if owner is None:
            break
        if id(owner) in regions:
            return regions[id(owner)] is not region
        y = owner
    return False


def _report_reread(ctx: CheckContext, later: asc.ApiCallOp, reduce: asc.ApiCallOp) -> None:
    api = reduce.api.data
    ctx.report(later, f"{later.api.data} reads the tensor {api} reduced in place: its first element(s) now hold "
                      f"the {api} result, not the data",
               ctx.note_at(reduce, f"{api} with dst = src writes its result over src here"),
               Note(f"give {api} a separate dst tensor", kind="help"))


@rule(
    "ASC513", "unknown-struct-member", "api",
    summary="Code reads or writes a member of an AscendC parameter struct (DataCopyParams, DataCopyExtParams, "
            "DataCopyPadExtParams, BinaryRepeatParams, Nd2NzParams, ...) or library tiling struct (RmsNormTiling, "
            "LayerNormTiling, TopkTiling, ...) that the struct does not declare, or names one in a designated "
            "initialiser.",
    why="The parameter structs are plain C++ structs with fixed member names; a member they lack does not "
        "compile (\"no member named 'padValue' in 'AscendC::DataCopyPadExtParams<float>'\"). The names differ "
        "between structs that look alike (DataCopyParams counts 32-byte blocks, DataCopyExtParams bytes; "
        "DataCopyPadExtParams pads with paddingValue), which is where they get mixed up.",
    example="DataCopyPadExtParams<float> pad;\npad.padValue = 0;",
    instead="DataCopyPadExtParams<float> pad;\npad.paddingValue = 0;",
    catalogued_archs_only=True,  # the 950's structs add members (DataCopyExtParams strides of int64_t, ...)
)
def unknown_struct_member(ctx: CheckContext) -> None:
    import difflib

    for op in ops_of_kind(ctx, (asc.StructGetOp, asc.StructSetOp, asc.StructInitOp)):
        if isinstance(op, asc.StructInitOp):
            struct_t, members = op.result.type, [f.data for f in op.fields.data]
        else:
            struct_t, members = op.struct.type, [op.field.data]  # type: ignore[union-attr]
        # a library tiling struct a kernel fills or reads (RmsNormTiling) is a tiling type, its members catalogued
        if not isinstance(struct_t, asc.StructType | asc.TilingType):
            continue
        struct = ctx.catalog.struct(struct_t.type_name.data)
        if struct is None or not struct.fields_complete:
            continue
        for member in members:
            if not member or struct.has_member(member.split(".")[0]):
                continue
            known = [f.name for f in struct.fields]
            close = difflib.get_close_matches(member, [*known, *struct.other_members], n=1)
            ctx.report(op, f"'{struct.name}' has no member '{member}'",
                       Note(f"did you mean '{close[0]}'?" if close else "its members: " + ", ".join(known),
                            kind="help" if close else "note"))
            break


@rule(
    "ASC514", "api-empty-on-chip", "api",
    summary="A call of an API that the vendor declares for every architecture but implements only for "
            "others: on the target chip its body is compiled out and the call does nothing (BitwiseAnd, Fma, "
            "Hypot, IsNan, LogicalAnd, ... on 910B).",
    why="These advanced APIs are written as `#if __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102` around their "
        "whole body. Elsewhere the call compiles, runs, and leaves dst as it was: stale UB contents go out as "
        "the result, with no error from the compiler, the CPU-debug build or the device.",
    example="BitwiseAnd(dst, src0, src1, 256);   // int16_t on 910B2: dst is never written",
    instead="And(dst, src0, src1, 256);          // the basic API, implemented for int16_t/uint16_t on 910B",
)
def api_empty_on_chip(ctx: CheckContext) -> None:
    arch = chip_arch(ctx)
    for call in catalog_calls(ctx):
        if arch in call.api.empty_archs:
            ctx.report(call.op, f"{call.api.name} does nothing on {ctx.chip.name} (arch {arch}): the vendor "
                                f"compiles its body only for other architectures, so its outputs keep whatever "
                                f"they held")
