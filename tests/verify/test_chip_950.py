"""Kernels for the Ascend 950 (arch 3510): the chip is picked from the source's folder (ops-nn's arch35), its
architecture macros are defined, and what the API catalog cannot judge on 3510 is not reported."""

from __future__ import annotations

from pathlib import Path

from frontend import ast as A
from frontend.pipeline import read_text
from frontend.readers import read_input
from passes.verify import check_program, load_for_check

# A register-based (RegBase) vector section for the 950, the membase form elsewhere.
KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TILE = 256;

class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t count)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x, count);
        yGm.SetGlobalBuffer((__gm__ float*)y, count);
        pipe.InitBuffer(inQueue, 2, TILE * sizeof(float));
        pipe.InitBuffer(outQueue, 2, TILE * sizeof(float));
        scale = 1.0f / static_cast<float>(count);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm, TILE);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
#if __NPU_ARCH__ == 3510
        __ubuf__ float* src = (__ubuf__ float*)xLocal.GetPhyAddr();
        __ubuf__ float* dst = (__ubuf__ float*)yLocal.GetPhyAddr();
        __VEC_SCOPE__
        {
            RegTensor<float> r;
            uint32_t width = TILE;
            MaskReg mask = UpdateMask<float>(width);
            DataCopy(r, src, mask);
            Muls(r, r, scale, mask);
            DataCopy(dst, r, mask);
        }
#else
        Muls(yLocal, xLocal, scale, TILE);
#endif
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm, yLocal, TILE);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    float scale;
};

