"""Overload resolution and template arguments for calls of user functions: the overload a call picks (by
arity, the argument's struct, class and tensor types, plain before template), explicit and deduced template
arguments, and the candidates C++ drops because deduction fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ascendir.lower import class_bases, ctypes as C, enable_if
from ascendir.lower.astwalk import walk
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Instance, Pack, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def pick_overload(fns: Sequence[A.FunctionDecl], n: int, node: A.Node, name: str,
                  lw: FunctionLowerer | None = None, args: Sequence[Val] = (),
                  owner: Instance | None = None) -> A.FunctionDecl:
    """The overload of a user function to inline: the first that takes `n` arguments, and among several such,
    the first whose struct and class parameters name the types of the arguments passed
    (`Process(PARAM_LONG_SEQ_EXP p, ...)` beside `Process(PARAM_MEDIUM_SEQ_EXP p, ...)`)."""
    with_body = [f for f in fns if f.body is not None] or list(fns)
    viable = [f for f in with_body if takes(f, n)]
    if len(viable) > 1 and lw is not None and owner is not None and args:
        # a method's overloads, by the kinds their parameters take in the class's terms (`Coord operator+(Coord
        # const &)` beside `Coord operator+(Index)`, for a MatrixCoord argument)
        kinds = [f for f in viable if lw._frame_takes(owner, f, args)]
        if kinds and len(kinds) < len(viable):
            viable = kinds
    if len(viable) > 1 and lw is not None:
        typed = [f for f in viable if not _record_type_mismatch(lw, f, args)]
        # C++ prefers a plain function to a template when both take the arguments as they are
        # (`GMToUB(GlobalTensor<float>&)` beside `template <class C> GMToUB(GlobalTensor<C>&)` for a float tensor)
        plain = next((f for f in typed if id(f) not in lw.scope.function_templates
                      and not _scalar_conversion(f, args)), None)
        if plain is not None:
            return plain
        if typed:
            return typed[0]
    if viable:
        return viable[0]
    if len(with_body) == 1:
        return with_body[0]
    raise Unsupported(f"no overload of '{name}' takes {n} arguments", node)


def takes(fn: A.FunctionDecl, n: int) -> bool:
    """Whether `fn` can be called with `n` arguments: at least its parameters without a default, at most all of
    them, any number with a parameter pack."""
    return (sum(1 for p in fn.params if p.default is None and _named_or_typed(p) and not p.variadic) <= n
            <= len(fn.params) or any(p.variadic for p in fn.params))


def _named_or_typed(p: A.Param) -> bool:
    """Whether a parameter without a default must be given: a named one, and an unnamed one of a type (tla's
    `detail::apply(T&& t, F&& f, seq<I...>)`, whose third parameter only deduces I), not `(void)`'s."""
    return p.name is not None or not (p.type.base == "void" and not p.type.pointers)


