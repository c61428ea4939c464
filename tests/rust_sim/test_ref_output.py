"""An op whose description names an output like an input (`Input("var")` and `Output("var")`, a ref
tensor) has one memory for both on the device, and its kernel gets two parameters holding one address: it may
write through either, and may write only part of the tensor (NPUKernelBench's Eye sets the diagonal of a
zeroed tensor through the output; ScatterList's reference writes `var` through the input). passes.sim.run
gives both parameters one GM buffer that starts as a copy of the caller's input (which stays as it was) and is
returned as the output."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct DiagTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    DiagTilingData *t = context->GetTilingData<DiagTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetDim(0);
    context->SetBlockDim(BLOCKS);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class Diag : public OpDef {
public:
    explicit Diag(const char *name) : OpDef(name)
    {
        this->Input("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Diag);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct DiagTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void diag(GM_ADDR var, GM_ADDR x, GM_ADDR var_ref, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(DiagTilingData, td, tiling);
    GlobalTensor<float> out;
    GlobalTensor<float> xs;
    xs.SetGlobalBuffer((__gm__ float *)x);
    BODY
}
"""


def _op(tmp_path: Path, body: str, blocks: int = 1) -> Path:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "diag.cpp").write_text(HOST.replace("BLOCKS", str(blocks)))
    (tmp_path / "op_kernel" / "diag.cpp").write_text(KERNEL.replace("BODY", body))
    return tmp_path


def _given() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    var = np.full((4, 4), 3.0, dtype=np.float32)
    x = np.arange(4, dtype=np.float32) + 10
    expected = var.copy()
    np.fill_diagonal(expected, x)
    return var, x, expected


def _zeros() -> np.ndarray:
    return np.zeros((4, 4), dtype=np.float32)  # the output's shape (the host has no InferShape)


def _writes_diagonal(param: str) -> str:
    return (f"out.SetGlobalBuffer((__gm__ float *){param});\n"
            "    for (uint32_t i = 0; i < td.n; i++) { out.SetValue(i * td.n + i, xs.GetValue(i)); }")


def test_a_kernel_writing_the_ref_through_its_output_parameter(tmp_path: Path) -> None:
    var, x, expected = _given()
    result = run(_op(tmp_path, _writes_diagonal("var_ref")), [var, x], outputs={"var": _zeros()})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["var"], expected)
    assert np.array_equal(var, np.full((4, 4), 3.0, dtype=np.float32))  # the caller's input is left alone


def test_a_kernel_writing_the_ref_through_its_input_parameter(tmp_path: Path) -> None:
    var, x, expected = _given()
    result = run(_op(tmp_path, _writes_diagonal("var")), [var, x], outputs={"var": _zeros()})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["var"], expected)
    assert np.array_equal(var, np.full((4, 4), 3.0, dtype=np.float32))


def test_the_two_parameters_are_one_buffer_for_the_checks(tmp_path: Path) -> None:
    # two cores write the same element, one through each parameter: one memory, so a cross-core write; a write
    # into the other input is still ASC963
    body = ("out.SetGlobalBuffer((__gm__ float *)(GetBlockIdx() == 0 ? var : var_ref));\n"
            "    out.SetValue(5, 1.0f);\n"
            "    if (GetBlockIdx() == 1) { xs.SetValue(0, 2.0f); }")
    var, x, _ = _given()
    result = run(_op(tmp_path, body, blocks=2), [var, x], outputs={"var": _zeros()})
    codes = {d.code for d in result.findings}
    assert {"ASC953", "ASC963"} <= codes and "ASC961" not in codes, [str(d) for d in result.findings]
    assert "'var'" in next(str(d) for d in result.findings if d.code == "ASC953")
    assert result.outputs["var"][1, 1] == 1.0 and result.outputs["var"][0, 0] == 3.0


LIST_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct DiagTilingData { uint32_t n; };
__aicore__ inline __gm__ float *TensorAt(GM_ADDR list, uint32_t i)
{
    __gm__ uint64_t *words = reinterpret_cast<__gm__ uint64_t *>(list);
    return reinterpret_cast<__gm__ float *>(*(words + (*words >> 3) + i));
}
extern "C" __global__ __aicore__ void diag(GM_ADDR var, GM_ADDR x, GM_ADDR var_ref, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(DiagTilingData, td, tiling);
    GlobalTensor<float> xs;
    xs.SetGlobalBuffer((__gm__ float *)x);
    for (uint32_t t = 0; t < 2; t++) {
        GlobalTensor<float> out;
        out.SetGlobalBuffer(TensorAt(PARAM, t));
        out.SetValue(t, xs.GetValue(t));
    }
}
"""


def test_a_tensor_list_ref_is_one_list_for_both_parameters(tmp_path: Path) -> None:
    # ScatterList's var is a dynamic input and output: both parameters address one descriptor, whose tensors
    # start as copies of the caller's
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    host = HOST.replace("BLOCKS", "1")
    for kind in ("Input", "Output"):
        host = host.replace(f'{kind}("var").ParamType(REQUIRED)', f'{kind}("var").ParamType(DYNAMIC)')
    (tmp_path / "op_host" / "diag.cpp").write_text(host)
    var = [np.full(4, 3.0, dtype=np.float32), np.full(4, 5.0, dtype=np.float32)]
    x = np.arange(4, dtype=np.float32) + 10
    for param in ("var", "var_ref"):
        (tmp_path / "op_kernel" / "diag.cpp").write_text(LIST_KERNEL.replace("PARAM", param))
        result = run(tmp_path, [var, x], outputs={"var": [np.zeros(4, np.float32), np.zeros(4, np.float32)]})
        assert result.ok, [str(d) for d in result.findings]
        got = result.outputs["var"]
        assert np.array_equal(got[0], [10, 3, 3, 3]) and np.array_equal(got[1], [5, 11, 5, 5]), (param, got)
        assert np.array_equal(var[0], np.full(4, 3.0)) and np.array_equal(var[1], np.full(4, 5.0))
