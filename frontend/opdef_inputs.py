"""Which inputs of an op's OpDef are optional (`.ParamType(OPTIONAL)`), by their index in declaration order.

    this->Input("input").ParamType(REQUIRED).DataType({...});
    this->Input("target").ParamType(REQUIRED).DataType({...});
    this->Input("weight").ParamType(OPTIONAL).DataType({...});    // index 2

The framework gives a tiling or InferShape function a null shape, desc or tensor for an optional input the
caller left out, and vendor hosts test for it through the plain getters too (`context->GetInputShape(2) !=
nullptr`), not only through GetOptionalInputShape. Read from the text as frontend/opdef.py reads the rest of
the OpDef: the one class `OP_ADD` registers; an input whose ParamType is not the literal OPTIONAL is required.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from frontend.opdef import COMMENT_RE, OP_ADD_RE, class_bodies

_INPUT_RE = re.compile(r"this\s*->\s*(Input|Output|Attr)\s*\(\s*\"\w+\"\s*\)")
_OPTIONAL_RE = re.compile(r"\.\s*ParamType\s*\(\s*(?:\w+::)*OPTIONAL\s*\)")


_SCALAR_RE = re.compile(r"\.\s*Scalar\s*\(\s*\)")


def optional_inputs(texts: Iterable[str]) -> frozenset[int]:
    """The indices of the optional inputs of the OpDef that `OP_ADD` registers in `texts` (host sources); empty
    without exactly one such OpDef."""
    return _inputs_with(texts, _OPTIONAL_RE)


def scalar_inputs(texts: Iterable[str]) -> frozenset[int]:
    """The indices of the inputs declared `.Scalar()`: the generated aclnn API takes an aclScalar for them and
    hands the op a one-element tensor of the input's declared dtype (NPUKernelBench Muls's `value`, which its
    binding passes as `c10::Scalar(value.item<float>())`)."""
    return _inputs_with(texts, _SCALAR_RE)


def output_count(texts: Iterable[str]) -> int | None:
    """How many outputs the OpDef that `OP_ADD` registers declares (an InferShape function's
    GetComputeNodeOutputNum()); None without exactly one such OpDef."""
    body = _opdef_body(texts)
    if body is None:
        return None
    return sum(1 for m in _INPUT_RE.finditer(body) if m.group(1) == "Output")


def attr_count(texts: Iterable[str]) -> int | None:
    """How many attributes the OpDef that `OP_ADD` registers declares, each name once (a tiling function's
    `attrs->GetAttrNum()`: the runtime attributes hold every declared one, an optional one left out by the caller
    with its default); None without exactly one such OpDef."""
    body = _opdef_body(texts)
    if body is None:
        return None
    return len({m.group(1) for m in _ATTR_NAME_RE.finditer(body)})


_ATTR_NAME_RE = re.compile(r"this\s*->\s*Attr\s*\(\s*\"(\w+)\"\s*\)")
_ATTR_KIND_RE = re.compile(r"\.\s*(Int|Float|Bool|String|ListInt|ListFloat|ListBool|ListListInt)\s*\(")


def attr_kinds(texts: Iterable[str]) -> list[str | None] | None:
    """The value type each attribute of the OpDef that `OP_ADD` registers declares (`.Float(1.0)`: "Float"), in
    the attributes' order, each name once (its last declaration: a per-chip config may repeat it); None for an
    attribute whose type is not written as a literal method, and None without exactly one such OpDef. The
    runtime stores an attribute as that type whichever getter a tiling function reads it with."""
    body = _opdef_body(texts)
    if body is None:
        return None
    starts = list(_ATTR_NAME_RE.finditer(body))
    kinds: dict[str, str | None] = {}
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(body)
        statement = body[m.end():end].split(";", 1)[0]
        kind = _ATTR_KIND_RE.search(statement)
        kinds[m.group(1)] = kind.group(1) if kind else None
    return list(kinds.values())


def _opdef_body(texts: Iterable[str]) -> str | None:
    sources = [COMMENT_RE.sub(" ", t) for t in texts if "OpDef" in t and "OP_ADD" in t]
    added = {name for t in sources for name in OP_ADD_RE.findall(t)}
    if len(added) != 1:
        return None
    bodies = [b for t in sources for b in class_bodies(t, next(iter(added)))]
    return bodies[0] if len(bodies) == 1 else None


def _inputs_with(texts: Iterable[str], pattern: re.Pattern[str]) -> frozenset[int]:
    body = _opdef_body(texts)
    if body is None:
        return frozenset()
    starts = list(_INPUT_RE.finditer(body))
    found: set[int] = set()
    index = 0
    for k, m in enumerate(starts):
        if m.group(1) != "Input":
            continue
        end = starts[k + 1].start() if k + 1 < len(starts) else len(body)
        if pattern.search(body, m.end(), end):
            found.add(index)
        index += 1
    return frozenset(found)
