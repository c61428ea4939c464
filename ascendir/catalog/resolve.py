"""Overload resolution: which catalogued call form a call's arguments select, and how its type
variables bind. The lowering calls this with what it knows about each argument; anything it does
not know is "unknown" and matches. Positions and exact scalar types are left to verifier rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ascendir.catalog.loader import Catalog
from ascendir.catalog.model import Api, Overload, Param, TypeParam

__all__ = ["ArgInfo", "NoMatch", "Resolution", "resolve"]

_NUMBER = re.compile(r"^[-+]?(\d|\.\d)")


@dataclass(frozen=True)
class ArgInfo:
    """What the lowering knows about one call argument."""

    # "local_tensor", "global_tensor", "scalar", "struct", "enum", "mask_array", "pointer", "object", "unknown"
    kind: str
    dtype: str | None = None  # element type of a tensor / pointer, type of a scalar; None = unknown
    position: str | None = None  # TPosition of a local tensor; None = unknown
    type_name: str | None = None  # struct / enum / object type ("BinaryRepeatParams", "RoundMode", "TQue")
    is_literal: bool = False  # an integer or float literal (converts to any arithmetic type)
    list_len: int | None = None  # a braced list (kind "struct", no type_name): its number of items


@dataclass(frozen=True)
class Resolution:
    api: Api
    overload: Overload
    # type variable -> canonical element type (deduced or explicit); non-type template parameters ->
    # their explicit argument text, or their default text when not given.
    bindings: dict[str, str]
    params: tuple[Param, ...]  # the parameter each given argument binds to, in order


@dataclass(frozen=True)
class NoMatch:
    message: str  # "no matching function for call to 'ReduceMax'"
    candidates: tuple[str, ...]  # one line per overload: its signature and why it was rejected


class _Reject(Exception):
    pass


def _describe(arg: ArgInfo) -> str:
    if arg.kind == "local_tensor":
        return f"a LocalTensor<{arg.dtype}>" if arg.dtype else "a LocalTensor"
    if arg.kind == "global_tensor":
        return f"a GlobalTensor<{arg.dtype}>" if arg.dtype else "a GlobalTensor"
    if arg.kind == "scalar":
        return f"a scalar ({arg.dtype})" if arg.dtype and not arg.is_literal else "a scalar"
    if arg.kind == "mask_array" and arg.type_name:
        return f"an array of {arg.type_name}<{arg.dtype}>" if arg.dtype else f"an array of {arg.type_name}"
    if arg.kind in {"struct", "enum", "object"} and arg.type_name:
        return f"{'an' if arg.type_name[0] in 'AEIOU' else 'a'} {arg.type_name}"
    return {
        "struct": "a struct",
        "enum": "an enum value",
        "object": "an object",
        "mask_array": "a mask array",
        "pointer": "a pointer",
    }.get(arg.kind, "an argument")


def _split_template(text: str) -> tuple[str, list[str]]:
    """ "DataCopyPadExtParams<half>" -> ("DataCopyPadExtParams", ["half"]) (top-level commas only)."""
    text = text.strip()
    if "<" not in text or not text.endswith(">"):
        return text.replace("AscendC::", ""), []
    base, inner = text.split("<", 1)
    args, depth, current = [], 0, ""
    for ch in inner[:-1]:
        if ch == "," and depth == 0:
            args.append(current.strip())
            current = ""
            continue
        depth += ch == "<"
        depth -= ch == ">"
        current += ch
    if current.strip():
        args.append(current.strip())
    return base.strip().replace("AscendC::", ""), args


class _Matcher:
    """Matches one overload; collects bindings or raises _Reject with the reason."""

    def __init__(self, catalog: Catalog, api: Api, overload: Overload) -> None:
        self.catalog = catalog
        self.api = api
        self.overload = overload
        self.bindings: dict[str, str] = {}
        self.to_bool = 0  # integers passed to bool parameters
        self.type_vars = {tp.name for tp in overload.type_params if tp.is_type}
        cls = catalog.classes.get(api.receiver) if api.receiver else None
        if cls is not None:
            self.type_vars |= {tp.name for tp in cls.type_params if tp.is_type}

    def bind(self, var: str, dtype: str, what: str) -> None:
        canonical = self.catalog.canonical_type(dtype) or dtype
        bound = self.bindings.get(var)
        if bound is not None and bound != canonical:
            raise _Reject(f"{var} deduced as both {bound} and {canonical} ({what})")
        self.bindings[var] = canonical

    def explicit(self, template_args: Sequence[str]) -> None:
        tparams = self.overload.type_params
        if len(template_args) > len(tparams):
            raise _Reject(
                f"too many template arguments ({len(template_args)} given, {len(tparams)} declared)"
            )
        for i, (tp, text) in enumerate(zip(tparams, template_args), start=1):
            self.explicit_one(i, tp, text.strip())

    def explicit_one(self, index: int, tp: TypeParam, text: str) -> None:
        as_value = self.catalog.enum_value(text)
        if tp.is_type:
            if _NUMBER.match(text) or text in {"true", "false"} or as_value is not None:
                raise _Reject(f"template argument {index} is a value, expected a type for {tp.name}")
            self.bind(tp.name, text, f"template argument {index}")
            return
        if self.catalog.canonical_type(text) is not None:
            raise _Reject(f"template argument {index} is a type, expected a value for {tp.name}")
        expected_enum = self.catalog.enum(tp.kind)
        if as_value is not None and expected_enum is not None and as_value[0] is not expected_enum:
            raise _Reject(f"template argument {index} is a {as_value[0].name} value, expected {tp.kind}")
        self.bindings[tp.name] = text

    def receiver(self, receiver: str | None) -> None:
        if receiver is None:
            return
        cls = self.catalog.class_def(receiver)
        if cls is None:
            return
        _, args = _split_template(receiver)
        for tp, text in zip(cls.type_params, args):
            if tp.is_type:
                self.bind(tp.name, text, "receiver")

    def check_elem(self, index: int, param: Param, dtype: str | None, shown: str) -> None:
        if dtype is None or param.elem is None:
            return
        if param.elem in self.type_vars:
            self.bind(param.elem, dtype, f"argument {index}")
            return
        canonical = self.catalog.canonical_type(dtype) or dtype
        if canonical != param.elem:
            raise _Reject(f"argument {index} is {shown}, expected {param.type_text}")

    def argument(self, index: int, param: Param, arg: ArgInfo) -> None:
        if arg.kind == "unknown":
            return
        shown = _describe(arg)
        kind = param.kind
        expected = f"expected {param.type_text}"
        if kind in {"local_tensor", "global_tensor"}:
            if arg.kind != kind:
                raise _Reject(f"argument {index} is {shown}, {expected}")
            self.check_elem(index, param, arg.dtype, shown)
        elif kind == "scalar":
            # Scalars convert to any arithmetic parameter (the verifier checks exactness); so do the
            # values of unscoped enums such as EVENT_ID0. A scalar never binds T.
            unscoped = arg.kind == "enum" and self.is_unscoped_enum(arg.type_name)
            if arg.kind != "scalar" and not unscoped:
                raise _Reject(f"argument {index} is {shown}, {expected}")
            if param.type_text == "bool" and arg.kind == "scalar" and arg.dtype and (
                    (self.catalog.canonical_type(arg.dtype) or arg.dtype) not in {"bool", "float", "half", "double"}):
                self.to_bool += 1  # an integer for a bool: a worse match than for an integer parameter
        elif kind == "struct":
            if arg.kind != "struct":
                raise _Reject(f"argument {index} is {shown}, {expected}")
            if arg.type_name:
                base, targs = _split_template(arg.type_name)
                if base != param.type_name:
                    raise _Reject(f"argument {index} is {shown}, {expected}")
                if targs and param.elem is not None:
                    self.check_elem(index, param, targs[0], shown)
            struct = self.catalog.struct(param.type_name) if param.type_name and arg.list_len is not None else None
            if struct is not None and arg.list_len is not None and not struct.takes_list_of(arg.list_len):
                # a braced list converts to the parameter's class only if it can initialise one ([over.ics.list]/7-8):
                # LoadData's `{pads, h, w, ...}` of 17 items is a LoadData3DParamsV2, not a LoadData2DParams
                raise _Reject(f"argument {index} is a braced list of {arg.list_len} items, which does not "
                              f"initialise {param.type_text}")
        elif kind == "enum":
            if arg.kind != "enum":
                raise _Reject(f"argument {index} is {shown}, {expected}")
            if arg.type_name and param.type_name:
                got, want = self.catalog.enum(arg.type_name), self.catalog.enum(param.type_name)
                if got is not None and want is not None and got is not want:
                    raise _Reject(f"argument {index} is {shown}, {expected}")
        elif kind in {"mask_array", "pointer"} and arg.kind == "struct" and not arg.type_name and (
                kind == "mask_array" or param.array_len):
            return  # an array parameter (`uint64_t mask[2]`, `const uint32_t (&key)[2]`) binds a braced list
        elif kind == "mask_array":
            # (an array of objects, `LocalTensor<T> list[16]`, has a type_name: it is no array of numbers)
            if arg.kind not in {"mask_array", "pointer"} or arg.type_name:
                raise _Reject(f"argument {index} is {shown}, {expected}")
        elif kind == "pointer":
            if arg.kind not in {"pointer", "mask_array"}:
                raise _Reject(f"argument {index} is {shown}, {expected}")
            if arg.type_name and param.type_name and _split_template(arg.type_name)[0] != param.type_name:
                raise _Reject(f"argument {index} is {shown}, {expected}")
            self.check_elem(index, param, arg.dtype, shown)
        elif kind == "object":
            # a library class the caller holds only as an opaque value (TBufPool, whose own methods are
            # not modelled) arrives as a struct of that class's name
            opaque = arg.kind == "struct" and arg.type_name and param.type_name and (
                self.catalog.class_name(arg.type_name) == self.catalog.class_name(param.type_name))
            if arg.kind != "object" and not opaque:
                raise _Reject(f"argument {index} is {shown}, {expected}")
            same = not (arg.type_name and param.type_name) or (
                self.catalog.class_name(arg.type_name) == self.catalog.class_name(param.type_name)
            )
            if not same:
                raise _Reject(f"argument {index} is {shown}, {expected}")

    def braced_list_deduces(self, index: int, param: Param, arg: ArgInfo) -> None:
        """A braced list deduces nothing of its parameter's template arguments ([temp.deduct.call]/1): a template
        parameter they name that no other argument, explicit argument or default gives makes the overload not
        viable (`DataCopy(dst, src, {1, 2})` is no NDDMA copy of a MultiCopyParams<T, dim>: dim is unknown)."""
        if param.kind != "struct" or arg.kind != "struct" or arg.type_name or arg.list_len is None:
            return
        given = {tp.name for tp in self.overload.type_params if tp.default is not None} | set(self.bindings)
        declared = {tp.name for tp in self.overload.type_params}
        for name in _split_template(param.type_text)[1]:
            if name in declared and name not in given:
                raise _Reject(f"argument {index} is a braced list, from which {name} of {param.type_text} "
                              "cannot be deduced")

    def is_unscoped_enum(self, name: str | None) -> bool:
        enum = self.catalog.enum(name) if name else None
        return enum is None or not enum.scoped

    def run(
        self, args: Sequence[ArgInfo], template_args: Sequence[str], receiver: str | None
    ) -> tuple[Param, ...]:
        params = self.overload.params
        required, total = self.overload.required_count, len(params)
        if not required <= len(args) <= total:
            wanted = f"{total}" if required == total else f"{required} to {total}"
            plural = "" if wanted == "1" else "s"
            raise _Reject(f"expects {wanted} argument{plural}, got {len(args)}")
        self.receiver(receiver)
        self.explicit(template_args)
        for index, (param, arg) in enumerate(zip(params, args), start=1):
            self.argument(index, param, arg)
        for index, (param, arg) in enumerate(zip(params, args), start=1):
            self.braced_list_deduces(index, param, arg)
        for tp in self.overload.type_params:
            if not tp.is_type and tp.name not in self.bindings and tp.default is not None:
                self.bindings[tp.name] = tp.default
        return params[: len(args)]


def _display(api: Api, overload: Overload) -> str:
    return f"{api.qualified_name}{overload.signature}"


def resolve(
    catalog: Catalog,
    api_name: str,
    args: Sequence[ArgInfo],
    template_args: Sequence[str] = (),
    receiver: str | None = None,
) -> Resolution | NoMatch:
    """Pick the overload of `api_name` (a method of `receiver` if given, e.g. "GlobalTensor<half>") that
    the arguments select. Among several matches the one passing the fewest integers to bool
    parameters wins (Matmul's IterateBatch(gm, batchA, batchB, false) is the MIX client's form, not the
    cube-only IterateBatch(gm, enPartialSum, enAtomic, enSequentialWrite)), then the one filling in the
    fewest defaults, then the first in catalog order."""
    api = catalog.api(api_name, receiver)
    if api is None:
        owner = f" in '{catalog.class_name(receiver)}'" if receiver else ""
        hint = catalog.closest(api_name, receiver=receiver)
        suggestion = f"; did you mean {' or '.join(repr(h) for h in hint)}?" if hint else ""
        kind = "member" if receiver else "API"
        return NoMatch(f"no {kind} named '{api_name}'{owner}{suggestion}", ())
    matches: list[tuple[int, int, Resolution]] = []
    rejected: list[str] = []
    for order, overload in enumerate(api.overloads):
        matcher = _Matcher(catalog, api, overload)
        try:
            params = matcher.run(args, template_args, receiver)
        except _Reject as reason:
            rejected.append(f"{_display(api, overload)}: {reason}")
            continue
        defaults_used = len(overload.params) - len(args)
        matches.append((matcher.to_bool, defaults_used, order, Resolution(api, overload, matcher.bindings, params)))
    if not matches:
        return NoMatch(f"no matching function for call to '{api.qualified_name}'", tuple(rejected))
    return min(matches, key=lambda m: (m[0], m[1], m[2]))[3]
