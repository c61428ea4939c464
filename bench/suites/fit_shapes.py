"""Smaller cases derived from a MultiKernelBench reference program (`ascendir bench --fit-shapes`).

Today's MultiKernelBench reference programs draw up to 2^31 input elements (4096 x 393216 for an activation),
far past what this machine draws and simulates (--max-elements, 2^25). Their shapes come from size constants at
module level (`batch_size = 4096`, `dim = 393216`) that get_inputs() and get_init_inputs() read. A fitted case
gives those constants smaller values and runs the reference program with them: the reference Model, its inputs
and its expected outputs all follow from the program itself, only the sizes differ.

    fit = fit_constants(text, "gelu.py", 1 << 25)
    fit.constants      {"dim": 6144}                 (what the program is run with)
    fit.describe()     "reduced with --fit-shapes: dim 393216 -> 6144; inputs x=[4096, 6144]:float32"

How: the program is read with `ast` (ascendir.testcase evaluates get_inputs() over the syntax tree, never running
it). While the case draws more input elements than the limit, the largest constant whose halving lowers the count
is halved (ties: the first in the file). A constant is halved only while it keeps the power-of-two factor it had,
up to 2^KEEP_BITS (a multiple of 32 stays one): the benchmark's sizes are multiples of the 32-byte block, and a
reduction that broke that alignment would fail answers that are right at the benchmark's shapes. Odd constants
(kernel sizes, axes, strides) and small ones (a group count of 8) are never changed. Besides int constants
(`dim = 16384`), the sizes halved are the elements of tuple constants (`input_shape = (32768,)`: key
`input_shape[0]`) and the int literals written inside get_inputs() (`torch.rand(4, 128, 240, 320)`: key
`get_inputs():320`); equal literals there change together, as one dimension written twice (a broadcast partner:
`(128, 512, 1024)` with `(1, 512, 1)`). A case no halving brings under the limit is left as it is (not
evaluated), with the reason.

This is benchmark code reading benchmark code: an answer is never consulted. An answer whose kernel hard-codes
the benchmark's sizes fails the fitted case, and every fitted case says it was reduced and to what.
"""

from __future__ import annotations

import ast
import copy
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

KEEP_BITS = 5  # a constant keeps its factor 2^min(its own, 5): 32 elements, a 32-byte block of any type
_V = TypeVar("_V")
LITERAL = "get_inputs():"  # the key prefix of the int literals of one value inside get_inputs()


@dataclass(frozen=True)
class Fit:
    """The constants a case is run with, and what that gives."""

    original: Mapping[str, int]  # the reduced constants' values in the program
    constants: Mapping[str, int]  # their values in the fitted case
    elements_before: int
    elements: int
    inputs: tuple[tuple[tuple[int, ...], str], ...] = field(default=())  # (shape, dtype) of each tensor input

    def describe(self) -> str:
        changes = ", ".join(f"{_shown_key(k)} {self.original[k]} -> {v}" for k, v in self.constants.items())
        shapes = ", ".join(f"{list(s)}:{d}" for s, d in self.inputs)
        return (f"reduced with --fit-shapes ({self.elements_before:,} -> {self.elements:,} input elements): "
                f"{changes}; inputs {shapes}")


@dataclass(frozen=True)
class NoFit:
    """Why a case could not be brought under the limit."""

    reason: str


def module_constants(tree: ast.Module) -> dict[str, int]:
    """The program's size constants: names assigned exactly once at module level, to a positive int given by
    literals (`dim = 16384`, `M = 1024 * 2`, `height = width = 128`, `height, width = 256, 256`)."""
    return _assigned_once(tree, _positive_int)


