"""`astwalk.facts` gives, for every node, the answers a plain `walk` of its subtree gives (see Facts).

`facts` takes shortcuts for speed (it skips the fields declared as plain data, and plain names); this
checks them against the definitions on every node of the corpus kernels, asked leaves first and root first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendir.lower.astwalk import facts, forget_facts, is_non_const_reference, walk, written_root
from frontend import ast as A
from frontend.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(p for d in ("tests/corpus/clean/kernels", "tests/corpus/rules") for p in (ROOT / d).rglob("*")
                 if p.suffix in (".cpp", ".asc"))
LOOPS = (A.For, A.While, A.DoWhile, A.RangeFor)


def _expected(node: A.Node) -> tuple[set[int], bool, bool, bool, frozenset[str]]:
    returns = {id(n) for n in walk(node) if isinstance(n, A.Return)}
    brk_in = any(isinstance(n, A.Break) for n in walk(node, (*LOOPS, A.Switch)))
    cont_in = any(isinstance(n, A.Continue) for n in walk(node, LOOPS))
    callish = any(isinstance(n, A.Call | A.Assign | A.IncDec) for n in walk(node))
    assigned = set()
    for n in walk(node):
        target = n.target if isinstance(n, A.Assign) else n.operand if isinstance(n, A.IncDec) or (
            isinstance(n, A.Unary) and n.op == "&") else n.init if isinstance(n, A.Declarator) and \
            is_non_const_reference(n) else None
        name = written_root(target) if target is not None else None
        if name:
            assigned.add(name)
    return returns, brk_in, cont_in, callish, frozenset(assigned)


def _got(node: A.Node) -> tuple[set[int], bool, bool, bool, frozenset[str]]:
    f = facts(node)
    return {id(r) for r in f.returns}, f.brk_in, f.cont_in, f.callish, frozenset(f.assigned)


@pytest.mark.parametrize("path", KERNELS, ids=[p.relative_to(ROOT).as_posix() for p in KERNELS])
def test_facts_match_walk(path: Path) -> None:
    program = load(str(path))
    nodes = [n for u in program.units for n in u.ast.walk()]
    try:
        for order in (nodes, nodes[::-1]):  # root first (one pass fills the cache), then leaves first
            forget_facts()
            for n in order:
                assert _got(n) == _expected(n), f"{type(n).__name__} at {n.span}"
    finally:
        forget_facts()
