"""An error the device build compiles, in code only one tiling key runs, does not stop an answer from compiling:
it fails the runs whose host sets that key (passes/verify/key_guard.py, bench/harness/stages/compile.py).
NPUKernelBench Muls (correct on hardware) casts int64 -> float with CAST_NONE under TILING_KEY_IS(5), a key none
of its cases uses; ASC504 failed it at compile.
"""

from __future__ import annotations

from bench.harness.stages.correctness import Run, check_case
from bench.harness.verdict import CaseResult, Finding
from passes.verify import check_program
from passes.verify.key_guard import keyed_build_accepted
from frontend.pipeline import load_text

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Convert(TBuf<TPosition::VECCALC> &buf)
{
    LocalTensor<float> f = buf.Get<float>();
    Cast(f, buf.Get<T>(), RoundMode::CAST_NONE, 64);
}

extern "C" __global__ __aicore__ void convert(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    if (TILING_KEY_IS(1)) {
        Convert<half>(buf);
    } else if (TILING_KEY_IS(2)) {
        Convert<int64_t>(buf);
    }%s
}
"""


def _asc504(extra: str = ""):
    found = [d for d in check_program(load_text(KERNEL % extra, "convert.cpp")) if d.code == "ASC504"]
    assert len(found) == 1, [str(d) for d in found]
    return found[0]


def test_the_error_names_its_key_and_that_the_build_accepts_it() -> None:
    d = _asc504()
    assert d.is_error and "int64_t to float" in d.message
    assert any("TILING_KEY_IS(2)" in n.message for n in d.notes)
    assert keyed_build_accepted(d) == 2


def test_code_reached_outside_the_key_branches_is_not_confined_to_a_key() -> None:
    d = _asc504("\n    Convert<int64_t>(buf);")
    assert not any("TILING_KEY_IS" in n.message for n in d.notes)
    assert keyed_build_accepted(d) is None


class _Task:
    outputs = ()

    def uncompared(self, case: object, inputs: object) -> tuple[str, ...]:
        return ()

    def compare(self, case: object, expected: object, outputs: object) -> dict[str, object]:
        return {}


class _Draw:
    def __init__(self, seed: int) -> None:
        self.seed = seed


def test_a_run_with_the_key_fails_and_one_without_it_passes(monkeypatch) -> None:
    import bench.harness.stages.correctness as correctness

    finding = Finding("ASC504", "error", "Cast from int64_t to float does not take RoundMode::CAST_NONE", "k.cpp", 9)
    for key, status in ((2, "error"), (1, "pass")):
        monkeypatch.setattr(correctness, "simulate", lambda *a, key=key, **k: Run({}, [], True, tiling_key=key))
        result = CaseResult("0", "static")
        check_case(_Task(), None, None, "910_93", [(_Draw(0), {}), (_Draw(1), {})], lambda i: [], None, result,
                   keyed=[(finding, 2)])
        assert result.status == status, result.reason
        assert (status == "error") == ("RoundMode::CAST_NONE" in result.reason)
