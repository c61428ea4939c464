"""A bundle read again with other macros (a launch's ORIG_DTYPE_<NAME> codes, passes/sim/launch.py) parses only the
sources whose preprocessed text changed: the others get the syntax tree of the first read (frontend/pipeline.py).
ops-nn mat_mul_v3's 107 sources took 48 s to parse the second time before, 10 s (preprocessing) after."""

from __future__ import annotations

from frontend import pipeline
from frontend.pipeline import load_bundle
from frontend.readers import Bundle, SourceUnit

KERNEL = """#if ORIG_DTYPE_X == 1
using T = half;
#else
using T = float;
#endif
T g;
"""
HOST = "static int Helper(int a) { return a + 1; }\n"


def _bundle() -> Bundle:
    return Bundle("p", "project", units=[SourceUnit("p/op_kernel/k.cpp", KERNEL, "kernel", "p/op_kernel/k.cpp"),
                                         SourceUnit("p/op_host/h.cpp", HOST, "host", "p/op_host/h.cpp")])


def test_sources_whose_text_is_unchanged_are_not_parsed_again(monkeypatch) -> None:
    monkeypatch.setenv("ASCENDIR_PARSE_CACHE_MB", "0")  # this process's reuse only (the disk's: test_parse_cache.py)
    bundle = _bundle()
    first = load_bundle(bundle, {"ORIG_DTYPE_X": "0"})
    parses: list[str] = []
    real = pipeline.get_parser

    class Counting:
        def parse(self, text, name, origin=None):  # type: ignore[no-untyped-def]
            parses.append(name)
            return real().parse(text, name, origin)

    monkeypatch.setattr(pipeline, "get_parser", lambda: Counting())
    second = load_bundle(bundle, {"ORIG_DTYPE_X": "1"})
    assert parses == ["p/op_kernel/k.cpp"]  # the host source preprocesses to the same text
    assert second.units[1].ast is first.units[1].ast
    assert second.units[0].ast is not first.units[0].ast
    assert "half" in second.units[0].preprocessed.text and "float" in first.units[0].preprocessed.text  # type: ignore
    third = load_bundle(bundle, {"ORIG_DTYPE_X": "0"})
    assert parses == ["p/op_kernel/k.cpp"] and third.units[0].ast is first.units[0].ast


def test_another_bundle_of_the_same_text_parses_its_own(monkeypatch) -> None:
    first = load_bundle(_bundle())
    second = load_bundle(_bundle())
    assert all(a.ast is not b.ast for a, b in zip(first.units, second.units))
    assert [u.unit.path for u in second.units] == ["p/op_kernel/k.cpp", "p/op_host/h.cpp"]
