"""in_register_api (ascendir/lower/header_names.py), asked of every name and type the lowering reads, answers
as `any(qualifier in REGISTER_API_NAMESPACES for each qualifier)` did: only a qualifier counts, never the last
part, and an unqualified name is never one (issue 33's speed goal made it a plain loop)."""

from __future__ import annotations

from itertools import product

from frontend import ast as A
from frontend.diagnostics import Span
from ascendir.lower.header_names import REGISTER_API_NAMESPACES, in_register_api

AT = Span("k.cpp", 1, 1, 1, 1)


def _qname(*names: str) -> A.QualifiedName:
    return A.QualifiedName(AT, [A.NamePart(AT, n) for n in names])


def test_only_a_qualifier_names_the_register_api() -> None:
    assert in_register_api(_qname("Reg", "MaskPattern", "ALL"))
    assert in_register_api(_qname("AscendC", "MicroAPI", "LoadDist", "DIST_NORM"))
    assert not in_register_api(_qname("MicroAPI"))  # the last part alone is a name, not a qualifier
    assert not in_register_api(_qname("AscendC", "MicroAPI"))
    assert not in_register_api(_qname("x"))
    assert not in_register_api(_qname())


def test_every_short_name_answers_as_the_any_form() -> None:
    words = ["Reg", "MicroAPI", "AscendC", "x"]
    for k in range(4):
        for names in product(words, repeat=k):
            expected = any(n in REGISTER_API_NAMESPACES for n in names[:-1])
            assert in_register_api(_qname(*names)) == expected, names
