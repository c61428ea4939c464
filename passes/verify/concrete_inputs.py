"""Concrete inputs for checking a program: the tensors and attributes the host tiling function will see, given
as shapes (`ascendc-check --shape [NAME=]8,2048:float16 --attr VALUE`, a test case's inputs, a benchmark
reference's), turned into the TilingInputs of each program (a named shape goes to that input's position in
the op description; a shape named after an output sets that output's shape)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TensorShape = tuple[str | None, tuple[int, ...], str]  # (name or None, shape, dtype)


class ConcreteInputs:
    """Shapes and attributes (from the command line, a test case, a benchmark reference), turned into
    TilingInputs per program (named shapes go to the position of that input in the program's op description)."""

    def __init__(self, tensors: list[TensorShape], attrs: list[object]) -> None:
        self.tensors = tensors
        self.attrs = attrs

    def for_program(self, program: Any, chip: str) -> Any:
        from ascendir.host_eval import TensorSpec, TilingInputs
        from passes.verify.kernel_only import op_description

        # the op json's names, else the OpDef's, else a kernel-only answer's GM parameters
        described = op_description(program)
        op_json = [described] if described is not None else []
        names = [str(d.get("name")) for d in (op_json[0].get("input_desc") or [])] if op_json else None
        output_names = [str(d.get("name")) for d in (op_json[0].get("output_desc") or [])] if op_json else []
        given, outputs = split_named_outputs(self.tensors, output_names)
        ordered = order_by_op_inputs(given, names)
        return TilingInputs([TensorSpec(shape, dtype) for _, shape, dtype in ordered], attrs=list(self.attrs),
                            chip=chip, outputs=[TensorSpec(o[1], o[2]) if o is not None else None for o in outputs]
                            if any(outputs) else [])


def order_by_op_inputs(tensors: Sequence[TensorShape], input_names: Sequence[str] | None) -> list[TensorShape]:
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


def split_named_outputs(tensors: Sequence[TensorShape], output_names: Sequence[str]
                        ) -> tuple[list[TensorShape], list[TensorShape | None]]:
    """The shapes named after an output of the op (`--shape y=1000:float32`), one slot per declared output
    (None where not given), and the other shapes, which describe inputs. An output's shape is otherwise the
    one the Python binding allocates or the host InferShape computes; naming it overrides those."""
    outputs: list[TensorShape | None] = [None] * len(output_names)
    rest = []
    for spec in tensors:
        if spec[0] is not None and spec[0] in output_names:
            outputs[list(output_names).index(spec[0])] = spec
        else:
            rest.append(spec)
    return rest, outputs
