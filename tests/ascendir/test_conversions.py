"""C++'s integral promotions and usual arithmetic conversions (ascendir.lower.ctypes.promote / common_type), the
one place the lowering takes them from, checked against what clang gives (`decltype(a + b)` on the device)."""

from __future__ import annotations

import pytest

from ascendir.lower.ctypes import Scalar, common_type, promote

PROMOTED = [("bool", "int32_t"), ("int8_t", "int32_t"), ("uint8_t", "int32_t"), ("int16_t", "int32_t"),
            ("uint16_t", "int32_t"), ("int4b_t", "int32_t"), ("int32_t", "int32_t"), ("uint32_t", "uint32_t"),
            ("int64_t", "int64_t"), ("uint64_t", "uint64_t"), ("half", "half"), ("float", "float")]

COMMON = [
    ("int16_t", "int16_t", "int32_t"), ("uint16_t", "int32_t", "int32_t"), ("uint8_t", "uint16_t", "int32_t"),
    ("bool", "bool", "int32_t"), ("int32_t", "uint32_t", "uint32_t"), ("int16_t", "uint32_t", "uint32_t"),
    ("int64_t", "uint32_t", "int64_t"), ("int32_t", "uint64_t", "uint64_t"), ("int64_t", "uint64_t", "uint64_t"),
    ("uint32_t", "int64_t", "int64_t"), ("int64_t", "float", "float"), ("uint64_t", "half", "half"),
    ("half", "float", "float"), ("float", "double", "double"), ("int32_t", "double", "double"),
]  # fmt: skip


@pytest.mark.parametrize(("t", "expected"), PROMOTED)
def test_integral_promotion(t: str, expected: str) -> None:
    assert promote(Scalar(t)) == Scalar(expected)


@pytest.mark.parametrize(("a", "b", "expected"), COMMON)
def test_usual_arithmetic_conversions(a: str, b: str, expected: str) -> None:
    assert common_type(Scalar(a), Scalar(b)) == Scalar(expected)
    assert common_type(Scalar(b), Scalar(a)) == Scalar(expected)
