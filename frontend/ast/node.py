"""The AST's base: Node (a source span; children and walks found from the dataclass fields), and dump, the
readable text form `ascendc-check --dump-ast` prints."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Iterator

from frontend.diagnostics import LazySpan, Span


@dataclass(slots=True)
class Node:
    span: Span | LazySpan  # lazy for nodes built by the parser: resolved on first read

    def children(self) -> Iterator["Node"]:
        """Direct child nodes, in source order."""
        return iter(child_list(self))

    def walk(self) -> Iterator["Node"]:
        """This node and all its descendants, pre-order."""
        stack: list[Node] = [self]
        pop = stack.pop
        extend = stack.extend
        while stack:
            node = pop()
            yield node
            kids = child_list(node)
            if kids:
                kids.reverse()
                extend(kids)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The dataclass fields of a node class other than `span`, in declaration order (computed once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls) if f.name != "span")
    return names


# Field types declared as plain data: such a field never holds a node. A kernel's tree has many of them
# (operator spellings, literal texts, specifier and qualifier lists), so child walks do not look into them.
DATA_FIELD_TYPES = frozenset({"str", "str | None", "bool", "int", "float", "list[str]"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_field_names(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes, in declaration order (annotations are strings here:
    `from __future__ import annotations`)."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(f.name for f in fields(cls)
                                           if f.name != "span" and f.type not in DATA_FIELD_TYPES)
    return names


def child_list(node: Node) -> list[Node]:
    """Node.children as a list: the node-valued fields, and the nodes in list- or tuple-valued fields."""
    out: list[Node] = []
    names = _CHILD_FIELDS.get(node.__class__)
    if names is None:
        names = _child_field_names(node.__class__)
    for name in names:
        value = getattr(node, name)
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, Node):
                    out.append(item)
    return out


def dump(node: object, indent: int = 0, with_spans: bool = True) -> str:
    """A readable, stable text form of a tree (what `ascendc-check --dump-ast` prints)."""
    pad = "  " * indent
    if isinstance(node, Node):
        where = f" @{node.span.line}:{node.span.col}-{node.span.end_line}:{node.span.end_col}" if with_spans else ""
        head = f"{pad}{type(node).__name__}{where}"
        scalars: list[str] = []
        nested: list[str] = []
        for f in fields(node):
            if f.name == "span":
                continue
            value = getattr(node, f.name)
            if isinstance(value, Node):
                nested.append(f"{pad}  {f.name}:\n{dump(value, indent + 2, with_spans)}")
            elif isinstance(value, list) and any(isinstance(v, Node) for v in value):
                items = "\n".join(dump(v, indent + 2, with_spans) for v in value)
                nested.append(f"{pad}  {f.name}:\n{items}")
            elif value not in (None, [], "", False):
                scalars.append(f"{f.name}={value!r}")
        line = head + (" " + " ".join(scalars) if scalars else "")
        return "\n".join([line, *nested])
    return f"{pad}{node!r}"
