"""Constants a template holds without declaring them itself: `X<...>::value` of a class whose value comes from its
base (the standard library's integral constants, and the detection idiom that picks one of them), and variable
templates.

tla (catlass's CuTe-like layout library) asks its type traits the C++ way:

    template <class T, class = void> struct tuple_size;                     // declared only
    template <class... T> struct tuple_size<tla::tuple<T...>> : std::integral_constant<size_t, sizeof...(T)> {};
    namespace detail {
    template <class T> auto has_tuple_size(T*) -> bool_constant<(0 <= tuple_size<T>::value)>;
    auto has_tuple_size(...) -> false_type;
    }
    template <class T> struct is_tuple : decltype(detail::has_tuple_size((T*)0)) {};

`value` is declared by neither class: `std::integral_constant<T, v>` (and `bool_constant<v>`, `true_type`,
`false_type`, which are instances of it) holds it, as `v`. is_tuple's base is the return type of the overload
of has_tuple_size a call with a `T *` would take: the template, where substituting T into its return type works
(T has a tuple_size with a value), else the C variadic one, which every argument list matches and overload
resolution ranks last. The functions are declared only, never defined: the call is unevaluated (decltype), so the
lowering picks the overload and reads its return type without lowering a call. A substitution that fails (a name
the lowering cannot resolve there: `tuple_size<int>::value`) drops the candidate, as SFINAE does.

A variable template (`template <class Tuple> constexpr auto rank_v = rank_t<Tuple>::value;`) is its initialiser
with its parameters bound to the arguments written where it is read; it was read as a plain constant, Tuple
unbound (std::declval of an unknown type, a value left out).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C, namespace_lookup
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# the standard library's integral constant classes and the constant each holds (None: its last argument)
_CONSTANTS: dict[str, int | None] = {"integral_constant": None, "bool_constant": None, "true_type": 1,
                                     "false_type": 0}


def base_member(lw: FunctionLowerer, base: A.TypeRef, member: str, node: A.Node) -> Val | None:
    """`member` of a class deriving from `base`, when `base` is an integral constant (the member `value`), directly
    or as the type of an unevaluated call of declared-only functions; None for any other base. Lowered in the
    derived class's template frame (its parameters bound)."""
    if member != "value":
        return None
    if base.decltype_expr is not None and isinstance(base.decltype_expr, A.Call):
        chosen = _chosen_return_type(lw, base.decltype_expr)
        if chosen is None:
            return None
        ref, params, args = chosen
        with lw._template_frame("decltype", params, args):
            return _constant_of(lw, ref, node)
    return _constant_of(lw, base, node)


def _constant_of(lw: FunctionLowerer, ref: A.TypeRef, node: A.Node) -> Val | None:
    """The `value` of integral constant type `ref`; None when `ref` names no standard integral constant (a class of
    the program's own by that name is not the standard one)."""
    if not isinstance(ref.base, A.QualifiedName) or ref.pointers:
        return None
    last = ref.base.parts[-1]
    if last.name not in _CONSTANTS or last.name in lw.scope.classes:
        return None
    fixed = _CONSTANTS[last.name]
    if fixed is not None:
        return Val(C.BOOL, const=fixed)
    targs = last.template_args or []
    if not targs:
        return None
    value = lw._template_arg_value(targs[-1])
    if not isinstance(value, bool | int):
        return None
    t = lw._template_arg_value(targs[0]) if last.name == "integral_constant" and len(targs) == 2 else C.BOOL
    return Val(t if isinstance(t, C.Scalar) else C.I64, const=int(value))


