"""A kernel's fallback for a DTYPE macro (`#ifndef DTYPE_ZERO / #define DTYPE_ZERO int32_t / #endif`) never
applies to an op's input: the build defines DTYPE_<NAME> for every input and output of the op.

NPUKernelBench AddRmsNormQuant keeps such a fallback for its zero points (int32 or bf16): preprocessed without
DTYPE_ZERO_POINTS1 defined, the kernel was instantiated with int32_t whatever the launch's dtypes, and read a bf16
tensor of 64 elements as 64 int32 ones (past its end, ASC962).
"""

from __future__ import annotations

from pathlib import Path

from ascendir.lower import dtype_bindings
from ascendir.lower.astwalk import walk
from frontend import ast as A
from frontend.readers import read_input
from passes.verify import load_for_check

OPDEF = """
#include "register/op_def_registry.h"
namespace ops {
class ShiftCustom : public OpDef {
public:
    explicit ShiftCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
        this->Input("zero").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_BF16});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ShiftCustom);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
#ifndef DTYPE_ZERO
#define DTYPE_ZERO int32_t
#endif
template <typename T, typename TZero>
class KernelShift {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR zero, GM_ADDR y) {
        xGm.SetGlobalBuffer((__gm__ T*)x, 64);
        zeroGm.SetGlobalBuffer((__gm__ TZero*)zero, 64);
    }
    GlobalTensor<T> xGm;
    GlobalTensor<TZero> zeroGm;
};
extern "C" __global__ __aicore__ void shift_custom(GM_ADDR x, GM_ADDR zero, GM_ADDR y, GM_ADDR tiling) {
    KernelShift<DTYPE_X, DTYPE_ZERO> op;
    op.Init(x, zero, y);
}
"""


def _template_args(program: object) -> list[str]:
    for unit in program.units:  # type: ignore[attr-defined]
        for node in walk(unit.ast):
            if isinstance(node, A.NamePart) and node.name == "KernelShift" and node.template_args:
                return [a.value.base.parts[-1].name for a in node.template_args]  # type: ignore[union-attr]
    raise AssertionError("no KernelShift<...> in the kernel")


def test_the_kernels_fallback_does_not_replace_the_builds_dtype_macro(tmp_path: Path) -> None:
    (tmp_path / "shift" / "op_kernel").mkdir(parents=True)
    (tmp_path / "shift" / "op_kernel" / "shift_custom.cpp").write_text(KERNEL)
    (tmp_path / "shift" / "op_host").mkdir()
    (tmp_path / "shift" / "op_host" / "shift_custom_def.cpp").write_text(OPDEF)
    program, _ = load_for_check(read_input(str(tmp_path / "shift")))
    assert _template_args(program) == ["DTYPE_X", "DTYPE_ZERO"]
    # bound per launch: bf16 zero points with bf16 data
    assert dtype_bindings(program, ["bfloat16", "bfloat16"])["DTYPE_ZERO"] == "bfloat16_t"
    assert dtype_bindings(program, ["float16", "int32"])["DTYPE_ZERO"] == "int32_t"


def test_a_kernel_without_an_op_keeps_its_fallback(tmp_path: Path) -> None:
    kernel = tmp_path / "shift_custom.cpp"
    kernel.write_text(KERNEL)
    program, _ = load_for_check(read_input(str(kernel)))
    assert _template_args(program) == ["DTYPE_X", "int32_t"]
