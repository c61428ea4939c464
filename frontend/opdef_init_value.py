"""What an OpDef output's `.InitValue(...)` says the runtime fills it with before a launch whose tiling sets
SetNeedAtomic(true) (asc-devkit docs, OpParamDef/InitValue.md). Three forms:

    .InitValue(0)                                   every byte cleared (the uint64_t form; only 0 is supported)
    .InitValue({ScalarType::INT16, 1})              a memset of that type and value, whatever the output's dtype
    .InitValue({{ScalarType::INT16, 1}, {ScalarType::FLOAT32, 3.2}, ...})
                                                    one (type, value) per entry of the output's DataType list

Read from the OpDef's source text, as frontend/opdef.py reads the dtypes. Each form becomes a list of entries
{"type": the ScalarType's name in lower case (None for the uint64_t form: the output's own dtype), "value": the
number, "dtype": the DataType entry it belongs to (the list form only)}; passes/sim/launch_buffers.py fills the
outputs from them.
"""

from __future__ import annotations

import re

_INIT_VALUE_RE = re.compile(r"\.\s*InitValue\s*\(")
# `ScalarType::FLOAT32, 3.2` inside a brace pair or a ScalarVar(...) call; `ops::ScalarType::` too
_SCALAR_VAR_RE = re.compile(r"\bScalarType\s*::\s*(\w+)\s*,\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)[fFuUlL]*")
_INTEGER_RE = re.compile(r"^\s*(?:\(\s*u?int64_t\s*\)\s*)?(\d+)[uUlL]*\s*$")
_FLOAT_TYPES = ("float32", "float16")


def init_value(statement: str, start: int, types: list[str]) -> list[dict[str, object]] | None:
    """The entries of the `.InitValue(...)` call in `statement` after `start` (an Output declaration), the list
    form's paired with `types` (the output's DataType list, in order; empty when it follows another's); None
    when the call is absent or its argument is not a literal of one of the three forms."""
    call = _INIT_VALUE_RE.search(statement, start)
    if call is None:
        return None
    argument = _balanced(statement, call.end())
    if argument is None:
        return None
    whole = _INTEGER_RE.match(argument)
    if whole is not None:
        return [{"type": None, "value": int(whole.group(1))}]
    pairs = _SCALAR_VAR_RE.findall(argument)
    if not pairs:
        return None
    entries: list[dict[str, object]] = [
        {"type": kind.lower(), "value": float(num) if kind.lower() in _FLOAT_TYPES else int(float(num))}
        for kind, num in pairs]
    if len(entries) > 1:  # the list form (a list of one is the single form: the build generates it as one)
        for entry, dtype in zip(entries, types):
            entry["dtype"] = dtype
    return entries


def pair_with_types(entries: list[dict[str, object]], types: list[str]) -> None:
    """Gives the list form's entries the DataType entries they belong to, where the output's list was not known
    when they were read (an output that follows another's dtypes)."""
    if len(entries) > 1:
        for entry, dtype in zip(entries, types):
            entry.setdefault("dtype", dtype)


def _balanced(text: str, start: int) -> str | None:
    """The text from `start` up to the parenthesis that closes the one before it."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] in "({":
            depth += 1
        elif text[i] in ")}":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return None
