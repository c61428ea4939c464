"""The IR lowered from every input of tests/corpus verifies, for every chip and dtype guess it is checked with.

Each input is lowered as `ascendc-check` lowers it: preprocessed for the chip it picks (`load_for_check`:
910B2, or 950PR for arch35 code), with the float guess for DTYPE_<NAME> macros no op json binds and again with
half when there are such macros, and with the tiling values folded in when the file's header gives shapes.
It is lowered once more for the 310P, the other architecture the tests check code on, whose `__NPU_ARCH__` 2002
takes other `#if` branches and whose catalog offers other overloads. A failure lists every op that does not
verify, with its source location and the verifier's message.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ascendir.lower import LoweringOptions, guessed_dtypes, lower_program, unbound_dtype_macros
from ascendir.verify import verify_ir
from frontend.readers import Bundle, collect_inputs
from passes.verify import load_for_check, run_tiling

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
INPUTS: dict[str, Bundle] = {
    Path(b.input).resolve().relative_to(CORPUS).as_posix(): b
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir())
    for b in collect_inputs([str(folder)], "auto")
}
# chips of other architectures than the default's, each input lowered for them too
OTHER_CHIPS = ("310P",)
_ARGS_RE = re.compile(r"^\s*(?://|#)\s*ascendc-check-args:\s*(?P<args>.+)$", re.MULTILINE)


def _shapes(path: Path, program: object, chip: str) -> object | None:
    """The TilingInputs of the `ascendc-check-args: --shape ...` header of a corpus file, if it has one."""
    from cli.shapes import parse_attr_value, parse_tensor_spec
    from passes.verify.concrete_inputs import ConcreteInputs

    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:5]) if path.is_file() else ""
    found = _ARGS_RE.search(head)
    if found is None:
        return None
    words = shlex.split(found.group("args"))
    shapes = [words[i + 1] for i, w in enumerate(words) if w == "--shape"]
    attrs = [words[i + 1] for i, w in enumerate(words) if w == "--attr"]
    return ConcreteInputs([parse_tensor_spec(t) for t in shapes],
                          [parse_attr_value(t) for t in attrs]).for_program(program, chip)


def _failures(bundle: Bundle, chip: str | None) -> list[str]:
    program, target = load_for_check(bundle, chip)
    guesses = [guessed_dtypes(program.bundle, "float")]
    unbound = unbound_dtype_macros(program)
    if unbound:
        guesses.append({**dict.fromkeys(unbound, "half"), **guessed_dtypes(program.bundle, "half")})
    shapes = _shapes(Path(bundle.input), program, target) if chip is None else None
    found = []
    for dtypes in guesses:
        module = lower_program(program, LoweringOptions(chip=target, dtypes=dtypes)).module
        if shapes is not None:
            run_tiling(program, module, shapes, target)  # type: ignore[arg-type]
        found += [f"[{target}, {dtypes or 'op json dtypes'}] {f}" for f in verify_ir(module)]
    return found


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_lowered_ir_verifies(name: str) -> None:
    bundle = INPUTS[name]
    found = _failures(bundle, None)
    for chip in OTHER_CHIPS:
        found += _failures(bundle, chip)
    assert not found, "\n".join(found)


def test_the_corpus_is_all_here() -> None:
    assert {name.split("/", 1)[0] for name in INPUTS} >= {"clean", "rules", "syntax_errors"}
    assert any(name.startswith("clean/projects/") for name in INPUTS)
    assert any(name.startswith("clean/answers/") for name in INPUTS)


LOOPS = """#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void loops(GM_ADDR x, GM_ADDR y, int64_t m, uint16_t last) {
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(&((__gm__ float*)y)[16]), 8);
    for (uint16_t i = 0; i <= last; i++) {
        xGm.SetValue(i, 1.0f);
    }
    for (int16_t j = 2; j < m; j += 2) {
        xGm.SetValue(j, 2.0f);
    }
    for (uint8_t k = 0; k < 200; k++) {
        xGm.SetValue(k, 3.0f);
    }
}
"""


def test_narrow_loop_counters_count_in_their_promoted_type() -> None:
    from xdsl.dialects import arith, scf

    from frontend.pipeline import load_text

    lowered = lower_program(load_text(LOOPS, "loops.cpp"))
    assert verify_ir(lowered.module) == []
    loops = [op for op in lowered.module.walk() if isinstance(op, scf.ForOp)]
    # `i <= last` and `j < m` compare as int (int64_t for m), so each loop counts in i32: a uint8_t counting to
    # 200 would stop at once in a signed i8 compare (200 is -56 there)
    assert [str(loop.lb.type) for loop in loops] == ["i32", "i32", "i32"]
    bounds = [loop.ub.owner for loop in loops]
    assert isinstance(bounds[0], arith.AddiOp)  # last + 1, in int
    assert isinstance(bounds[1], arith.TruncIOp) and str(bounds[1].input.type) == "i64"
    assert isinstance(bounds[2], arith.ConstantOp) and bounds[2].value.value.data == 200
    # the body sees the counter as the variable's own type, which is what i holds
    first = [op for op in loops[0].body.block.ops]
    assert isinstance(first[0], arith.TruncIOp) and str(first[0].result.type) == "i16"


def test_the_address_of_a_gm_element_is_a_gm_pointer() -> None:
    from ascendir.dialects import ascendc as asc
    from frontend.pipeline import load_text

    lowered = lower_program(load_text(LOOPS, "loops.cpp"))
    offsets = [op for op in lowered.module.walk() if isinstance(op, asc.GmPtrOffsetOp)]
    assert len(offsets) == 1
    assert not [op for op in lowered.module.walk() if isinstance(op, asc.GmLoadOp)]  # no read of the element
    set_buffers = [op for op in lowered.module.walk() if op.name == "ascendc.set_global_buffer"]
    assert str(set_buffers[1].operands[1].type) == "!ascendc.gm_ptr<si32>"


def test_two_entries_of_one_name_get_distinct_symbols() -> None:
    from frontend.pipeline import load_text

    text = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
__global__ __aicore__ void twice(GM_ADDR x) {
    GlobalTensor<T> xGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, 64);
}
template <>
__global__ __aicore__ void twice<float>(GM_ADDR x) {
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
}
"""
    lowered = lower_program(load_text(text, "twice.cpp"))
    assert [(k.sym_name.data, k.source_name) for k in lowered.kernels] == [("twice", "twice"), ("twice_2", "twice")]
    assert verify_ir(lowered.module) == []


def test_an_infinite_constant_converted_to_an_integer_is_unknown_not_a_crash() -> None:
    from ascendir.dialects import ascendc as asc
    from frontend.pipeline import load_text

    text = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
__aicore__ inline void Fill(GlobalTensor<T>& g) { g.SetValue(0, (T)(1.0f / 0.0f)); }
extern "C" __global__ __aicore__ void fill(GM_ADDR x) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)x, 8);
    Fill<int32_t>(g);
}
"""
    lowered = lower_program(load_text(text, "fill.cpp"))
    assert [d.message for d in lowered.diagnostics] == []
    assert verify_ir(lowered.module) == []
    assert any(isinstance(op, asc.UndefOp) for op in lowered.module.walk())
