"""Operator attributes and list values in the host dialect: `GetAttrs()->GetInt(i)` and friends, whether an
optional attribute is set, string comparison, an input tensor's values read as a list, and list reads.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr, i1, i8, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ascendir.dialects.host_types import (
    ATTR_RESULT_TYPES,
    AnyContext,
    ContextOf,
    IntListType,
    PlatformType,
    StringType,
    TensorQueryOp,
    check_index,
)


@irdl_op_definition
class AttrOp(IRDLOperation):
    """`context->GetAttrs()->GetInt(i)` and friends; the getter follows the result type.

    `i64` GetInt, `f32` GetFloat, `i1` GetBool, `!host.string` GetStr, `!host.int_list` GetListInt.
    The attribute is the `index` property plus, when present, the runtime value of `at`: an index counted in
    a local (`GetAttrPointer<float>(idx++)`), printed `%ctx[0 + %idx]`, as a tensor query's is.
    `stored`, when present, is the kind the op's OpDef declares the attribute as, which the getter's differs
    from (`GetInt(0)` of a `.Float(1.0)` attribute): GetAttrPointer<T> reinterprets the attribute's bytes, so
    the result is the stored value's bytes read as the getter's type (ascendir.host_eval_context).
    """

    name = "host.attr"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    stored = opt_prop_def(StringAttr)
    result = result_def(AnyAttr())

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (ContextOf,)
    assembly_format = (
        "$context `[` $index (`+` $at^)? `]` custom<ContextOf>(type($context)) attr-dict `:` type($result)"
    )

    def __init__(self, context: SSAValue, index: int, kind: str, at: SSAValue | None = None,
                 stored: str | None = None) -> None:
        properties: dict[str, Attribute] = {"index": IntegerAttr(index, i64)}
        if stored is not None:
            properties["stored"] = StringAttr(stored)
        super().__init__(
            operands=[context, [at] if at is not None else []],
            properties=properties,
            result_types=[ATTR_RESULT_TYPES[kind]],
        )

    @property
    def kind(self) -> str:
        """The attribute kind read: int, float, bool, str or list_int."""
        for kind, typ in ATTR_RESULT_TYPES.items():
            if typ == self.result.type:
                return kind
        raise ValueError(f"host.attr has no kind for result type {self.result.type}")

    def verify_(self) -> None:
        check_index(self.index, "attribute")
        if self.result.type not in ATTR_RESULT_TYPES.values():
            allowed = ", ".join(str(t) for t in ATTR_RESULT_TYPES.values())
            raise VerifyException(f"host.attr result must be one of {allowed}, got {self.result.type}")


@irdl_op_definition
class HasAttrOp(IRDLOperation):
    """`context->GetAttrs()->GetAttrPointer<T>(i) != nullptr`: whether an optional attribute is set (the
    attribute `index` + `at`, as host.attr's)."""

    name = "host.has_attr"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    result = result_def(i1)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index (`+` $at^)? `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(operands=[context, [at] if at is not None else []],
                         properties={"index": IntegerAttr(index, i64)}, result_types=[i1])

    def verify_(self) -> None:
        check_index(self.index, "attribute")


@irdl_op_definition
class StrEqOp(IRDLOperation):
    """`strcmp(s, "literal") == 0` / `std::string(s) == "literal"`."""

    name = "host.str_eq"

    value = operand_def(StringType)
    literal = prop_def(StringAttr)
    result = result_def(i1)

    traits = traits_def(Pure())
    assembly_format = "$value `,` $literal attr-dict"

    def __init__(self, value: SSAValue, literal: str) -> None:
        super().__init__(operands=[value], properties={"literal": StringAttr(literal)}, result_types=[i1])


@irdl_op_definition
class PlatformResOp(IRDLOperation):
    """`platformInfo->GetPlatformRes(label, key, value)` on the fe::PlatFormInfos: the entry `key` of the chip's
    platform section `label` (the dtype list of an intrinsic in "AICoreintrinsicDtypeMap", the SoC name in
    "version"), "" where the chip has none. A string, so it lives with the other string ops."""

    name = "host.platform_res"

    platform = operand_def(PlatformType)
    label = prop_def(StringAttr)
    key = prop_def(StringAttr)
    result = result_def(StringType)

    traits = traits_def(Pure())
    assembly_format = "$platform $label `,` $key attr-dict"

    def __init__(self, platform: SSAValue, label: str, key: str) -> None:
        super().__init__(operands=[platform], properties={"label": StringAttr(label), "key": StringAttr(key)},
                         result_types=[StringType()])


@irdl_op_definition
class StrConstOp(IRDLOperation):
    """A std::string holding `literal`: `std::string s;` (empty) before a call fills it through a reference."""

    name = "host.str_const"

    literal = prop_def(StringAttr)
    result = result_def(StringType)

    traits = traits_def(Pure())
    assembly_format = "$literal attr-dict"

    def __init__(self, literal: str) -> None:
        super().__init__(properties={"literal": StringAttr(literal)}, result_types=[StringType()])


@irdl_op_definition
class StrFindOp(IRDLOperation):
    """`s.find("literal")`: the position of the literal's first occurrence in s, -1 (std::string::npos, all ones)
    where it has none."""

    name = "host.str_find"

    value = operand_def(StringType)
    literal = prop_def(StringAttr)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$value `,` $literal attr-dict"

    def __init__(self, value: SSAValue, literal: str) -> None:
        super().__init__(operands=[value], properties={"literal": StringAttr(literal)}, result_types=[i64])


@irdl_op_definition
class StrNullOp(IRDLOperation):
    """A null `const char*` (`return nullptr;` from a helper that returns an attribute's C string, or the
    pointer GetStr hands out for an absent attribute): a `!host.string` that holds no text, which
    host.str_is_null tells apart and any read of its characters rejects."""

    name = "host.str_null"

    result = result_def(StringType)

    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__(result_types=[StringType()])


@irdl_op_definition
class StrIsNullOp(IRDLOperation):
    """`p == nullptr` of a `const char*` held as a `!host.string` (host.str_null's value, or a text)."""

    name = "host.str_is_null"

    value = operand_def(StringType)
    result = result_def(i1)

    traits = traits_def(Pure())
    assembly_format = "$value attr-dict"

    def __init__(self, value: SSAValue) -> None:
        super().__init__(operands=[value], result_types=[i1])


@irdl_op_definition
class StrCharOp(IRDLOperation):
    """`p[i]` / `*p` of a `const char*` held as a `!host.string` (the text from where the pointer points): the
    character's code as i8, 0 (the terminator) at the text's end; past the end, or on a null pointer, the
    evaluator stops (the C++ reads outside the string)."""

    name = "host.str_char"

    value = operand_def(StringType)
    position = operand_def(i64)
    result = result_def(i8)

    traits = traits_def(Pure())
    assembly_format = "$value `[` $position `]` attr-dict"

    def __init__(self, value: SSAValue, position: SSAValue) -> None:
        super().__init__(operands=[value, position], result_types=[i8])


@irdl_op_definition
class StrAdvanceOp(IRDLOperation):
    """`p + n` / `++p` of a `const char*` held as a `!host.string`: the text from n characters further on (a
    pointer one past the end is the empty text; further, or back before the start, the evaluator stops)."""

    name = "host.str_advance"

    value = operand_def(StringType)
    count = operand_def(i64)
    result = result_def(StringType)

    traits = traits_def(Pure())
    assembly_format = "$value `,` $count attr-dict"

    def __init__(self, value: SSAValue, count: SSAValue) -> None:
        super().__init__(operands=[value, count], result_types=[StringType()])


@irdl_op_definition
class InputValuesOp(TensorQueryOp):
    """`context->GetInputTensor(i)->GetData<T>()` of an integer T: the input tensor's element values (a host
    tiling function that reads a shape or index list passed as a tensor: Fill's dims, StridedSlice's begin/end),
    read as a list like a list-of-int attribute's."""

    name = "host.input_values"

    result = result_def(IntListType)
    # GetData<T> of a floating-point T (LinSpace's start / stop): the element width; the list then holds each
    # value's bit pattern, which the reader bitcasts back to T (ascendir/lower/host_tensor_data.py)
    float_bits = opt_prop_def(IntegerAttr[I64])
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None, float_bits: int | None = None
                 ) -> None:
        extra = {"float_bits": IntegerAttr(float_bits, i64)} if float_bits is not None else {}
        super().__init__(context, index, at, IntListType(), **extra)


@irdl_op_definition
class ListSizeOp(IRDLOperation):
    """`list->GetSize()` of a list-of-int attribute."""

    name = "host.list_size"

    list = operand_def(IntListType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$list attr-dict"

    def __init__(self, list_value: SSAValue) -> None:
        super().__init__(operands=[list_value], result_types=[i64])


@irdl_op_definition
class ListGetOp(IRDLOperation):
    """`list->GetData()[i]` of a list-of-int attribute."""

    name = "host.list_get"

    list = operand_def(IntListType)
    position = operand_def(i64)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$list `[` $position `]` attr-dict"

    def __init__(self, list_value: SSAValue, position: SSAValue) -> None:
        super().__init__(operands=[list_value, position], result_types=[i64])