def _record_type_mismatch(lw: FunctionLowerer, fn: A.FunctionDecl, args: Sequence[Val]) -> bool:
    """Whether a parameter of `fn` names a user struct or class other than the one its argument has, or a
    tensor its argument is not: a LocalTensor for a GlobalTensor (`CopyIn(const LocalTensor<T>&, const
    GlobalTensor<T>&)` beside `CopyOut(const GlobalTensor<T>&, const LocalTensor<T>&)` overloads), or a tensor of
    a named element type other than the argument's (`Compute(LocalTensor<half>)` beside `Compute(LocalTensor<float>)`)."""
    records = lw.scope.classes.keys() | lw.scope.tiling_structs.keys()
    host_mismatch = getattr(lw, "host_param_mismatch", None)  # the host lowering's library objects
    for param, arg in zip(fn.params, args):
        if host_mismatch is not None and host_mismatch(param, arg):
            return True
        if "*" in param.type.pointers and isinstance(arg.ctype, _OBJECTS):
            # a tensor or a TBuf for `__local_mem__ float *xPtr`: neither converts to a pointer (LocalTensor has
            # no conversion operator), so C++ takes the LocalTensor / TBuf overload beside it (ops-nn
            # reduce_common_regbase.h's CalculateReduceSum(xLocal, dstLocal, tmpBuf, ...))
            return True
        base = param.type.base
        if isinstance(base, str) or not base.parts:
            continue
        wanted = base.parts[-1].name
        if wanted in _TENSOR_CLASSES and not param.type.pointers.count("*") and isinstance(arg.ctype, C.BufT):
            return True  # a TBuf for a `LocalTensor<float>&` parameter: no conversion either
        if wanted in _TENSOR_CLASSES and isinstance(arg.ctype, C.LocalTensorT | C.GlobalTensorT):
            if _TENSOR_CLASSES[wanted] is not type(arg.ctype):
                return True
            targs = base.parts[-1].template_args
            elem = targs[0].value if targs else None
            if isinstance(elem, A.TypeRef) and not elem.pointers and arg.ctype.elem is not None:
                spelt = elem.base if isinstance(elem.base, str) else (
                    elem.base.parts[0].name if len(elem.base.parts) == 1 and not elem.base.parts[0].template_args
                    else None)
                named = C.scalar_named(spelt) if spelt is not None else None  # a type parameter (T) is no scalar
                if named is not None and named != arg.ctype.elem:
                    return True
            continue
        given = arg.ctype.name if isinstance(arg.ctype, C.TilingT | C.StructT | C.ClassT) else None
        if given is not None and wanted in records and wanted != given.partition("<")[0]:
            return True
    return False


def _scalar_conversion(fn: A.FunctionDecl, args: Sequence[Val]) -> bool:
    """Whether a by-value scalar parameter of `fn` names another scalar type than its argument has (a
    template taking T would match that argument exactly, and C++ prefers it)."""
    for param, arg in zip(fn.params, args):
        base = param.type.base
        spelt = base if isinstance(base, str) else (
            base.parts[-1].name if base.parts and not base.parts[-1].template_args else None)
        named = C.scalar_named(spelt) if spelt is not None and not param.type.pointers else None
        if named is not None and isinstance(arg.ctype, Scalar) and named != arg.ctype:
            return True
    return False


_TENSOR_CLASSES: dict[str, type] = {"LocalTensor": C.LocalTensorT, "GlobalTensor": C.GlobalTensorT}
# objects that no pointer parameter takes
_OBJECTS = (C.LocalTensorT, C.GlobalTensorT, C.BufT, C.QueueT, C.PipeT)


def explicit_types(lw: FunctionLowerer, fn: A.FunctionDecl, targs: list[A.TemplateArg] | None,
                   args: Sequence[Val]) -> dict[str, object]:
    """Template bindings of a function template: explicit arguments, then deduction from the arguments."""
    params = lw.scope.function_templates.get(id(fn)) or []
    bound = _given(lw, params, targs)
    names = {p.name for p in params if p.name}
    for i, (param, arg) in enumerate(zip(fn.params, args)):
        if param.variadic and isinstance(param.type.base, A.QualifiedName):
            # `Ts const &... values`: the pack of the remaining arguments' types
            pack = param.type.base.parts[-1].name
            if pack in names and pack not in bound:
                bound[pack] = Pack(tuple(a.ctype for a in args[i:]))
            break
        if class_bases.base_deduction(lw, param.type, arg.obj, names, bound) is None and \
                not class_bases.alias_deduction(lw, param.type, arg.ctype, names, bound):
            _deduce(param.type, arg.ctype, names, bound)
    for p in params:
        if p.name and p.name not in bound and p.default is not None:
            bound[p.name] = lw._default_template_value(p)
        elif p.name and p.name not in bound and p.variadic and not any(
                fp.variadic for fp in fn.params):
            # a pack neither given nor deduced from a parameter pack is empty (tla's `template <int... Is, class
            # Tuple> auto rank(Tuple const& t)` called as rank(t): `sizeof...(Is)` is 0)
            bound[p.name] = Pack(())
    return bound


