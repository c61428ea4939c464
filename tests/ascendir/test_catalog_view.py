"""CatalogView.resolve remembers each distinct call's resolution; what it hands out stays the caller's own."""

from __future__ import annotations

from ascendir.catalog import load_catalog
from ascendir.catalog.resolve import ArgInfo, resolve
from ascendir.lower.catalog_view import CatalogView

HALF_UB = ArgInfo("local_tensor", dtype="half", position="VECCALC")
ADD_ARGS = [HALF_UB, HALF_UB, HALF_UB, ArgInfo("scalar", dtype="int32_t", is_literal=True)]


def test_remembered_resolution_is_the_fresh_one() -> None:
    view = CatalogView()
    for _ in range(2):  # resolved, then remembered
        got = view.resolve("Add", ADD_ARGS, [], None)
        fresh = resolve(load_catalog(), "Add", ADD_ARGS)
        assert got.error is None and got.overload is fresh.overload and got.bindings == fresh.bindings  # type: ignore[union-attr]


def test_bindings_are_copies() -> None:
    view = CatalogView()
    first = view.resolve("Add", ADD_ARGS, [], None)
    first.bindings["T"] = "changed"
    assert view.resolve("Add", ADD_ARGS, [], None).bindings.get("T") == "half"


def test_no_match_is_remembered_with_its_candidates() -> None:
    view = CatalogView()
    args = [ArgInfo("scalar", dtype="float")]
    first, second = view.resolve("Add", args, [], None), view.resolve("Add", args, [], None)
    assert first.error is not None and first.error == second.error
    assert first.candidates == second.candidates and first.candidates is not second.candidates
