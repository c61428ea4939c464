"""Helpers of the lowering tests (test_lowering*.py): lowering a source, its ops, the clean corpus lowered once."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ascendir.lower import LoweringOptions, LoweringResult, lower_program
from frontend.pipeline import load_bundle, load_text
from frontend.readers import collect_inputs


ROOT = Path(__file__).resolve().parents[2]
CLEAN = ROOT / "tests" / "corpus" / "clean"


@lru_cache(maxsize=1)
def corpus() -> list[tuple[str, LoweringResult]]:
    out = []
    for bundle in collect_inputs([str(CLEAN)], "auto"):
        program = load_bundle(bundle)
        out.append((bundle.input, lower_program(program)))
    return out


def lower(text: str, name: str = "k.cpp", **options: object) -> LoweringResult:
    result = lower_program(load_text(text, name), LoweringOptions(**options))  # type: ignore[arg-type]
    result.module.verify()
    return result


def ops_of(result: LoweringResult, cls: type) -> list:
    return [op for op in result.module.walk() if isinstance(op, cls)]


HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def corpus_result(suffix: str) -> LoweringResult:
    for path, r in corpus():
        if path.replace("\\", "/").endswith(suffix):
            return r
    raise KeyError(suffix)


def check_errors(text: str, name: str = "k.cpp") -> list[tuple[str, str]]:
    from passes.verify import check_program

    return [(d.code, d.message) for d in check_program(load_text(text, name)) if d.is_error]