def size_slots(tree: ast.Module) -> dict[str, int]:
    """Every size the fit may halve, by key, in the order the program writes them: the int constants
    (module_constants), each element of a tuple constant (`name[i]`), each int literal value inside get_inputs()
    (`get_inputs():v`, all its occurrences one slot)."""
    where: dict[str, tuple[int, int]] = {}
    values: dict[str, int] = {}
    ints = module_constants(tree)
    tuples = _tuple_constants(tree)
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            for name, _ in _named_values(node):
                if name in ints:
                    values[name], where[name] = ints[name], (node.lineno, node.col_offset)
                for i, v in enumerate(tuples.get(name, ())):
                    values[f"{name}[{i}]"], where[f"{name}[{i}]"] = v, (node.lineno, node.col_offset + i)
        elif isinstance(node, ast.FunctionDef) and node.name == "get_inputs":
            for lit in ast.walk(node):
                if isinstance(lit, ast.Constant) and type(lit.value) is int and lit.value > 0:
                    key = f"{LITERAL}{lit.value}"
                    if key not in values or (lit.lineno, lit.col_offset) < where[key]:
                        values[key], where[key] = lit.value, (lit.lineno, lit.col_offset)
    return {k: values[k] for k in sorted(values, key=lambda k: where[k])}


def _tuple_constants(tree: ast.Module) -> dict[str, tuple[int, ...]]:
    """Names assigned exactly once at module level to a tuple or list of positive ints given by literals
    (`input_shape = (32768,)`, `shape = (16, 4096)`)."""
    return _assigned_once(tree, _positive_ints)


def _assigned_once(tree: ast.Module, value_of: Callable[[ast.expr], _V | None]) -> dict[str, _V]:
    """The names assigned exactly once at module level (an augmented assignment counts as one more), each to
    what `value_of` reads from its value expression, where it reads something."""
    seen: dict[str, int] = {}
    values: dict[str, _V] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for name in (n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)):
                seen[name] = seen.get(name, 0) + 1
            if not isinstance(node, ast.AugAssign):
                for name, expr in _named_values(node):
                    value = value_of(expr)
                    if value is not None:
                        values[name] = value
    return {k: v for k, v in values.items() if seen[k] == 1}


def _positive_int(node: ast.expr) -> int | None:
    number = _literal_int(node)
    return number if number is not None and number > 0 else None


def _positive_ints(node: ast.expr) -> tuple[int, ...] | None:
    if not isinstance(node, ast.Tuple | ast.List) or not node.elts:
        return None
    items = [_positive_int(e) for e in node.elts]
    return tuple(items) if all(v is not None for v in items) else None  # type: ignore[arg-type]


def _shown_key(key: str) -> str:
    return "get_inputs() literal" if key.startswith(LITERAL) else key


def _named_values(node: ast.Assign | ast.AnnAssign) -> list[tuple[str, ast.expr]]:
    """(name, value expression) of each name a module-level assignment binds to its own value: `a = b = v`,
    `a, b = v, w`; nothing for other forms."""
    if node.value is None:
        return []
    out: list[tuple[str, ast.expr]] = []
    for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
        if isinstance(target, ast.Name):
            out.append((target.id, node.value))
        elif (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
              and len(target.elts) == len(node.value.elts)):
            out += [(t.id, v) for t, v in zip(target.elts, node.value.elts) if isinstance(t, ast.Name)]
    return out


