"""Type traits that fold to constants: `std::is_same<A, B>::value`, `is_same_v<A, B>`, `IsTypeOneOf<...>`, a
trait the program names through an alias template (`template <class T> using is_std_integral =
std::is_integral<T>;`), `std::is_empty<T>`, the primary categories (`std::is_integral<T>::value`) and
`std::is_member_function_pointer_v<decltype(&C::M)>`.

Moved out of the template lowering (lower_templates.py), which chooses specialisations and evaluates template
arguments; these answer questions about the types those arguments name. Functions of the FunctionLowerer `lw`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ascendir.lower import class_bases, template_values
from ascendir.lower import ctypes as C
from ascendir.lower.header_names import ONE_OF_TRAITS, TRAIT_VALUES, TYPE_TRAITS
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


# the standard traits value() folds as the standard library defines them ([meta.rel], [meta.unary.cat],
# [meta.unary.prop]), whatever homonym the program declares: `std::is_same<A, B>::value` is answered even beside a
# program's own is_same (lower_names)
STANDARD_FOLDS = frozenset({"is_same", "is_void", "is_integral", "is_floating_point", "is_arithmetic", "is_empty"})


def value(lw: FunctionLowerer, parts: Sequence[A.NamePart]) -> Val | None:
    """`std::is_same<A, B>::value`, `is_same_v<A, B>`, `IsSameType<A, B>::value` fold to constants; a variable
    template of the program is its initialiser for the arguments written."""
    held = template_values.variable_template(lw, parts, parts[-1]) if parts else None
    if held is not None:
        return held
    if len(parts) >= 2 and parts[-1].name == "value" and parts[-2].name in lw.scope.alias_templates and (
            expanded := class_bases.alias_expanded(lw, A.TypeRef(parts[-2].span, A.QualifiedName(
                parts[-2].span, [parts[-2]])))) is not None and isinstance(expanded.base, A.QualifiedName):
        # `is_std_integral<T>::value` with `template <class T> using is_std_integral = std::is_integral<T>;`
        # (tla): the trait the alias names, as written there
        found = value(lw, [*expanded.base.parts, parts[-1]])
        if found is not None:
            return found
    category = std_category(lw, parts)
    if category is not None:
        return category
    if len(parts) >= 2 and parts[-1].name == "value" and parts[-2].name == "is_empty" \
            and len(parts[-2].template_args or []) == 1:
        # `std::is_empty<T>::value` (tla's is_static: a shape known at compile time is an empty class)
        arg = lw._template_arg_value((parts[-2].template_args or [])[0])
        return Val(C.BOOL, const=int(_empty_class(lw, arg)))
    if len(parts) >= 2 and parts[-1].name == "value" and (
            parts[-2].name in TYPE_TRAITS or parts[-2].name in ONE_OF_TRAITS
            or parts[-2].name in lw.scope.same_type_traits):
        trait = parts[-2]
    elif parts and parts[-1].name in TRAIT_VALUES:
        trait = parts[-1]
    else:
        return None
    args = trait.template_args or []
    if trait.name in ("is_void", "is_void_v") and len(args) == 1:  # `std::is_void_v<PrologueA>`
        return Val(C.BOOL, const=int(isinstance(lw._template_arg_value(args[0]), C.VoidT)))
    if len(args) != 2 and not (trait.name in ONE_OF_TRAITS and args):
        return None
    first, *others = (lw._template_arg_value(x) for x in args)
    return Val(C.BOOL, const=int(any(_same_type(first, other) for other in others)))


# <type_traits>' primary type categories a one-argument `::value` / `_v` answers for the lowering's types
_CATEGORIES = {"is_integral": lambda t: not t.is_float, "is_floating_point": lambda t: t.is_float,
               "is_arithmetic": lambda t: True}


def std_category(lw: FunctionLowerer, parts: Sequence[A.NamePart]) -> Val | None:
    """`std::is_integral<T>::value` (and `is_integral_v<T>`, is_floating_point, is_arithmetic): whether T is such
    a type, for the lowering's scalars (bool and the integer types are integral, [basic.fundamental]) and classes
    (none is). Written `std::`, it is the standard trait even where the program declares its own of that name
    (tla's `is_integral<T> : bool_constant<is_std_integral<T>::value>` with `is_std_integral = std::is_integral`,
    which was its own base again: an endless lookup). None for anything else, or a T out of reach."""
    if len(parts) >= 2 and parts[-1].name == "value":
        trait, written = parts[-2], parts[:-2]
    elif parts and parts[-1].name.endswith("_v"):
        trait, written = A.NamePart(parts[-1].span, parts[-1].name[:-2], parts[-1].template_args), parts[:-1]
    else:
        return None
    test = _CATEGORIES.get(trait.name)
    args = trait.template_args or []
    if test is None or len(args) != 1 or (trait.name in lw.scope.classes and not any(
            p.name == "std" for p in written)):
        return None
    t = lw._template_arg_value(args[0])
    if isinstance(t, C.Scalar):
        return Val(C.BOOL, const=int(bool(test(t))))
    if isinstance(t, C.ClassT | C.StructT | C.TilingT | C.Pointer):
        return Val(C.BOOL, const=0)
    return None


def member_function_pointer(lw: FunctionLowerer, trait: A.NamePart) -> bool | None:
    """`std::is_member_function_pointer_v<decltype(&Predicate::CopyInPlus)>` with Predicate a user class: whether
    the class (or a base) has that method (NPUKernelBench's foreach kernels call the hooks their derived class
    defines under this test); None when the argument is not of that form."""
    args = trait.template_args or []
    ref = args[0].value if len(args) == 1 else None
    expr = getattr(ref, "decltype_expr", None)
    if not (isinstance(expr, A.Unary) and expr.op == "&" and isinstance(expr.operand, A.Name)
            and len(expr.operand.qname.parts) >= 2):
        return None
    *owner, method = expr.operand.qname.parts
    t = lw.named_type(owner[-1].name, owner[-1].template_args)
    if not isinstance(t, C.ClassT) or t.name not in lw.scope.classes:
        return None
    return _class_has_method(lw, t, method.name)


def _class_has_method(lw: FunctionLowerer, t: C.ClassT, name: str, depth: int = 0) -> bool:
    info = lw.scope.classes[t.name]
    if info.methods.get(name):
        return True
    if depth > 8:
        return False
    for base_ref in info.decl.bases:
        with lw._class_template_frame(info, t.args):
            base = lw.resolve_type(base_ref)
        if isinstance(base, C.ClassT) and base.name in lw.scope.classes and base.name != info.name \
                and _class_has_method(lw, base, name, depth + 1):
            return True
    return False


def _empty_class(lw: FunctionLowerer, t: object, depth: int = 0) -> bool:
    """std::is_empty: a class of the program with no non-static data member, in itself or a base (bases
    judged by their class's declaration). Scalars, pointers and tensors are not empty."""
    name = t.name if isinstance(t, C.ClassT) else t if isinstance(t, str) else None
    info = lw.scope.classes.get(name) if name is not None else None
    if info is None or depth > 16:
        return False
    if any("static" not in vd.specifiers for vd, _ in info.fields):
        return False
    return all(_empty_class(lw, b.base.parts[-1].name, depth + 1) for b in info.decl.bases
               if isinstance(b.base, A.QualifiedName))


def _same_type(a: object, b: object) -> bool:
    if isinstance(a, C.LocalTensorT) and isinstance(b, C.LocalTensorT):
        # the TPosition a tensor was allocated from is ours, not part of its C++ type
        return a.elem == b.elem
    return a == b
