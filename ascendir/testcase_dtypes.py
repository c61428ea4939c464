"""torch's dtypes for the test-case evaluator: the names we know, torch's aliases and casting methods, and
torch.promote_types over them.
"""

from __future__ import annotations

from ascendir.testcase_types import Scalar


DTYPE_NAMES = (
    "float16", "float32", "float64", "bfloat16",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
)
TORCH_DTYPES = {name: name for name in DTYPE_NAMES} | {
    "half": "float16", "float": "float32", "double": "float64",
    "short": "int16", "int": "int32", "long": "int64",
}
# tensor methods that only change the dtype
CAST_METHODS = {
    "half": "float16", "float": "float32", "double": "float64", "bfloat16": "bfloat16",
    "int": "int32", "long": "int64", "short": "int16", "bool": "bool", "byte": "uint8", "char": "int8",
}
DTYPE_BITS = {
    "bool": 1, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int32": 32, "uint32": 32,
    "int64": 64, "uint64": 64, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64,
}


def dtype_category(dtype: str) -> int:
    if dtype == "bool":
        return 0
    return 2 if dtype.startswith(("float", "bfloat")) else 1


def promote_types(a: str, b: str) -> str:
    """torch.promote_types for the dtypes we know."""
    if a == b:
        return a
    ca, cb = dtype_category(a), dtype_category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if DTYPE_BITS[a] >= DTYPE_BITS[b] else b
    ua, ub = a.startswith("uint"), b.startswith("uint")
    if ua == ub:
        return a if DTYPE_BITS[a] >= DTYPE_BITS[b] else b
    unsigned, signed = (a, b) if ua else (b, a)
    if DTYPE_BITS[signed] > DTYPE_BITS[unsigned]:
        return signed
    return {8: "int16", 16: "int32"}.get(DTYPE_BITS[unsigned], "int64")


def scalar_dtype(v: Scalar) -> str:
    if isinstance(v, bool):
        return "bool"
    return "int64" if isinstance(v, int) else "float32"