def _literal_int(node: ast.expr) -> int | None:
    """The value of an int expression made of literals and + - * // ** (small powers), else None."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal_int(node.operand)
        return -value if value is not None else None
    if isinstance(node, ast.BinOp):
        left, right = _literal_int(node.left), _literal_int(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.FloorDiv) and right:
            return left // right
        if isinstance(node.op, ast.Pow) and 0 <= right <= 64:
            return left ** right
    return None


def with_constants(tree: ast.Module, constants: Mapping[str, int]) -> ast.Module:
    """A copy of `tree` whose sizes in `constants` (keys as size_slots gives them) have the given values: an
    assignment that binds one of them becomes one assignment per name it binds (the others keep their
    expressions; a tuple constant keeps its other elements), and get_inputs() has its literals of a changed value
    replaced."""
    literals = {int(k[len(LITERAL):]): v for k, v in constants.items() if k.startswith(LITERAL)}

    def elements(name: str) -> dict[int, int]:
        return {int(k[len(name) + 1:-1]): v for k, v in constants.items()
                if k.startswith(f"{name}[") and k.endswith("]") and k[len(name) + 1:-1].isdigit()}

    body: list[ast.stmt] = []
    for node in tree.body:
        if literals and isinstance(node, ast.FunctionDef) and node.name == "get_inputs":
            body.append(_Literals(literals).visit(copy.deepcopy(node)))
            continue
        named = _named_values(node) if isinstance(node, (ast.Assign, ast.AnnAssign)) else []
        if not any(name in constants or elements(name) for name, _ in named):
            body.append(node)
            continue
        for name, value in named:
            items = elements(name)
            if name in constants:
                new: ast.expr = ast.Constant(constants[name])
            elif items and isinstance(value, ast.Tuple | ast.List):
                new = type(value)(elts=[ast.Constant(items[i]) if i in items else e for i, e in enumerate(value.elts)],
                                  ctx=ast.Load())
            else:
                new = value
            body.append(ast.copy_location(ast.Assign(targets=[ast.Name(name, ast.Store())], value=new), node))
    return ast.fix_missing_locations(ast.Module(body=body, type_ignores=tree.type_ignores))


class _Literals(ast.NodeTransformer):
    """get_inputs() with its int literals of the changed values replaced."""

    def __init__(self, values: Mapping[int, int]) -> None:
        self.values = values

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        if type(node.value) is int and node.value in self.values:
            return ast.copy_location(ast.Constant(self.values[node.value]), node)
        return node


def _inputs(tree: ast.Module, constants: Mapping[str, int], filename: str
            ) -> tuple[tuple[tuple[int, ...], str], ...] | str:
    """The tensor inputs get_inputs() draws with `constants`, read with `ast`; or the first problem met."""
    from ascendir.testcase import read_reference_text

    read = read_reference_text(ast.unparse(with_constants(tree, constants)), filename)
    if read.errors:
        return str(read.errors[0])
    if not read.inputs:
        return "get_inputs() draws no tensors"
    return tuple((tuple(t.shape), t.dtype) for t in read.inputs)


def _halvable(original: int, current: int) -> bool:
    """Whether `current` may be halved: the result keeps `original`'s power-of-two factor (up to 2^KEEP_BITS)."""
    twos = (original & -original).bit_length() - 1
    return current % 2 == 0 and (current // 2) % (1 << min(twos, KEEP_BITS)) == 0


def fit_constants(text: str, filename: str, limit: int) -> Fit | NoFit | None:
    """Constants that bring the program's case under `limit` input elements; None when it is under already."""
    try:
        tree = ast.parse(text, filename=filename)
    except (SyntaxError, ValueError) as exc:
        return NoFit(f"the reference program cannot be parsed: {exc}")
    found = _inputs(tree, {}, filename)
    if isinstance(found, str):
        return NoFit(f"its input shapes are not known without running it ({found})")
    elements = before = sum(math.prod(s) for s, _ in found)
    if elements <= limit:
        return None
    original = size_slots(tree)
    current = dict(original)
    while elements > limit:
        for name in sorted((k for k in current if _halvable(original[k], current[k])), key=lambda k: -current[k]):
            trial = _inputs(tree, {**current, name: current[name] // 2}, filename)
            count = None if isinstance(trial, str) else sum(math.prod(s) for s, _ in trial)
            if count is not None and count < elements:
                current[name] //= 2
                elements, found = count, trial
                break
        else:
            reached = ", ".join(f"{_shown_key(k)} {original[k]} -> {v}" for k, v in current.items()
                                if v != original[k])
            return NoFit(f"no size constant can be halved further keeping its alignment: {before:,} input "
                         f"elements brought to {elements:,}, over {limit:,}"
                         + (f" ({reached})" if reached else " (no size can be halved: odd sizes, and even ones "
                                                              "without a factor of 2 to spare over their 32-element "
                                                              "alignment, are kept)"))
    changed = {k: v for k, v in current.items() if v != original[k]}
    return Fit({k: original[k] for k in changed}, changed, before, elements, found)
