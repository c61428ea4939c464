"""The attributes an op's OpDef declares, with the values an optional one takes when its caller leaves it out.

    this->Attr("dim").AttrType(OPTIONAL).Int(-1);
    this->Attr("approximate").AttrType(OPTIONAL).Int(0);
    this->Attr("activate_left").AttrType(OPTIONAL).Bool(true);
    this->Attr("reduction").AttrType(OPTIONAL).String("mean");

An NPUKernelBench binding may pass attributes as its own literals (GeGluV2's `int64_t dim = -1;` into
EXEC_NPU_CMD) rather than from ModelNew's arguments; those are the OpDef's defaults, which the framework gives a
tiling function for any optional attribute not passed. Read from the text as frontend/opdef.py reads the rest of
the OpDef (literal values only: a default written as an expression is not known, None).
"""

from __future__ import annotations

import re
from typing import Any

from frontend.opdef import COMMENT_RE, OP_ADD_RE, class_bodies, host_texts
from frontend import vendor
from frontend.readers import Bundle

_ATTR_RE = re.compile(r"this\s*->\s*Attr\s*\(\s*\"(\w+)\"\s*\)")
_VALUE_RE = re.compile(r"\.\s*(Int|Float|Bool|String|ListInt|ListFloat|ListBool)\s*\((.*)\)\s*$", re.S)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def attr_defaults(bundle: Bundle) -> list[tuple[str, Any]]:
    """(name, default) for each attribute of the one OpDef `OP_ADD` registers, in declaration order; the default is
    None for a REQUIRED attribute or one whose value is not a literal. Empty without such an OpDef."""
    texts = [COMMENT_RE.sub(" ", t) for t in host_texts(bundle) if "OpDef" in t and "OP_ADD" in t]
    added = {name for t in texts for name in OP_ADD_RE.findall(t)}
    if len(added) != 1:
        return []
    bodies = [b for t in texts for b in class_bodies(t, next(iter(added)))]
    if len(bodies) != 1:
        return []
    out: list[tuple[str, Any]] = []
    for statement in bodies[0].split(";"):
        declared = _ATTR_RE.search(statement)
        if declared is None:
            continue
        rest = statement[declared.end():]
        value = _VALUE_RE.search(rest)
        optional = re.search(r"AttrType\s*\(\s*(?:\w+::)*OPTIONAL\s*\)", rest) is not None
        entry = (declared.group(1), _literal(*value.groups()) if value and optional else None)
        # an attribute declared again (ops-nn ascend_quant_v2 repeats its four for the 950 config) is the same one
        at = next((i for i, (name, _) in enumerate(out) if name == entry[0]), None)
        if at is None:
            out.append(entry)
        else:
            out[at] = entry
    return out


def _literal(kind: str, text: str) -> Any:
    text = text.strip()
    if kind == "String":
        m = re.fullmatch(r"\"([^\"]*)\"", text)
        return m.group(1) if m else None
    if kind == "Bool":
        return {"true": True, "false": False}.get(text)
    if kind.startswith("List"):
        inner = re.fullmatch(r"\{(.*)\}", text, re.S)
        if inner is None:
            return None
        items = [_literal(kind[4:], i) for i in inner.group(1).split(",") if i.strip()]
        return None if any(i is None for i in items) else items
    if kind == "Int":
        # `.Int(ge::DT_INT8)` (ops-nn quant ops' dst_type): the ge enumerator's value
        name = re.sub(r"^(?:::)?(?:ge\s*::\s*)?", "", text)
        code = vendor.DT_CODES.get(name, vendor.FORMAT_CODES.get(name))
        if code is not None:
            return code
    number = text.rstrip("fFlLuU")
    if not _NUMBER.fullmatch(number):
        return None
    return int(float(number)) if kind == "Int" else float(number)


def with_defaults(bundle: Bundle, attrs: list[Any]) -> list[Any]:
    """`attrs` (the attributes a caller passes, in order) followed by the defaults of the optional ones it leaves
    out at the end, as far as they are known."""
    declared = attr_defaults(bundle)
    out = list(attrs)
    for _, default in declared[len(out):]:
        if default is None:
            break
        out.append(default)
    return out
