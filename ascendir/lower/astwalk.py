"""Walking the frontend AST by its dataclass slots (spans excluded), for the lowering's own queries."""

from __future__ import annotations

from collections.abc import Iterator

from frontend import ast as A

_SLOT_CACHE: dict[type, tuple[str, ...]] = {}


def child_slots(cls: type) -> tuple[str, ...]:
    hit = _SLOT_CACHE.get(cls)
    if hit is None:
        hit = _SLOT_CACHE[cls] = tuple(dict.fromkeys(
            slot for klass in cls.__mro__ for slot in getattr(klass, "__slots__", ()) if slot != "span"))
    return hit


def walk(node: object, skip: tuple[type, ...] = ()) -> Iterator[A.Node]:
    """`node` (a node or a list of them) and everything below it, not entering nodes of the `skip` kinds
    other than `node` itself (e.g. nested loops, when asking where a `break` goes)."""
    stack: list[object] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Node):
            if skip and n is not node and isinstance(n, skip):
                continue
            yield n
            for slot in child_slots(type(n)):
                child = getattr(n, slot, None)
                if isinstance(child, A.Node):
                    stack.append(child)
                elif isinstance(child, list):
                    stack.extend(c for c in child if isinstance(c, A.Node))
        elif isinstance(n, list):
            stack.extend(n)
