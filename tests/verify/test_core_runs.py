"""The all-core GM write analysis behind ASC606 and ASC607: which bytes no core writes, which two cores
write the same bytes."""

from __future__ import annotations

from passes.verify.coverage_overlap import _overlaps_between_cores
from passes.verify.coverage_unwritten import _unwritten
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
    import passes.verify.coverage_overlap as coverage_overlap

    monkeypatch.setattr(coverage_overlap, "copies_to_gm", lambda op: True)  # type: ignore[attr-defined]
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


def test_an_output_the_binding_allocates_otherwise_is_not_judged(tmp_path: object) -> None:
    """The binding's at::empty_like(x) gives y x's shape; an output it allocates from a shape list is of
    unknown extent (InferShape's shape does not apply: it never runs on that path), so nothing is judged."""
    from pathlib import Path

    from click.testing import CliRunner

    from cli.check import main as check

    source = Path(__file__).parents[1] / "corpus" / "rules" / "tiling" / "output_tail_not_written.py"
    text = source.read_text()
    assert "at::Tensor result = at::empty_like(x);" in text
    listed = Path(str(tmp_path)) / "listed.py"
    listed.write_text(text.replace("at::empty_like(x)", "at::empty({10, 100}, x.options())"))
    reassigned = Path(str(tmp_path)) / "reassigned.py"
    reassigned.write_text(text.replace("at::Tensor result = at::empty_like(x);",
                                       "at::Tensor result = at::empty_like(x);\n    result = at::empty({1000}, x.options());"))
    like = CliRunner().invoke(check, ["--shape", "10,100:float32", str(source)])
    assert "[ASC607]" in like.output
    assert CliRunner().invoke(check, ["--shape", "10,100:float32", str(listed)]).exit_code == 0
    assert CliRunner().invoke(check, ["--shape", "10,100:float32", str(reassigned)]).exit_code == 0