def _given(lw: FunctionLowerer, params: Sequence[A.TemplateParam], targs: list[A.TemplateArg] | None
           ) -> dict[str, object]:
    """The template arguments written in the call, by parameter."""
    bound: dict[str, object] = {}
    # (`get<1, I...>(t)`: a pack expansion among them is its elements)
    values = lw._template_arg_values(targs) if targs else ()
    for i, p in enumerate(params):
        if p.name is None or i >= len(values):
            continue  # (a pack given no argument here is deduced: tla's `get<0>(t)` of `<size_t I, class... T>`)
        if p.variadic:
            # `GetCoordByAxis<0, 1>()` for `template <int... Is>`: the pack of the remaining explicit arguments
            bound[p.name] = Pack(tuple(values[i:]))
            break
        bound[p.name] = values[i]
    return bound


def in_written_namespace(lw: FunctionLowerer, written: Sequence[A.NamePart], fns: Sequence[A.FunctionDecl]
                         ) -> list[A.FunctionDecl]:
    """The functions a call qualified with namespaces (`tla::MakeCoord(2u, 3u)`) names: those declared in the
    namespace written ([namespace.qual]), not a homonym of another namespace (catlass's own `Catlass::MakeCoord`,
    which makes a Coord<N, T>); all of them when none is declared there or no namespace is written."""
    spaces = [p.name for p in written if p.name in lw.scope.namespaces]
    if not spaces or len(spaces) != len(written):
        return list(fns)
    path = "::".join(spaces)
    chosen = [f for f in fns if (lw.scope.declared_in.get(id(f), "") + "::").endswith(f"{path}::")
              or lw.scope.declared_in.get(id(f), "").startswith(f"{path}::")]
    return chosen or list(fns)


def without_user_conversions(lw: FunctionLowerer, fns: Sequence[A.FunctionDecl], targs: list[A.TemplateArg] | None,
                             args: Sequence[Val]) -> list[A.FunctionDecl]:
    """Of several function templates that take the arguments, those needing the fewest user-defined conversions (a
    number for a parameter whose explicit template argument is a class, an object for one that is a number or
    another class): a standard conversion sequence is better
    than a user-defined one ([over.ics.rank]/3.3). tla's `MakeLayout<half, RowMajor>(m, k)` takes its four-parameter
    overload (T, U deduced as the numbers), not `MakeLayout<Shape, Stride>(Shape const&, Stride const&)`, where the
    second number would have to become a RowMajor."""
    if len(fns) < 2:
        return list(fns)
    counted = []
    for fn in fns:
        bound = _given(lw, lw.scope.function_templates.get(id(fn)) or [], targs)
        n = 0
        for param, arg in zip(fn.params, args):
            base = param.type.base
            spelt = base.parts[-1].name if isinstance(base, A.QualifiedName) and len(base.parts) == 1 else None
            held = bound.get(spelt or "")
            if isinstance(held, C.ClassT | Scalar) and isinstance(arg.ctype, C.ClassT | Scalar) and \
                    "*" not in param.type.pointers and held != arg.ctype and (
                        isinstance(held, C.ClassT) or isinstance(arg.ctype, C.ClassT)):
                n += 1  # (a number to a class, an object to a number or to another class: a user conversion)
        counted.append((n, fn))
    fewest = min(n for n, _ in counted)
    return [fn for n, fn in counted if n == fewest]


def _wrong_kind(p: A.TemplateParam, given: object) -> bool:
    """Whether an explicit template argument is of another kind than its parameter: a number for a type
    parameter, a type for a value parameter (each element of a pack)."""
    for v in (given.items if isinstance(given, Pack) else (given,)):
        if p.kind == "type" and isinstance(v, bool | int) or p.kind == "value" and isinstance(v, Scalar | C.ClassT):
            return True
    return False


