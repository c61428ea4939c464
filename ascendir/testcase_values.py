"""The abstract values the test-case evaluator computes with: a tensor as (shape, dtype), dtypes, devices,
modules and functions by name, a name whose value could not be found (Poison), the evaluator's errors, and
their conversion to the host evaluator's TensorSpec.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ascendir.host_eval import TensorSpec
from ascendir.testcase_types import TestCaseProblem


@dataclass(frozen=True)
class Tensor:
    shape: tuple[int, ...]
    dtype: str


@dataclass(frozen=True)
class DType:
    name: str


@dataclass(frozen=True)
class Device:
    pass


@dataclass(frozen=True)
class Module:
    """An imported module or a dotted name below one (`torch`, `torch.nn.functional.softmax`)."""

    name: str


@dataclass(frozen=True)
class Builtin:
    name: str


@dataclass(frozen=True)
class Method:
    obj: Any
    name: str


@dataclass(frozen=True)
class UserFunc:
    name: str
    line: int


@dataclass
class Poison:
    """A name whose value could not be found; the problem is reported at the first use."""

    problem: TestCaseProblem | None
    reported: bool = False


class EvalError(Exception):
    def __init__(self, message: str, node: ast.AST | None) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


class Quiet(Exception):
    """An evaluation failed because of a problem already reported."""


def loc(node: ast.AST | None) -> tuple[int, int]:
    if node is None:
        return 1, 1
    return getattr(node, "lineno", 1) or 1, (getattr(node, "col_offset", 0) or 0) + 1


def describe(v: Any) -> str:
    if isinstance(v, Tensor):
        return f"tensor{list(v.shape)}:{v.dtype}"
    if isinstance(v, DType):
        return f"dtype {v.name}"
    if isinstance(v, Module):
        return f"`{v.name}`"
    if isinstance(v, (Builtin, UserFunc)):
        return f"function `{v.name}`"
    if isinstance(v, Method):
        return f"method `{v.name}`"
    return type(v).__name__


def to_spec(t: Tensor) -> TensorSpec:
    return TensorSpec(shape=tuple(t.shape), dtype=t.dtype)
