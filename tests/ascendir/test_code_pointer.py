"""Pointers holding the address of a user-class object or of a function, set at run time (code_pointer.py): the
type-erased callbacks of catlass (NPUKernelBench's GroupedMatmulSliceKPerTokenDequant: `caller(func)` with
`caller = &FuncWrapper<Func>`, and `Kernel *ptr = this` in the function objects). Before, the call was
'call of caller, which is a variable' (ASC103) and the simulator stopped at the kernel object stored as a value
('an object that is not one declared in the kernel')."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ascendir.lower import lower_program
from passes.sim import run
from frontend.pipeline import load, load_text

KERNEL = Path(__file__).resolve().parents[1] / "corpus" / "code_pointer" / "hook_preload.cpp"


def _diagnostics(source: str | Path) -> list[str]:
    program = load(str(source)) if isinstance(source, Path) else load_text(source, "k.cpp")
    result = lower_program(program)
    result.module.verify()
    return [f"{d.code} {d.span.line if d.span else ''}: {d.message}" for d in result.diagnostics]


def test_lowers_without_diagnostics() -> None:
    assert _diagnostics(KERNEL) == []


def test_each_iteration_runs_the_hook_the_previous_one_stored() -> None:
    # the hook is read at the top of the loop, before the store of this iteration: only a second lowering of
    # the loop, with the targets the first one found, dispatches over both function objects
    result = run(str(KERNEL), {"x": np.array([3.0], dtype=np.float32)}, block_dim=1,
                 outputs={"y": ((8,), "float32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [3.0, 4.0, 8.0, 9.0, 18.0, 19.0, 38.0, 39.0]


def test_a_hook_declared_in_the_loop_starts_empty_in_every_iteration() -> None:
    # its table is made inside the loop: what the previous iteration stored is not what this one reads, so the
    # loop is not lowered again (and no 'could not follow' is reported)
    kernel = KERNEL.with_name("hook_per_iteration.cpp")
    assert _diagnostics(kernel) == []
    result = run(str(kernel), {"x": np.array([3.0], dtype=np.float32)}, block_dim=1,
                 outputs={"y": ((4,), "float32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [3.0, 4.0, 5.0, 6.0]


def test_a_hook_on_a_stage_chosen_at_run_time_calls_that_stage() -> None:
    # `Bind(&stages[i % 2])`: the address of one of two objects (its number selected by the index); the call
    # through the hook, `ptr->acc`, `stage->id` and `stage->Id()` each dispatch on that number
    kernel = KERNEL.with_name("hook_stages.cpp")
    assert _diagnostics(kernel) == []
    result = run(str(kernel), {"x": np.array([3.0], dtype=np.float32)}, block_dim=1,
                 outputs={"y": ((8,), "float32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [4.0, 6.0, 7.0, 9.0, 0.0, 11.0, 0.0, 11.0]


def test_elements_chosen_at_run_time_are_brace_assigned_and_called() -> None:
    # three parts, each failing alone without its change: `{this, i}` into a class whose only constructor is
    # defaulted is aggregate initialisation (the arguments were dropped, ptr stayed null); `list[i] = ...` with i
    # known at run time copies into the element i selects (it went into a copy of the array, as a memref of
    # objects the simulator cannot run); `list[1]()` calls the element's operator()
    kernel = KERNEL.with_name("stage_list.cpp")
    assert _diagnostics(kernel) == []
    result = run(str(kernel), {"x": np.array([3.0], dtype=np.float32)}, block_dim=1,
                 outputs={"y": ((1,), "float32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [11.0]


SEVERAL_OBJECTS = """
#include "kernel_operator.h"
using namespace AscendC;

class Counter {
public:
    __aicore__ inline Counter(float v) : value(v) {}
    __aicore__ inline float Get() const { return value; }
    float value;
};

extern "C" __global__ __aicore__ void pick(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Counter a(1.0f);
    Counter b(2.0f);
    Counter *p = nullptr;
    if (GetBlockIdx() == 0) {
        p = &a;
    } else {
        p = &b;
    }
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 1);
    yGm.SetValue(0, p->value);
    Counter *q = p;
    q->value = 3.0f;
}
"""


def test_a_member_write_through_a_pointer_to_one_of_several_objects_is_reported() -> None:
    # the number tells which object at run time; a read selects among them, a write is lowered for one object
    # only: said, not guessed
    found = _diagnostics(SEVERAL_OBJECTS)
    assert [d for d in found if "may hold the address of any of 2 objects" in d] == [
        "ASC103 26: a pointer that may hold the address of any of 2 objects (this use of it is modelled for one); "
        "later checks of this function are incomplete"], found


CONVERSION = """
#include "kernel_operator.h"
using namespace AscendC;

class Armed {
public:
    __aicore__ inline explicit Armed(uint32_t n) : count(n) {}
    __aicore__ inline explicit operator bool() const { return count > 2; }
    uint32_t count;
};

extern "C" __global__ __aicore__ void armed(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<uint32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ uint32_t *)x, 1);
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y, 1);
    Armed armed(xGm.GetValue(0));
    if (armed) {
        yGm.SetValue(0, 7);
    } else {
        yGm.SetValue(0, 5);
    }
}
"""


def test_an_object_tested_as_a_condition_calls_its_operator_bool() -> None:
    # catlass's `if (params.callback)`: the parser names the conversion function "operatorbool"; the lookup of
    # "operator bool" never found it and the condition was an unknown value
    for x, expected in ((3, 7), (2, 5)):
        result = run(CONVERSION, {"x": np.array([x], dtype=np.uint32)}, block_dim=1,
                     outputs={"y": ((1,), "uint32")})
        assert result.ok and not result.findings, [str(f) for f in result.findings]
        assert result.outputs["y"].tolist() == [expected]