extern "C" __global__ __aicore__ void scale_regbase(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScale op;
    op.Init(x, y, TILE);
    op.Process();
}
"""


def errors(diags: list) -> list[tuple[str, int]]:
    return [(d.code, d.span.line) for d in diags if d.is_error]


def test_arch35_sources_are_checked_as_950_code() -> None:
    program, chip = load_for_check(read_text(KERNEL, "ops/scale/op_kernel/arch35/scale_regbase.cpp"))
    assert chip == "950PR"
    calls = {n.callee_name for u in program.units for n in u.ast.walk() if isinstance(n, A.Call)}
    assert "UpdateMask" in calls and "Muls" in calls  # the `#if __NPU_ARCH__ == 3510` branch is the live one
    assert errors(check_program(program, chip)) == []


def test_the_same_code_checked_for_a_catalogued_chip_is_judged_by_its_catalog() -> None:
    # --chip given: no folder decides, and the 2201 catalog has no register forms of DataCopy
    program, chip = load_for_check(read_text(KERNEL, "ops/scale/op_kernel/arch35/scale_regbase.cpp"), "910B2",
                                   {"__NPU_ARCH__": "3510"})
    assert chip == "910B2"
    found = errors(check_program(program, chip))
    assert ("ASC101", 31) in found and ("ASC105", 28) in found
    # the chip's own macros: a 910B2 check takes the membase branch
    program, chip = load_for_check(read_text(KERNEL, "scale.cpp"))
    assert chip == "910B2" and errors(check_program(program, chip)) == []


def test_rules_of_catalogued_architectures_only_do_not_run_on_the_950() -> None:
    # float <-> unsigned casts (ASC507): rejected by the 2201 compiler, written by the 950's own examples
    corpus = Path(__file__).parent.parent / "corpus" / "rules" / "api" / "float_unsigned_cast.cpp"
    program, chip = load_for_check(read_input(str(corpus)))
    assert "ASC507" in {code for code, _ in errors(check_program(program, chip))}
    program, chip = load_for_check(read_input(str(corpus)), "950PR")
    assert "ASC507" not in {code for code, _ in errors(check_program(program, chip))}


def test_a_project_with_910b_and_950_kernels_checks_each_for_its_own_chip(tmp_path: Path) -> None:
    # ops-nn layout: scale.cpp for 910B, scale_apt.cpp including the 950 implementation from arch35/
    kernel_dir = tmp_path / "scale" / "op_kernel"
    (kernel_dir / "arch35").mkdir(parents=True)
    (tmp_path / "scale" / "op_host").mkdir()
    (kernel_dir / "scale.cpp").write_text(KERNEL.replace("scale_regbase", "scale"))
    # (the vendors name the 950 classes apart: one program holds both implementations); the 950 code also
    # casts float to uint32_t, which the 950's compiler takes (ASC507 runs on catalogued architectures only)
    impl = KERNEL.split("extern \"C\"")[0].replace("KernelScale", "KernelScaleRegbase").replace(
        "        __VEC_SCOPE__\n",
        "        uint32_t first = static_cast<uint32_t>(xGm.GetValue(0));\n        __VEC_SCOPE__\n")
    assert "static_cast<uint32_t>" in impl
    (kernel_dir / "arch35" / "scale_impl.h").write_text(impl)
    (kernel_dir / "scale_apt.cpp").write_text(
        '#include "arch35/scale_impl.h"\n'
        'extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n'
        "{\n    KernelScaleRegbase op;\n    op.Init(x, y, TILE);\n    op.Process();\n}\n")
    program, chip = load_for_check(read_input(str(tmp_path / "scale")))
    assert chip == "910B2"
    assert {Path(u.unit.path).name: u.target for u in program.units} == {
        "scale.cpp": None, "scale_apt.cpp": "950PR", "scale_impl.h": "950PR"}
    assert errors(check_program(program, chip)) == []
    # checked for one chip, the 950 kernel's register code has no catalogued overloads
    program, chip = load_for_check(read_input(str(tmp_path / "scale")), "910B2", {"__NPU_ARCH__": "3510"})
    assert {"ASC101", "ASC507"} <= {code for code, _ in errors(check_program(program, chip))}


def test_the_950s_scalar_apis_take_a_scalar_of_another_type() -> None:
    # 3510 adds Adds/Muls/Maxs/... overloads generic in the scalar's type: an int64_t scale on int32_t tensors
    # compiles there, and is a deduction failure (ASC503) on the 2201's `const T&` forms
    membase = KERNEL[: KERNEL.index("#if __NPU_ARCH__")] + KERNEL[KERNEL.index("#else") + 6 :].replace("#endif\n", "")
    kernel = membase.replace("float", "int32_t").replace("1.0f / static_cast<int32_t>(count)", "count").replace(
        "Muls(yLocal, xLocal, scale, TILE);", "Muls(yLocal, xLocal, (int64_t)scale, TILE);")
    assert "(int64_t)scale" in kernel and "#" not in kernel.split("\n", 1)[1]
    program, chip = load_for_check(read_text(kernel, "ops/scale/op_kernel/scale.cpp"), "950PR")
    assert errors(check_program(program, chip)) == []
    program, chip = load_for_check(read_text(kernel, "ops/scale/op_kernel/scale.cpp"))
    assert chip == "910B2" and errors(check_program(program, chip)) == [("ASC503", 23)]


def _queue_kernel(vecin: list[int], vecout: list[int]) -> str:
    """A kernel that only sets up queues: one VECIN queue per entry of `vecin` (its buffer count), the same
    for VECOUT."""
    queues = [(f"in{i}", "VECIN", n) for i, n in enumerate(vecin)] + [
        (f"out{i}", "VECOUT", n) for i, n in enumerate(vecout)]
    decls = "".join(f"    TQue<TPosition::{pos}, 1> {name};\n" for name, pos, _ in queues)
    inits = "".join(f"    pipe.InitBuffer({name}, {n}, 1024);\n" for name, _, n in queues)
    return ('#include "kernel_operator.h"\nusing namespace AscendC;\n\n'
            'extern "C" __global__ __aicore__ void queues(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)\n{\n'
            f"    TPipe pipe;\n{decls}{inits}}}\n")


def _codes(source: str, chip: str | None) -> list[tuple[str, int, str]]:
    program, chip = load_for_check(read_text(source, "queues.cpp"), chip)
    return [(d.code, d.span.line, d.message) for d in check_program(program, chip) if d.is_error]


def test_the_950_counts_vector_queue_buffers_against_one_pool_of_buffer_ids() -> None:
    # nine VECIN buffers: over the 8 event ids of a 910B2 position, within the 950's 28 buffer ids
    nine_inputs = _queue_kernel([1] * 9, [2])
    assert [code for code, _, _ in _codes(nine_inputs, "910B2")] == ["ASC208"]
    assert _codes(nine_inputs, "950PR") == []
    # 16 VECIN + 14 VECOUT buffers: each position within 16, together over 28
    over = _queue_kernel([8, 8], [7, 7])
    found = _codes(over, "950PR")
    assert [(code, line) for code, line, _ in found] == [("ASC208", over.splitlines().index(
        "    pipe.InitBuffer(out1, 7, 1024);") + 1)]
    assert "30 TQue buffers on the vector core; the 950PR gives each a buffer id at InitBuffer and has 28" \
        in found[0][2]
    # the 910B2 reports each position over 8 (VECIN at in1's InitBuffer, VECOUT at out1's)
    assert [code for code, _, _ in _codes(over, "910B2")] == ["ASC208", "ASC208"]


def test_apis_the_catalog_gives_to_other_architectures_are_not_judged_on_the_950() -> None:
    # ASC516 reads the catalog's `archs` lists, which describe 2201/2002/1001 only: DataCopyPad (catalogued for
    # 2201 and 3002) is the 950's too (ops-math fused_mul_add_n's arch35 kernel copies out with it)
    kernel = KERNEL.replace("DataCopy(yGm, yLocal, TILE);",
                            "DataCopyPad(yGm, yLocal, DataCopyExtParams(1, TILE * sizeof(float), 0, 0, 0));")
    assert "DataCopyPad(" in kernel
    program, chip = load_for_check(read_text(kernel, "ops/scale/op_kernel/arch35/scale_regbase.cpp"))
    assert chip == "950PR"
    assert "ASC516" not in {code for code, _ in errors(check_program(program, chip))}
    # on a catalogued architecture the rule still runs: the region-proposal sort on 910B
    corpus = Path(__file__).parent.parent / "corpus" / "rules" / "api" / "api_not_on_chip.cpp"
    program, chip = load_for_check(read_input(str(corpus)))
    assert "ASC516" in {code for code, _ in errors(check_program(program, chip))}