def _chosen_return_type(lw: FunctionLowerer, call: A.Call
                        ) -> tuple[A.TypeRef, list[A.TemplateParam], list[object]] | None:
    """The return type of the overload an unevaluated call of declared-only functions takes, with the template
    parameters and the arguments deduced for it; None when the callee is not such a set of functions."""
    if not isinstance(call.callee, A.Name):
        return None
    name = call.callee.qname.parts[-1].name
    candidates = lw.scope.prototypes.get(name, [])  # (functions declared, never defined)
    if not candidates or name in lw.scope.functions:
        return None
    # (the C variadic `f(...)` matches any arguments and ranks below every other conversion: tried last)
    ordered = sorted(candidates, key=lambda f: any(p.variadic and p.type.base == "..." for p in f.params))
    for fn in ordered:
        if fn.return_type is None:
            continue
        if any(p.variadic and p.type.base == "..." for p in fn.params):
            return fn.return_type, [], []
        deduced = _deduce(lw, fn, call.args)
        if deduced is None:
            continue
        params = list(lw.scope.function_templates.get(id(fn)) or fn.template_params or [])
        args = [deduced.get(p.name or "") for p in params]
        if any(a is None for a in args):
            continue
        with lw._template_frame("decltype", params, args):
            if _substitutes(lw, fn.return_type, call):
                return fn.return_type, params, args
    return None


def _deduce(lw: FunctionLowerer, fn: A.FunctionDecl, args: list[A.Node]) -> dict[str, object] | None:
    """Template arguments of `fn` deduced from call arguments of the form `T *` / `T` (the parameter a bare
    template parameter, with as many pointers as the parameter's type has); None when they do not match."""
    if len(args) != len(fn.params):
        return None
    names = {p.name for p in lw.scope.function_templates.get(id(fn)) or fn.template_params or [] if p.name}
    deduced: dict[str, object] = {}
    for param, arg in zip(fn.params, args):
        t = param.type
        stars = [p for p in t.pointers if p == "*"]
        mark = lw._mark()
        try:
            held = lw.expr(arg).ctype
        except Unsupported:
            return None
        finally:
            lw._rollback(mark)
        for _ in stars:
            if not isinstance(held, C.Pointer):
                return None
            held = held.pointee
        if isinstance(t.base, A.QualifiedName) and len(t.base.parts) == 1 and t.base.parts[0].name in names:
            if t.base.parts[0].name in deduced and deduced[t.base.parts[0].name] != held:
                return None  # (T deduced as two types)
            deduced[t.base.parts[0].name] = held
        # (a parameter of a type written out: the argument is taken to convert, for choosing among detectors)
    return deduced


def _substitutes(lw: FunctionLowerer, ref: A.TypeRef, node: A.Node) -> bool:
    """Whether the return type `ref` is well-formed with the deduced arguments: each of its template arguments
    resolves (an expression to a constant); one the lowering cannot resolve is a substitution failure."""
    if not isinstance(ref.base, A.QualifiedName):
        return True
    mark = lw._mark()
    try:
        for part in ref.base.parts:
            for a in part.template_args or []:
                value = lw._template_arg_value(a)
                if isinstance(value, C.UnknownT) and not isinstance(a.value, A.TypeRef):
                    return False
        return True
    except Unsupported:
        return False
    finally:
        lw._rollback(mark)


def variable_template(lw: FunctionLowerer, parts: Sequence[A.NamePart], e: A.Node) -> Val | None:
    """`rank_v<Stride>` of a variable template of the program: its initialiser for those arguments; None for any
    other name."""
    if not parts or parts[-1].template_args is None or parts[-1].name not in lw.scope.variable_templates:
        return None
    found = namespace_lookup.variable(lw, parts[-1].name, [p.name for p in parts[:-1]] if len(parts) > 1 else None, e)
    if found is None:
        return None
    _, decl = found
    if decl.init is None or isinstance(decl.init, A.InitList):
        return None
    values = lw._template_arg_values(parts[-1].template_args)
    with lw._template_frame(parts[-1].name, lw.scope.variable_templates[parts[-1].name], values):
        v = lw.expr(decl.init)
        auto = isinstance(decl.type.base, str) and decl.type.base == "auto"
        t = v.ctype if auto else lw.resolve_type(decl.type, decl)
    return lw.convert(v, t, e) if isinstance(t, C.Scalar) and isinstance(v.ctype, C.Scalar) else v
