"""The launch arguments a caller gives `passes.sim.run`, checked before anything is lowered or run.

Issue 28: every failure is an exception with a clear message. Without these checks a bad argument surfaced
far from the call: a negative block_dim or budget as pyo3's OverflowError ('out of range integral type
conversion attempted'), a block_dim given as text as an AttributeError inside xDSL, a tiling value given as text
as int()'s ValueError in the tiling fold, a path that does not exist parsed as kernel source (ASC001 'unexpected
/'), and a dtype name the launch does not know ('half', 'nonsense', np.float16) silently allocated as float32.
Each is a SimError here that names the argument, the value and what is accepted
(bench/perf/sim_robustness.py measures them with --sources args).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from passes.sim.launch_tensors import INT4, ML_DTYPES, SimError, given_dtype_name

MAX_BLOCK_DIM = 65535  # what the simulator (and the runtime's launch) accepts: rust_sim checks the same range
MAX_U64 = 2**64 - 1

KNOWN_DTYPES = (*ML_DTYPES, "bfloat16", INT4)

# a one-line string that can only be meant as a path: no C++ punctuation, a kernel file's suffix or a folder
_PATH_LIKE = re.compile(r"[\w.~+@-]*(/[\w.~+@-]*)*")
_SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp", ".asc", ".md", ".json", ".txt", ".py")


def missing_path(source: Any) -> str | None:
    """The path `source` names when it is a string that can only be a path and nothing is there, else None (a
    string of kernel text always holds a space, a parenthesis or a brace)."""
    if not isinstance(source, str) or "\n" in source or os.path.exists(source):
        return None
    text = source.strip()
    if text and _PATH_LIKE.fullmatch(text) and ("/" in text or text.endswith(_SOURCE_SUFFIXES)):
        return text
    return None


def dtype_given(value: Any, what: str) -> str:
    """The launch's name of the dtype a caller gives as a name, a numpy type or dtype; SimError for another."""
    name = given_dtype_name(value)
    if name not in KNOWN_DTYPES:
        raise SimError(f"{what}: unknown dtype {value!r}; give one of {', '.join(KNOWN_DTYPES)}")
    return name


def _integer(name: str, value: Any, low: int, high: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise SimError(f"{name} must be an integer, not {type(value).__name__} {value!r}")
    if not low <= int(value) <= high:
        raise SimError(f"{name} {int(value)}: it must be {low} to {high}")


def _tiling_value(field: str, value: Any) -> None:
    """A tiling field's value: a number, or a list / tuple / mapping of them (array and struct fields)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            _tiling_value(f"{field}.{key}", item)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _tiling_value(f"{field}[{i}]", item)
    elif isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise SimError(f"tiling field '{field}': an array of {value.dtype} is not a number")
    elif isinstance(value, bool | int | float | np.integer | np.floating):
        if isinstance(value, int | np.integer) and not -2**63 <= int(value) <= MAX_U64:
            raise SimError(f"tiling field '{field}': {int(value)} does not fit in 64 bits")
    else:
        raise SimError(f"tiling field '{field}': {value!r} is not a number (give an int or a float, or a list "
                       f"of them for an array field)")


def check_arguments(*, block_dim: Any = None, budget: Any = None, tiling: Any = None, tiling_key: Any = None,
                    dtypes: Any = None, workspace: Any = None) -> Any:
    """SimError naming the first argument that no launch could take; else `dtypes` with each name the
    launch's ('half' -> 'float16')."""
    _integer("block_dim", block_dim, 1, MAX_BLOCK_DIM)
    _integer("budget", budget, 0, MAX_U64)
    _integer("tiling_key", tiling_key, 0, MAX_U64)
    _integer("workspace", workspace, 0, MAX_U64)
    if tiling is not None:
        if not isinstance(tiling, Mapping):
            raise SimError(f"tiling must map field names to values, not {type(tiling).__name__}")
        for field, value in tiling.items():
            if not isinstance(field, str):
                raise SimError(f"tiling field names are strings, not {type(field).__name__} {field!r}")
            _tiling_value(field, value)
    if dtypes is None:
        return None
    if isinstance(dtypes, Mapping):
        return {k: None if v is None else dtype_given(v, f"dtypes[{k!r}]") for k, v in dtypes.items()}
    return [None if v is None else dtype_given(v, f"dtypes[{i}]") for i, v in enumerate(dtypes)]
