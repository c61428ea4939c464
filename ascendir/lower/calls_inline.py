"""Inlining of user methods in the lowering of calls: a method on the object part that declares it, the
explicit specialisation of a member function template the call's template arguments pick (per core type, under
a test of the core, for catlass's `operator()<CORE_TYPE>`), and static methods called through a type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import Block, Region

from ascendir.lower import class_bases, ctypes as C, enable_if
from ascendir.lower.calls_api import lower_args
from ascendir.lower.calls_overloads import explicit_types, pick_overload
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def inline_method(lw: FunctionLowerer, e: A.Call, found: tuple[Instance, list[object]], name: str,
                  targs: list[A.TemplateArg] | None) -> Val:
    """A user-class method call, inlined on the object part whose class declares the method (or the explicit
    specialisation of that method template which the call's template arguments pick)."""
    owner, methods = found
    args = lower_args(lw, e.args)
    fn = pick_overload(enable_if.enabled(lw, methods, owner, targs), len(args), e, name, lw, args, owner)
    bound = explicit_types(lw, fn, targs, args)
    specials = owner.info.function_specializations.get(name)
    if specials:
        return _specialised_call(lw, e, fn, specials, bound, args, owner)
    return lw.inline_function(fn, args, owner, e, bound)


def _specialised_call(lw: FunctionLowerer, e: A.Call, fn: A.FunctionDecl,
                      specials: list[tuple[list[A.TemplateArg], A.FunctionDecl]], bound: dict[str, object],
                      args: Sequence[Val], owner: Instance) -> Val:
    """A call of a member function template that has explicit specialisations: the one whose template arguments
    are the call's (given, or the primary template's defaults), else the primary. catlass kernels specialise
    `operator()<CORE_TYPE = g_coreType>` per core type; with the core type a run-time choice here (one check
    covers both passes of a mixed kernel), each core's specialisation is inlined under a test of the core."""
    params = [p for p in lw.scope.function_templates.get(id(fn)) or [] if p.name]
    values = [bound.get(p.name) for p in params]
    by_core: dict[str, A.FunctionDecl] = {}
    for special_args, decl in specials:
        if len(special_args) > len(values):
            continue
        wanted = [lw._template_arg_value(a) for a in special_args]
        if all(_same_template_value(w, v) for w, v in zip(wanted, values)):
            return lw.inline_function(decl, args, owner, e, {})
        # (a default `g_coreType` folds to no constant: the core type, a run-time choice here)
        core = [w for w, v in zip(wanted, values) if (v is None or v == C.EnumT("CoreType")) and w in ("AIC", "AIV")]
        if len(core) == 1 and all(_same_template_value(w, v) for w, v in zip(wanted, values) if w not in core):
            by_core.setdefault(core[0], decl)
    if not by_core:
        return lw.inline_function(fn, args, owner, e, bound)
    if not isinstance(lw.resolve_type(fn.return_type) if fn.return_type is not None else C.VoidT(), C.VoidT):
        raise Unsupported(f"a value returned by '{fn.name.parts[-1].name}', specialised per core type", e)
    cases = sorted(by_core.items())

    def case(i: int) -> None:  # if (core is AIC) { AIC's } else if (core is AIV) { AIV's } else { the primary's }
        if i == len(cases):
            if fn.body is not None:
                lw.inline_function(fn, args, owner, e, bound)
            return
        core, decl = cases[i]
        test = lw.compare("==", Val(C.EnumT("CoreType"), obj="g_coreType"), Val(C.EnumT("CoreType"), const=core), e)
        if_op = lw.emit(scf.IfOp(lw.ssa(test, e), [], Region(Block()), Region(Block())), e)
        with lw.at_end_of(if_op.regions[0].block):
            outer_core, lw.core_type = lw.core_type, core
            try:
                lw.inline_function(decl, args, owner, e, {})
            finally:
                lw.core_type = outer_core
            lw.emit(scf.YieldOp(), e)
        with lw.at_end_of(if_op.regions[1].block):
            case(i + 1)
            lw.emit(scf.YieldOp(), e)

    case(0)
    return Val(C.VoidT())


def _same_template_value(wanted: object, given: object) -> bool:
    """Whether a specialisation's template argument is the one given (both as _template_arg_value has them)."""
    if given is None:
        return False
    if isinstance(wanted, bool | int) and isinstance(given, bool | int):
        return int(wanted) == int(given)  # `<true>` is `<1>`
    return wanted == given


def static_method_of_type(lw: FunctionLowerer, parts: Sequence[A.NamePart]) -> tuple[Instance, list[object]] | None:
    """`LayoutCInL0::MakeLayoutInL0C(shape)`, `LayoutA::template MakeLayout<T>(r, c)`: a static method of the
    class that the qualifier names through an alias or a template parameter (the class template's arguments
    bound), called on a part that holds no members. None when the qualifier is no such class, or names a
    class directly (`K<T>::Init` inside K's methods runs on this object: see the caller)."""
    head = parts[:-1]
    qualifier = A.TypeRef(head[0].span, A.QualifiedName(head[0].span, list(head)))
    try:
        t = lw.resolve_type(qualifier)
    except Unsupported:
        return None
    if not isinstance(t, C.ClassT) or t.name not in lw.scope.classes:
        return None
    found = _type_holder(lw, t, 0).find_method(parts[-1].name)
    if found is None:
        return None
    if any("static" not in getattr(fn, "specifiers", ()) for fn in found[1]):
        # a member function named through the type: the caller's own handling (base parts), but for an explicit
        # specialisation (`template <> class MSELossV2Base<float> {...}`, a class with methods of its own), whose
        # methods that handling would look up on the primary template: `MSELossV2Base<float>::CopyIn(offset, n)`
        # in a derived method (ops-nn mse_loss_v2) is the specialisation's CopyIn, on this object's part of it
        this = lw.frame.this if lw.frames else None
        part = this.part_named(t.name) if this is not None and t.name.startswith(f"{head[-1].name}<") else None
        return part.find_method(parts[-1].name) if part is not None else None
    return found


def _type_holder(lw: FunctionLowerer, t: C.ClassT, depth: int) -> Instance:
    """An object of class `t` without members, with base parts alike: what a static method called through the
    type (`MatrixCoord::Min`, declared by its base Coord<2>) runs on."""
    info = lw.scope.classes[t.name]
    types = class_bases.argument_bindings(info.scope_params or [], t.args)  # (`T... Ns`: a pack)
    holder = Instance(info, t, types, {}, f"<{t.name}>")
    if depth < 8:
        with lw._class_template_frame(info, t.args):
            bases = class_bases.base_types(lw, info.decl.bases)
        for base in bases:
            if isinstance(base, C.ClassT) and base.name in lw.scope.classes and base.name != t.name:
                holder.bases.append(_type_holder(lw, base, depth + 1))
    return holder
