"""ASC515 skips AST nodes by their class, decided once per class (passes/verify/redefinition.py `_RELEVANT`):
the skip must say what the isinstance tests it replaces would say, for every node class, subclasses of the
scope classes included, and a class remembered as skipped must not hide one that is looked at."""

from __future__ import annotations

import inspect
from pathlib import Path

from frontend import ast as A
from frontend.pipeline import load
from passes.verify import check_program
from passes.verify import redefinition as R

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "corpus" / "rules" / "api" / "redefinition.cpp"


def test_the_class_test_agrees_with_isinstance_for_every_node_class() -> None:
    classes = [c for _, c in inspect.getmembers(A, inspect.isclass) if issubclass(c, A.Node)]
    assert len(classes) > 50
    for cls in classes:
        assert R._declares_scope(cls) == issubclass(cls, R._SCOPES), cls
    for kept in (A.FunctionDecl, A.Lambda, A.For, A.RangeFor, A.If, A.While, A.Switch, A.Compound):
        assert R._declares_scope(kept)
    for skipped in (A.Call, A.VarDecl, A.Return, A.TranslationUnit):
        assert not R._declares_scope(skipped)


def test_a_subclass_of_a_scope_class_is_looked_at() -> None:
    class Block(A.Compound):  # a class the memo has not seen, below one it looks at
        pass

    R._RELEVANT.pop(Block, None)
    assert R._declares_scope(Block)


def _redefinitions() -> list[tuple[int, str]]:
    program = load(str(CASES))
    return sorted((d.span.line, d.message) for d in check_program(program, select=["ASC515"]))


def test_the_findings_do_not_depend_on_what_the_memo_holds() -> None:
    R._RELEVANT.clear()
    cold = _redefinitions()
    warm = _redefinitions()  # every class decided now
    assert cold == warm
    assert cold == [(10, "redefinition of 'start'"), (16, "redefinition of 'i'"), (20, "redefinition of 'tiles'")]
    # a memo poisoned to skip blocks loses the same-block redefinition: the memo is what decides
    R._RELEVANT[A.Compound] = False
    try:
        assert "redefinition of 'tiles'" not in [m for _, m in _redefinitions()]
    finally:
        R._RELEVANT.clear()
