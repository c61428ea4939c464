"""A braced list passed straight to an overloaded API picks the overload whose parameter struct it can initialise
(C++ [over.ics.list]/7-8): through a constructor of that many parameters when the struct declares constructors
(no aggregate, [dcl.init.aggr]/1.1; the catalogue's `aggregate = false` with every constructor listed), else member
by member with no more items than members ([dcl.init.aggr]/5). Issue 29: catlass's conv CopyL1ToL0A calls
`LoadData(dst, src, {blockPadList, hi, wi, ..., (half)(0)})` with 17 items; before, any struct matched a braced
list, the first overload (LoadData2DParams) won and the padList pointer went to its uint16_t startIndex (ASC103
'cannot convert uint8_t[4] to uint16_t', the load left out)."""

from __future__ import annotations

import pytest

from ascendir.catalog import Catalog, load_catalog
from ascendir.catalog.resolve import ArgInfo, NoMatch, Resolution, resolve


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def _load_data(cat: Catalog, items: int | None) -> Resolution | NoMatch:
    args = [ArgInfo("local_tensor", "half", "A2"), ArgInfo("local_tensor", "half", "A1"),
            ArgInfo("struct", list_len=items)]
    return resolve(cat, "LoadData", args)


@pytest.mark.parametrize("items, overload", [(17, "3dv2"), (20, "3dv2"), (19, "3dv1"), (7, "2d")])
def test_the_braced_lists_length_picks_the_overload(cat: Catalog, items: int, overload: str) -> None:
    found = _load_data(cat, items)
    assert isinstance(found, Resolution), found
    assert found.overload.id == overload


@pytest.mark.parametrize("items", [18, 4])
def test_a_list_no_parameter_struct_takes_is_no_match(cat: Catalog, items: int) -> None:
    # no constructor of LoadData2DParams (7), V1 (19) or V2 (17, 20) takes 18 or 4 items; LoadData2DParams declares
    # constructors too, so it is no aggregate and 4 items are not its first 4 members
    found = _load_data(cat, items)
    assert isinstance(found, NoMatch)
    assert any(f"braced list of {items} items" in line and "LoadData3DParamsV2" in line for line in found.candidates)
    assert any(f"braced list of {items} items" in line and "LoadData2DParams" in line for line in found.candidates)


def test_a_list_of_unknown_length_matches_as_before(cat: Catalog) -> None:
    # (a pack expansion among the items): the first struct overload, as any struct argument
    found = _load_data(cat, None)
    assert isinstance(found, Resolution) and found.overload.id == "2d"


def test_the_catalogued_constructors_are_the_vendors(cat: Catalog) -> None:
    v2 = cat.struct("LoadData3DParamsV2")
    assert v2 is not None and not v2.aggregate
    assert [len(c) for c in v2.constructors] == [17, 20]
    assert v2.constructors[1] == tuple(f.name for f in v2.fields)  # the 20-argument one sets every field in order
    assert v2.takes_list_of(0) and not v2.takes_list_of(3)
    params_2d = cat.struct("LoadData2DParams")
    assert params_2d is not None and not params_2d.aggregate and params_2d.takes_list_of(7)
    assert not params_2d.takes_list_of(8) and not params_2d.takes_list_of(4)
