"""DTYPE_<NAME> macros that no op json binds: the lowering takes float for them, and a finding must also hold
for a 16-bit type to be reported (a class for 16-bit types behind a tiling key the host picks for them), and
for int32_t (an index input)."""

from __future__ import annotations

from frontend.pipeline import load_text
from passes.verify import check_program

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = TILE_ELEMENTS;

template <typename T>
class KernelB16 {
public:
    __aicore__ inline void Init(GM_ADDR x)
    {
        xGm.SetGlobalBuffer((__gm__ T*)x);
        pipe.InitBuffer(inQueue, 2, TILE * sizeof(T));
        pipe.InitBuffer(outQueue, 2, TILE * sizeof(T));
        pipe.InitBuffer(calc, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> x = inQueue.AllocTensor<T>();
        DataCopy(x, xGm, TILE);
        inQueue.EnQue(x);
        x = inQueue.DeQue<T>();
        LocalTensor<T> y = outQueue.AllocTensor<T>();
        Adds(y, x, (T)1, TILE);
        outQueue.EnQue(y);
        inQueue.FreeTensor(x);
        y = outQueue.DeQue<T>();
        DataCopy(xGm, y, TILE);
        outQueue.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> calc;
    GlobalTensor<T> xGm;
};

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelB16<DTYPE_X> op;
    op.Init(x);
    op.Process();
}
"""


def capacity(tile: int) -> list[str]:
    program = load_text(KERNEL.replace("TILE_ELEMENTS", str(tile)), "add_one.cpp")
    return [d.message for d in check_program(program) if d.code == "ASC301"]


def test_an_overflow_only_a_float_dtype_causes_is_not_reported() -> None:
    # 4 x 16384 x 4 + 65536 = 320 KiB with float, 4 x 16384 x 2 + 65536 = 192 KiB with half: fits
    assert capacity(16384) == []


def test_an_overflow_for_16_bit_types_too_is_reported_with_their_numbers() -> None:
    # 4 x 20480 x 2 + 81920 = 240 KiB even with half
    assert capacity(20480) == ["UB buffers need 245760 bytes; the 910B2 UB holds 196608"]


FREE_BY_SIZE = """\
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelNorm {
public:
    __aicore__ inline void Init(GM_ADDR gamma)
    {
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma);
        pipe.InitBuffer(inQueueGamma, 1, 256 * sizeof(T));
        pipe.InitBuffer(gammaBuf32, 256 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> gammaIn = inQueueGamma.AllocTensor<T>();
        DataCopy(gammaIn, gammaGm, 256);
        inQueueGamma.EnQue(gammaIn);
        gammaIn = inQueueGamma.DeQue<T>();
        LocalTensor<float> gamma32 = gammaBuf32.Get<float>();
        Cast(gamma32, gammaIn, RoundMode::CAST_NONE, 256);
        inQueueGamma.FreeTensor(gammaIn);
        Adds(gamma32, gamma32, 1.0f, 256);
        if (sizeof(T) == sizeof(float)) {
            inQueueGamma.FreeTensor(gamma32);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueGamma;
    TBuf<TPosition::VECCALC> gammaBuf32;
    GlobalTensor<T> gammaGm;
};

extern "C" __global__ __aicore__ void norm(GM_ADDR gamma, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelNorm<DTYPE_GAMMA> op;
    op.Init(gamma);
    op.Process();
}
"""


def test_a_finding_on_code_for_float_only_is_not_reported_when_float_is_a_guess() -> None:
    # ops-nn group_norm_silu_quant_b16: the branch for a 32-bit T frees a TBuf tensor; its class only ever
    # gets 16-bit types, and nothing here says DTYPE_GAMMA is float
    program = load_text(FREE_BY_SIZE, "norm.cpp")
    assert [d.code for d in check_program(program) if d.is_error] == []


def test_a_finding_in_a_branch_written_for_float_is_reported() -> None:
    # `if constexpr (std::is_same_v<T, float>)` says float is one of the kernel's types: no other guess reaches
    # that code, so what the float run finds there stands (cann-ops less: a Cast half -> half in ComputeFp)
    kernel = FREE_BY_SIZE.replace("if (sizeof(T) == sizeof(float))", "if constexpr (std::is_same_v<T, float>)")
    assert [d.code for d in check_program(load_text(kernel, "norm.cpp")) if d.is_error] == ["ASC205"]


def test_a_finding_that_holds_for_both_types_is_reported() -> None:
    program = load_text(FREE_BY_SIZE.replace("if (sizeof(T) == sizeof(float))", "if (true)"), "norm.cpp")
    assert [d.code for d in check_program(program) if d.is_error] == ["ASC205"]


def test_a_finding_that_an_integer_dtype_does_not_have_is_not_reported() -> None:
    # cann-ops gather_v3: DTYPE_INDICES is an int32/int64 input; its Adds with an int32_t scalar is a deduction
    # failure (ASC503) for float and for half, the two guesses, and correct code for the op's real dtype
    kernel = KERNEL.replace("TILE_ELEMENTS", "256").replace("(T)1", "(int32_t)1").replace("DTYPE_X", "DTYPE_INDICES")
    assert [d.code for d in check_program(load_text(kernel, "gather.cpp")) if d.is_error] == []
    # what the dtype does not change is still reported
    kernel = kernel.replace("inQueue.FreeTensor(x);", "inQueue.FreeTensor(x);\n        inQueue.FreeTensor(x);")
    assert [d.code for d in check_program(load_text(kernel, "gather.cpp")) if d.is_error] == ["ASC205"]


def test_a_kernel_wrong_for_every_guess_at_different_places_is_reported() -> None:
    # a staging tensor declared half where it should be float: as half the Cast half -> half does not exist, as
    # float (and int32_t) the DataCopy of the GM tensor into the half tensor has no overload
    kernel = FREE_BY_SIZE.replace("""        if (sizeof(T) == sizeof(float)) {
            inQueueGamma.FreeTensor(gamma32);
        }
""", "").replace("LocalTensor<T> gammaIn = inQueueGamma.AllocTensor<T>();",
                 "LocalTensor<T> gammaIn = inQueueGamma.AllocTensor<T>();\n"
                 "        LocalTensor<half> staging = gammaBuf32.Get<half>();\n"
                 "        if constexpr (std::is_same<T, half>::value) {\n"
                 "            Cast(staging, gammaIn, RoundMode::CAST_NONE, 256);\n"
                 "        } else {\n"
                 "            DataCopy(staging, gammaGm, 256);\n"
                 "        }")
    found = [d for d in check_program(load_text(kernel, "norm.cpp")) if d.is_error]
    assert [(d.code, d.span.line) for d in found] == [("ASC101", 20)]
    assert found[0].notes[-1].message == (
        "DTYPE_GAMMA is bound by no op json and checked as float here; as half the kernel fails at line 18 "
        "[ASC504] and as int32_t at line 20 [ASC101]: it builds for none of them")


def test_notes_about_the_check_alone_do_not_run_the_guesses_again(monkeypatch) -> None:
    """An include out of reach (ASC002) and code not modelled (ASC103) say nothing of the kernel's types: the
    half and int32_t runs would only lower and check a large vendor kernel again."""
    import ascendir.lower as lowering

    runs: list[dict[str, str]] = []
    lower = lowering.lower_program

    def counting(program, options=None):  # noqa: ANN001, ANN202
        runs.append(dict(options.dtypes) if options is not None else {})
        return lower(program, options)

    monkeypatch.setattr(lowering, "lower_program", counting)
    # goto is code the lowering does not model (a lambda was, until lambdas were modelled in session 11)
    text = KERNEL.replace("TILE_ELEMENTS", "256").replace(
        "using namespace AscendC;", 'using namespace AscendC;\n#include "project_helpers.h"').replace(
        "        outQueue.FreeTensor(y);", "        outQueue.FreeTensor(y);\n        goto done;\n        done: ;")
    found = check_program(load_text(text, "add_one.cpp"))
    assert sorted({d.code for d in found}) == ["ASC002", "ASC103"]
    assert runs == [{}]
