"""How many input elements an NPUKernelBench case draws, read from its test_cases.csv row before drawing.

The row names its tensors' shapes in columns whose name holds "shape" (`input_shape`, `shape`, `x1_shape`,
`gamma_shape`, `input_shapes` ...), as Python lists that the task's prepare_inputs.py `eval`s; read here with
`ast.literal_eval` (a list of ints, or a list of such lists for several tensors). The harness leaves out cases
above --max-elements instead of drawing them: StridesliceNegConcatV2's case 3 ([1, 512, 1024, 1024], 2^29
float16 elements, 1 GiB a tensor) took the worker past 5.9 GB before anything was simulated.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from typing import Any


def shape_elements(params: Mapping[str, Any]) -> int | None:
    """The sum of the element counts of every shape column of a case's row; None when it has none."""
    total = 0
    found = False
    for name, value in params.items():
        if "shape" not in str(name).lower():
            continue
        shapes = _shapes(value)
        if shapes is None:
            continue
        found = True
        total += sum(math.prod(s) for s in shapes)
    return total if found else None


def _shapes(value: Any) -> list[tuple[int, ...]] | None:
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    if isinstance(value, (list, tuple)):
        if all(isinstance(d, int) and not isinstance(d, bool) for d in value):
            return [tuple(value)]
        if value and all(isinstance(s, (list, tuple)) and all(isinstance(d, int) and not isinstance(d, bool)
                                                              for d in s) for s in value):
            return [tuple(s) for s in value]
    return None
