"""The op's compile-info JSON in a TilingParse function: `context->GetCompiledJson()` parsed with nlohmann::json.

Ops whose kernel was once a TBE one and is now AscendC tell the two builds apart in their parse function by the
compile info the op compiler hands over (ops-nn avg_pool3_d):

    auto jsonStr = context->GetCompiledJson();
    std::unique_ptr<nlohmann::json> info = std::make_unique<nlohmann::json>(nlohmann::json::parse(jsonStr));
    const nlohmann::json& pattern = (*info)["_pattern"];   // the TBE compiler writes "_pattern"
    if (pattern.empty()) { ... the AscendC parse ... } else { ... the TBE parse ... }

The run simulates the op's AscendC kernel, so the compile info is the one an AscendC build hands over, which
carries none of the TBE compiler's keys; its own keys are not modelled, so it is taken as the empty object
(ASCENDC_COMPILE_INFO) and a key read from it is null, as nlohmann's `operator[]` gives for a missing key. The
text is a constant, so the JSON values are too: a JsonValue held by a handle of kind "json", never in the IR.
`parse` of text the lowering does not know, and the JSON calls not listed in METHODS, are gaps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.host_handles import HostT, handle_kind, is_host
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

JSON = HostT("json", "nlohmann::json")

# What GetCompiledJson() returns for an op built by the AscendC toolchain (see the module's doc)
ASCENDC_COMPILE_INFO = "{}"


@dataclass(frozen=True)
class JsonValue:
    """A JSON value known while lowering: a dict, list, str, int, float, bool or None (null)."""

    value: object


def is_json(v: Val | None) -> bool:
    return v is not None and handle_kind(v) == "json"


def is_json_type(targs: list[A.TemplateArg] | None, lw: HostLowerer) -> bool:
    """Whether a template's one argument is nlohmann::json (`std::make_unique<nlohmann::json>`)."""
    return bool(targs) and len(targs) == 1 and lw._template_arg_value(targs[0]) == JSON  # type: ignore[index]


def compiled_json(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`TilingParseContext::GetCompiledJson()`: the compile info's text, a C string never null."""
    return Val(C.UnknownT("string"), const=ASCENDC_COMPILE_INFO)


def parse(lw: HostLowerer, e: A.Call) -> Val:
    """`nlohmann::json::parse(text)` of a text known while lowering."""
    if len(e.args) != 1:
        raise Unsupported("nlohmann::json::parse is modelled with the text only", e)
    text = lw.expr(e.args[0])
    if not isinstance(text.const, str) or is_host(text.ctype) or text.ssa is not None:
        raise Unsupported("parsing JSON text the host lowering does not know is not modelled", e)
    try:
        return Val(JSON, obj=JsonValue(json.loads(text.const)))
    except ValueError as exc:
        # nlohmann::json::parse throws parse_error, which no tiling catches: the parse function fails
        raise Unsupported(f"nlohmann::json::parse of invalid JSON ({exc})", e) from None


def element(lw: HostLowerer, v: Val, key: Val, node: A.Node) -> Val:
    """`j["key"]` / `j[i]`: the member or element; a missing key is null (operator[] on a missing key)."""
    held = v.obj.value if isinstance(v.obj, JsonValue) else None
    if isinstance(key.const, str) and not is_host(key.ctype) and key.ssa is None and isinstance(held, dict | None):
        return Val(JSON, obj=JsonValue((held or {}).get(key.const)))
    if isinstance(key.const, int) and key.ssa is None and isinstance(held, list) and 0 <= key.const < len(held):
        return Val(JSON, obj=JsonValue(held[key.const]))
    raise Unsupported("this element of a JSON value is not modelled (a key or index the lowering does not know, "
                      "or past an array's end)", node)


def _held(v: Val) -> object:
    assert isinstance(v.obj, JsonValue)
    return v.obj.value


def _empty(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    held = _held(recv)  # null is empty; a number, a string or a bool is not (nlohmann::json::empty)
    return Val(C.BOOL, const=int(held is None or isinstance(held, dict | list) and not held))


def _size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    held = _held(recv)
    return Val(C.U64, const=0 if held is None else len(held) if isinstance(held, dict | list) else 1)


def _is_null(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(C.BOOL, const=int(_held(recv) is None))


def _contains(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    key = lw.expr(e.args[0]) if len(e.args) == 1 else None
    if key is None or not isinstance(key.const, str) or is_host(key.ctype):
        raise Unsupported("nlohmann::json::contains is modelled with a literal key only", e)
    held = _held(recv)
    return Val(C.BOOL, const=int(isinstance(held, dict) and key.const in held))


METHODS = {"empty": _empty, "size": _size, "is_null": _is_null, "contains": _contains}
