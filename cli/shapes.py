"""Concrete inputs on the command line: `--shape [NAME=]8,2048:float16` and `--attr VALUE`, shared by
ascendc-check and ascendir-opt, plus `--test-case FILE` (a MultiKernelBench reference or a JSON list). What a
program makes of them (named shapes placed at their input) is passes/verify/concrete_inputs.py."""

from __future__ import annotations


def parse_tensor_spec(text: str) -> tuple[str | None, tuple[int, ...], str]:
    """`x=8,2048:float16` or `8x2048:fp32` -> (name, shape, dtype); ValueError with a message otherwise."""
    name, sep, rest = text.partition("=")
    if not sep:
        name, rest = "", text
    dims, _, dtype = rest.partition(":")
    pieces = [d.strip() for d in dims.split("," if "," in dims else "x")]
    if not dims.strip():
        raise ValueError(f"'{text}' gives no dimensions")
    try:
        shape = tuple(int(d) for d in pieces)
    except ValueError:
        raise ValueError(f"'{text}': dimensions must be integers, as in 8,2048:float16 or 8x2048:float16") from None
    if any(d < 0 for d in shape):
        raise ValueError(f"'{text}': dimensions cannot be negative")
    return (name.strip() or None, shape, dtype.strip() or "float16")


def parse_attr_value(text: str) -> object:
    """`true`, `3`, `0.5`, `1,2,3` (a list of ints) or any other text (a string attribute)."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if "," in text:
        try:
            return [int(v) for v in text.split(",") if v.strip()]
        except ValueError:
            return text
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            continue
    return text