def _deduce(t: A.TypeRef, actual: CType, names: set[str], bound: dict[str, object]) -> None:
    if isinstance(t.base, str):
        return
    last = t.base.parts[-1]
    if last.name in names and last.name not in bound and not last.template_args:
        if isinstance(actual, C.Pointer) and t.pointers and "*" in t.pointers:
            actual = actual.pointee
        elif isinstance(actual, C.ArrayT) and t.pointers and "*" in t.pointers:
            actual = actual.elem  # an array given for `T *dst` decays to a pointer to its first element
        bound[last.name] = actual
        return
    if last.template_args and isinstance(actual, C.ClassT) and actual.name.partition("<")[0] == last.name:
        # `CrossCoreFlagWithReverse<DEPTH> &flag` given a CrossCoreFlagWithReverse<16>: DEPTH is 16
        for i, (targ, value) in enumerate(zip(last.template_args, actual.args)):
            inner = targ.value.type if isinstance(targ.value, A.TypeArgExpr) else targ.value
            n = (inner.base.parts[-1].name if isinstance(inner, A.TypeRef) and isinstance(inner.base, A.QualifiedName)
                 and len(inner.base.parts) == 1 and not inner.base.parts[0].template_args else
                 inner.qname.parts[0].name if isinstance(inner, A.Name) and len(inner.qname.parts) == 1 else None)
            if n is not None and n in names and n not in bound:
                # (`tuple<T...> const &t` given a tuple<int, float>: the pack takes the arguments left)
                bound[n] = Pack(tuple(actual.args[i:])) if targ.pack else value
        return
    if last.template_args and isinstance(actual, C.LocalTensorT | C.GlobalTensorT):
        if last.name in names and last.name not in bound:  # `R<T>& x`: R is a template template parameter
            bound[last.name] = C.TemplateNameT("LocalTensor" if isinstance(actual, C.LocalTensorT) else "GlobalTensor")
        arg = last.template_args[0].value
        if isinstance(arg, A.TypeRef) and isinstance(arg.base, A.QualifiedName):
            n = arg.base.parts[-1].name
            if n in names and n not in bound and actual.elem is not None:
                bound[n] = actual.elem


def deduction_fails(lw: FunctionLowerer, fn: A.FunctionDecl, args: Sequence[Val],
                    targs: list[A.TemplateArg] | None = None) -> bool:
    """Whether `fn` is a function template with a parameter of a class template's type (`C<t>`, `Coord<N, T>`)
    given a scalar argument, or an object none of whose bases of that template deduces it with the explicit
    arguments `targs` (class_bases.base_deduction): deduction fails there (no conversion is considered), so C++
    drops the candidate."""
    if id(fn) not in lw.scope.function_templates:
        return False
    params = lw.scope.function_templates[id(fn)]
    names = {p.name for p in params if p.name}
    explicit = _given(lw, params, targs)
    if any(_wrong_kind(p, explicit[p.name]) for p in params if p.name in explicit) or (
            targs and len(lw._template_arg_values(targs)) > len(params) and not any(p.variadic for p in params)):
        # `get<1, 1>(t)` for `template <size_t I, class... T>`: a number given for a type ([temp.deduct]/2)
        return True
    mentioned = {n.name for fp in fn.params for n in walk(fp.type) if isinstance(n, A.NamePart)}
    if any(p.name and p.name not in explicit and p.name not in mentioned and p.default is None and not p.variadic
           for p in params):
        # `get<I0, I1, Is...>(t)` called as get<1>(t): I1 appears in no parameter's type, so nothing deduces it
        # ([temp.deduct.call]/1) and, not given, deduction fails (tla's get would otherwise call itself for ever)
        return True
    if enable_if.fails_for(lw, fn, explicit_types(lw, fn, targs, args)):
        return True  # a TLA_REQUIRES / enable_if condition false for the deduced arguments
    for param, arg in zip(fn.params, args):
        if class_bases.base_deduction(lw, param.type, arg.obj, names, dict(explicit)) is False:
            return True  # no base of the argument's class deduces P (`getv<1>(t)` for `EBO<N, T, true>`)
        base = param.type.base
        if isinstance(base, str) or not base.parts or param.variadic or "*" in param.type.pointers:
            continue  # (a reference `pair2<T...> const &` deduces as the class does)
        last = base.parts[-1]
        if last.template_args and isinstance(arg.ctype, Scalar) and (
                last.name in lw.scope.classes or last.name in lw.scope.declared_templates):
            # (a template defined only by its specialisations, `template <class... T> struct pair2;`, too)
            return True
    return False
