"""Concrete inputs on the command line: `--shape [NAME=]8,2048:float16` and `--attr VALUE`, shared by
ascendc-check and ascendir-opt, plus `--test-case FILE` (a MultiKernelBench reference or a JSON list)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


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


def order_by_op_inputs(tensors: Sequence[tuple[str | None, tuple[int, ...], str]],
                       input_names: Sequence[str] | None) -> list[tuple[str | None, tuple[int, ...], str]]:
    """Named shapes placed at their input's position in the op description; unnamed ones keep their order.
    ValueError for a name the op does not declare."""
    if not input_names or not any(name for name, _, _ in tensors):
        return list(tensors)
    slots: list[Any] = [None] * len(input_names)
    rest = []
    for spec in tensors:
        name = spec[0]
        if name is None:
            rest.append(spec)
        elif name in input_names:
            slots[input_names.index(name)] = spec
        else:
            raise ValueError(f"--shape {name}=...: the op has no input '{name}' (inputs: {', '.join(input_names)})")
    for i, slot in enumerate(slots):
        if slot is None and rest:
            slots[i] = rest.pop(0)
    return [s for s in slots if s is not None] + rest


def split_named_outputs(tensors: Sequence[tuple[str | None, tuple[int, ...], str]], output_names: Sequence[str]
                        ) -> tuple[list[tuple[str | None, tuple[int, ...], str]],
                                   list[tuple[str | None, tuple[int, ...], str] | None]]:
    """The shapes named after an output of the op (`--shape y=1000:float32`), one slot per declared output
    (None where not given), and the other shapes, which describe inputs. An output's shape is otherwise the
    one the Python binding allocates or the host InferShape computes; naming it overrides those."""
    outputs: list[tuple[str | None, tuple[int, ...], str] | None] = [None] * len(output_names)
    rest = []
    for spec in tensors:
        if spec[0] is not None and spec[0] in output_names:
            outputs[list(output_names).index(spec[0])] = spec
        else:
            rest.append(spec)
    return rest, outputs
