"""The values the ModelNew evaluator adds to those of ascendir.testcase: an nn.Module instance (a torch layer
or a class of the file), a bound method, `super()`, a list's method, a statement's control flow, and the
exception that stops the evaluation at the custom op call; with the limits of the evaluation. Separate because
the statements, the layers and the calls all make and take them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from ascendir.testcase_eval import Evaluator
from ascendir.testcase_values import describe


MAX_DEPTH = 24  # nested calls of the module's own functions and methods
MAX_LOOP = 1 << 14  # iterations of one `for` statement


@dataclass(eq=False)
class ModuleObject:
    """An `nn.Module` instance: a torch.nn layer (`cls` None) or an instance of a class of the file."""

    kind: str
    attrs: dict[str, Any] = field(default_factory=dict)
    cls: ast.ClassDef | None = None


@dataclass(frozen=True)
class BoundMethod:
    """A method of an `_Object`: one defined in the file (`fn`), or a built-in one by name."""

    obj: ModuleObject
    name: str
    fn: ast.FunctionDef | None = None


@dataclass(frozen=True)
class SuperCall:
    obj: Any


@dataclass(frozen=True)
class ListMethod:
    seq: list[Any]
    name: str


@dataclass
class Flow:
    kind: str  # "return", "break", "continue"
    value: Any = None


class CustomOpFound(Exception):
    """The custom op was called: evaluation stops here."""

    def __init__(self, name: str, args: list[Any], node: ast.AST) -> None:
        super().__init__(name)
        self.name = name
        self.args_ = args
        self.node = node


def tuple_n(v: Any, n: int, what: str, ev: Evaluator, node: ast.AST) -> tuple[int, ...]:
    """torch's `_ntuple`: an int becomes n copies, a sequence must have n ints."""
    items = list(v) if isinstance(v, (tuple, list)) else [v] * n
    if len(items) != n:
        ev.fail(f"`{what}` has {len(items)} entries; expected {n}", node)
    return tuple(ev.as_int(x, f"`{what}`", node) for x in items)


def describe_obj(v: Any) -> str:
    if isinstance(v, ModuleObject):
        return f"`{v.kind}` module"
    if isinstance(v, (BoundMethod, ListMethod)):
        return f"method `{v.name}`"
    return describe(v)
