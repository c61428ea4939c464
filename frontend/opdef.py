"""The dtypes an op's OpDef declares, for ops without an op json (ops-nn, ops-math, cann-ops).

The build compiles a kernel once per dtype combination of its op and defines DTYPE_<NAME> for each input and
output; the op json lists them, and projects without one declare them in the host's OpDef class:

    class AddCustom : public OpDef {
        explicit AddCustom(const char* name) : OpDef(name) {
            this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
            this->Input("indices").DataType(indexTypes);          // a std::vector<ge::DataType> named above
            this->Output("y").Follow("x");
        }
    };
    OP_ADD(AddCustom);

`op_descriptions` reads that into the op json's shape ({"op", "input_desc": [{"name", "type": [...]}],
"output_desc"}), so that the DTYPE_<NAME> macros are bound as the json would bind them. It reads the source
text, not an AST: the declarations are literal in every OpDef seen, and a single kernel file under op_kernel/
is checked without parsing its project's host code. Per-chip configurations (`OpAICoreConfig`) are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from frontend.opdef_init_value import init_value, pair_with_types
from frontend.readers import Bundle, in_op_host, op_host_sources, sibling_op_host

COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_OPDEF_CLASS_RE = re.compile(r"\bclass\s+(\w+)\s*(?:final\s*)?:\s*public\s+(?:\w+::)*OpDef\b")
OP_ADD_RE = re.compile(r"^[ \t]*OP_ADD\s*\(\s*(\w+)\s*[,)]", re.M)
_DECLARE_RE = re.compile(r"this\s*->\s*(Input|Output)\s*\(\s*\"(\w+)\"\s*\)")
_DTYPE_LIST_RE = re.compile(r"\.\s*(DataType|DataTypeList)\s*\(\s*(?:\{([^{}]*)\}|(\w+)\s*\))")
_FOLLOW_RE = re.compile(r"\.\s*Follow\s*\(\s*\"(\w+)\"")
# `std::vector<ge::DataType> types = {ge::DT_FLOAT, ...};` or `... types({...});`
_NAMED_LIST_RE = re.compile(r"\b(\w+)\s*(?:=\s*|\(\s*)?\{((?:\s*(?:ge::)?DT_\w+\s*,?)+)\}")
_GE_DTYPE_RE = re.compile(r"\bDT_\w+")

_CACHE: dict[int, tuple[Bundle, list[dict[str, object]]]] = {}


def op_descriptions(bundle: Bundle) -> list[dict[str, object]]:
    """The op json of `bundle`, or else what the OpDef of its op project declares (one op, or none)."""
    if bundle.op_json:
        return bundle.op_json
    hit = _CACHE.get(id(bundle))
    if hit is not None and hit[0] is bundle:
        return hit[1]
    found = opdef_descriptions(host_texts(bundle))
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(bundle)] = (bundle, found)
    return found


def dtype_macro_defines(bundle: Bundle) -> dict[str, str | None]:
    """DTYPE_<NAME> for every input and output of the op, defined as its own name for the kernel's
    preprocessing: the build defines each one (-DDTYPE_X=half), so a kernel's fallback
    `#ifndef DTYPE_ZERO_POINTS1 / #define DTYPE_ZERO_POINTS1 int32_t` never applies; the name stays in the text
    for the lowering to bind to the dtype of the launch (ascendir.lower.dtype_bindings) or to guess."""
    out: dict[str, str | None] = {}
    for op in op_descriptions(bundle):
        for key in ("input_desc", "output_desc"):
            for desc in op.get(key) or []:  # type: ignore[attr-defined]
                name = str(desc.get("name", "")).upper() if isinstance(desc, dict) else ""
                if re.fullmatch(r"\w+", name):
                    out[f"DTYPE_{name}"] = f"DTYPE_{name}"
    return out


def bound_descriptions(bundle: Bundle) -> list[dict[str, object]]:
    """What binds DTYPE_<NAME>: the op json whole; of an OpDef, only the inputs and outputs whose every listed
    type is an integer or bool type (indices, argmax, masks). The floating ones stay unbound, to be checked as
    float and as half (passes.verify.check_program): vendor kernels pick their code per dtype from tiling
    values the host sets (`if (keyType == 1) Cast(...)` for 16-bit inputs only), so the findings one column
    alone gives are not certain; what the guesses cannot stand for is an int32 index beside float data."""
    if bundle.op_json:
        return bundle.op_json
    out = []
    for op in op_descriptions(bundle):
        fixed = {key: [d for d in op.get(key) or [] if _integer_typed(d)]  # type: ignore[attr-defined]
                 for key in ("input_desc", "output_desc")}
        out.append({"op": op.get("op"), **fixed})
    return out


def _integer_typed(desc: dict[str, object]) -> bool:
    types = desc.get("type")
    return isinstance(types, list) and bool(types) and not any(_FLOATING_RE.search(str(t)) for t in types)


_FLOATING_RE = re.compile(r"FLOAT|BF16|DOUBLE|COMPLEX", re.I)


def opdef_descriptions(texts: Iterable[str]) -> list[dict[str, object]]:
    """The op json equivalent of the one OpDef class that `OP_ADD` registers in `texts` (the host sources of
    one project); empty when there is none, or more than one operator."""
    # line continuations joined: `#define DTYPE_X \\n {ge::DT_FLOAT16, ge::DT_BF16}` names a list too
    sources = [COMMENT_RE.sub(" ", t).replace("\\\n", " ") for t in texts if "OpDef" in t and "OP_ADD" in t]
    added = {name for s in sources for name in OP_ADD_RE.findall(s)}
    if len(added) != 1:
        return []
    (op,) = added
    bodies = [body for s in sources for body in class_bodies(s, op)]
    if len(bodies) != 1:
        return []
    named = {m.group(1): _GE_DTYPE_RE.findall(m.group(2)) for s in sources for m in _NAMED_LIST_RE.finditer(s)}
    descs: dict[str, list[dict[str, object]]] = {"input_desc": [], "output_desc": []}
    follows: dict[str, str] = {}
    by_name: dict[str, dict[str, object]] = {}
    for statement in bodies[0].split(";"):
        declared = _DECLARE_RE.search(statement)
        if declared is None:
            continue
        kind, name = declared.groups()
        desc: dict[str, object] = {"name": name}
        listed = _DTYPE_LIST_RE.search(statement, declared.end())
        follow = _FOLLOW_RE.search(statement, declared.end())
        types: list[str] = []
        if listed is not None:
            method, literal, variable = listed.groups()
            types = _GE_DTYPE_RE.findall(literal) if literal is not None else named.get(variable or "", [])
        if kind == "Output":
            # what the runtime fills it with before a launch whose tiling sets SetNeedAtomic(true)
            initial = init_value(statement, declared.end(), list(types))
            if initial is not None:
                desc["init_value"] = initial
        if listed is not None:
            if method == "DataTypeList" and types:
                types = types[:1]  # combined with every combination of the others: its first type serves each
            if types:
                desc["type"] = types
        elif follow is not None:
            follows[name] = follow.group(1)
        descs["input_desc" if kind == "Input" else "output_desc"].append(desc)
        by_name[name] = desc
    for name, leader in follows.items():
        if leader in by_name and "type" in by_name[leader]:
            by_name[name]["type"] = list(by_name[leader]["type"])  # type: ignore[call-overload]
            if isinstance(by_name[name].get("init_value"), list):
                pair_with_types(by_name[name]["init_value"], by_name[name]["type"])  # type: ignore[arg-type]
    _widen_single_types(descs)
    return [{"op": op, **descs}]


def _widen_single_types(descs: dict[str, list[dict[str, object]]]) -> None:
    """A one-type list beside longer ones (a DataTypeList, or `{ge::DT_INT32}` for an index input) holds for
    every combination: repeat it, so that each column has a type for it."""
    width = max((len(d["type"]) for ds in descs.values() for d in ds if isinstance(d.get("type"), list)), default=0)
    for ds in descs.values():
        for d in ds:
            types = d.get("type")
            if isinstance(types, list) and len(types) == 1 and width > 1:
                d["type"] = types * width


def class_bodies(source: str, name: str) -> list[str]:
    bodies = []
    for m in _OPDEF_CLASS_RE.finditer(source):
        if m.group(1) != name:
            continue
        start = source.find("{", m.end())
        if start < 0:
            continue
        depth = 0
        for i in range(start, len(source)):
            if source[i] == "{":
                depth += 1
            elif source[i] == "}":
                depth -= 1
                if depth == 0:
                    bodies.append(source[start + 1:i])
                    break
    return bodies


def host_texts(bundle: Bundle) -> list[str]:
    """The op_host sources of the bundle's op project: its own host units, or, for a kernel file checked on its
    own inside a project's op_kernel/ folder, the sources of the sibling op_host/ folder on disk."""
    own = [u.text for u in bundle.units if in_op_host(u.path)]
    if own:
        return own
    host = sibling_op_host(bundle.input)
    return [text for _, text in op_host_sources(host)] if host is not None else []
