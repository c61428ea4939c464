"""The all-core GM write analysis behind ASC606 and ASC607: which bytes no core writes, which two cores
write the same bytes."""

from __future__ import annotations

from passes.verify.coverage import _overlaps_between_cores, _unwritten
from passes.verify.footprint import Access, CoreRun


def _write(offset: int, size: int, arg: int = 1) -> Access:
    return Access(arg, offset, size, True, None, "yGm")  # type: ignore[arg-type]


def test_unwritten_ranges_are_the_holes_and_the_tail() -> None:
    assert _unwritten([_write(0, 64), _write(64, 64)], 128) == []
    assert _unwritten([_write(64, 64), _write(0, 32)], 160) == [(32, 64), (128, 160)]
    assert _unwritten([_write(0, 256)], 128) == []  # a write past the end covers the rest
    assert _unwritten([], 96) == [(0, 96)]
    assert _unwritten([_write(0, 64), _write(32, 16)], 64) == []  # nested writes


def test_overlaps_are_found_between_any_two_cores_not_within_one(monkeypatch: object) -> None:
    import passes.verify.coverage as coverage

    monkeypatch.setattr(coverage, "_copies_to_gm", lambda op: True)  # type: ignore[attr-defined]
    own = [CoreRun(0, [_write(0, 64), _write(32, 64)]), CoreRun(1, [_write(96, 64)])]
    assert _overlaps_between_cores(own) == []  # core 0 rewriting its own bytes is not an overlap
    far = [CoreRun(0, [_write(0, 64)]), CoreRun(1, [_write(64, 64)]), CoreRun(2, [_write(128, 64)]),
           CoreRun(3, [_write(32, 16)])]
    (found,) = _overlaps_between_cores(far)
    assert (found[0], found[2]) == (3, 0) and found[1].offset == 32
    # the farthest-reaching write is the same core's: the other core's shorter one still counts
    shadowed = [CoreRun(0, [_write(0, 32)]), CoreRun(1, [_write(16, 200)]), CoreRun(1, [_write(20, 4)])]
    shadowed[2].block_idx = 1
    assert [(a, b) for a, _, b, _ in _overlaps_between_cores(shadowed)] == [(1, 0), (1, 0)]
    other_arg = [CoreRun(0, [_write(0, 64, arg=1)]), CoreRun(1, [_write(0, 64, arg=2)])]
    assert _overlaps_between_cores(other_arg) == []
