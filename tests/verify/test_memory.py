"""A long-lived process (the benchmark, the training loop's evaluator) checks thousands of programs: the rules'
per-run tables must not keep the IR of the modules checked before alive."""

import gc
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from frontend.pipeline import load
from passes.verify import check_program

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "kernels" / "tpipe"


def _live_modules() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, ModuleOp))


def test_checked_modules_are_not_kept_alive() -> None:
    # kernels that use SetFlag/WaitFlag: the sync rules remember each flag op's (event, id)
    paths = sorted(p for p in CORPUS.glob("*.cpp") if "SetFlag" in p.read_text(encoding="utf-8"))
    assert len(paths) >= 3, "the corpus has kernels with SetFlag/WaitFlag"
    for path in paths:  # warm: per-module caches hold their last one or two modules
        check_program(load(str(path)))
    before = _live_modules()
    for _ in range(3):
        for path in paths:
            check_program(load(str(path)))
    assert _live_modules() <= before
