"""Parameter packs in the function lowering: `f(values)...`, `Dims...` expanded once per element, and fold
expressions `(... + v)` applied across a pack.

Separate because packs are a small language feature of their own that expressions, calls and braced lists
all expand through here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ascendir.lower import ctypes as C
from ascendir.lower.ast_queries import node_text
from ascendir.lower.astwalk import rebuilt, walk
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Binding, Pack, Val
from frontend import ast as A


def _substitute_names(node: A.Node, names: dict[str, A.Node]) -> A.Node:
    """A copy of `node` with each plain name in `names` replaced by what it maps to (a pack's element)."""

    def visit(n: A.Node) -> A.Node | None:
        if isinstance(n, A.Name) and len(n.qname.parts) == 1 and n.qname.parts[0].name in names:
            return names[n.qname.parts[0].name]
        return None

    return rebuilt(node, visit)


class PackExpansion:
    """Parameter packs: methods of FunctionLowerer (function.py), which inherits them."""

    def expr_PackExpansion(self, e: A.PackExpansion) -> Val:
        # (in call arguments and braced lists a pack expansion is expanded before it gets here: expand_packs)
        raise Unsupported(f"a pack expansion of '{node_text(e.expr)}' outside call arguments and braced lists is "
                          "not modelled", e)

    def _pack_named(self, name: str) -> Pack | None:
        """The pack bound to `name`: a function parameter pack, or a template parameter pack of this frame."""
        b = self.lookup(name) if name else None
        if isinstance(b, Val) and isinstance(b.obj, Pack):
            return b.obj
        bound = self.frame.types.get(name) if name else None
        return bound if isinstance(bound, Pack) else None

    def expand_pack(self, pattern: A.Node, node: A.Node) -> list[A.Node]:
        """`pattern` once per element of the packs it names (`f(values)...`, `Dims...`), each copy naming that
        element: a function parameter pack's element is bound in a scope of its own under a name no source can
        write, a template value pack's is written in as its constant."""
        packs: dict[str, Pack] = {}
        for n in walk(pattern):
            if isinstance(n, A.Name) and len(n.qname.parts) == 1:
                found = self._pack_named(n.qname.parts[0].name)
                if found is not None:
                    packs[n.qname.parts[0].name] = found
        if not packs:
            raise Unsupported(f"a pack expansion of '{node_text(pattern)}', which names no pack the lowering has bound",
                              node)
        sizes = {len(p.items) for p in packs.values()}
        if len(sizes) != 1:
            raise Unsupported("a pack expansion over packs of different lengths", node)
        scope: dict[str, Binding] = {}
        copies: list[A.Node] = []
        for k in range(sizes.pop()):
            names: dict[str, A.Node] = {}
            for name, pack in packs.items():
                item = pack.items[k]
                if isinstance(item, Val):
                    scope[f"{name}\x00{k}"] = item
                    names[name] = A.Name(node.span, A.QualifiedName(node.span, [A.NamePart(node.span, f"{name}\x00{k}")]))
                elif isinstance(item, bool | int):
                    names[name] = A.IntLit(node.span, str(int(item)), int(item))
                else:
                    raise Unsupported(f"a pack expansion over the types of '{name}'", node)
            copies.append(_substitute_names(pattern, names))
        self.frame.scopes[-1].update(scope)
        return copies

    def expand_packs(self, items: Sequence[A.Node], node: A.Node) -> list[A.Node]:
        """`items` (call arguments, a braced list) with each pack expansion among them expanded."""
        if not any(isinstance(i, A.PackExpansion) for i in items):
            return list(items)
        out: list[A.Node] = []
        for item in items:
            out += self.expand_pack(item.expr, item) if isinstance(item, A.PackExpansion) else [item]
        return out

    def expr_Fold(self, e: A.Fold) -> Val:
        """`(... + v)`, `(v + ...)`, `(0 + ... + v)`: the operator applied across the pack's elements, as C++
        spells it out (a left fold groups from the left), with the short-circuits of `&&` and `||`."""
        pattern = e.rhs if e.lhs is None or (e.rhs is not None and self._names_pack(e.rhs)) else e.lhs
        assert pattern is not None
        init = e.lhs if pattern is e.rhs else e.rhs
        elements = self.expand_pack(pattern, e)
        left = pattern is e.rhs  # `(... op pack)` and `(init op ... op pack)` fold from the left
        if e.op in ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="):
            raise Unsupported(f"a fold over the assignment '{e.op}'", e)
        operands = ([init] if init is not None and left else []) + elements + ([init] if init is not None and not left else [])
        if not operands:
            empty = {"&&": Val(C.BOOL, const=1), "||": Val(C.BOOL, const=0), ",": Val(C.VoidT())}.get(e.op)
            if empty is None:
                raise Unsupported(f"a fold over '{e.op}' of an empty pack", e)
            return empty
        tree = operands[0] if left else operands[-1]
        rest = operands[1:] if left else operands[-2::-1]
        for operand in rest:
            if e.op == ",":
                tree = A.Comma(e.span, tree, operand) if left else A.Comma(e.span, operand, tree)
            else:
                tree = A.Binary(e.span, e.op, tree, operand) if left else A.Binary(e.span, e.op, operand, tree)
        return self.expr(tree)

    def _names_pack(self, pattern: A.Node) -> bool:
        return any(isinstance(n, A.Name) and len(n.qname.parts) == 1 and self._pack_named(n.qname.parts[0].name)
                   for n in walk(pattern))
