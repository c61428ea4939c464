"""An output's OpDef InitValue is what the runtime fills it with before a launch whose host tiling calls
SetNeedAtomic(true) (asc-devkit OpParamDef/InitValue.md): the uint64_t form clears it, a ScalarVar
({ScalarType::FLOAT32, 1.5}) is a memset of that type and value over its bytes, and the list form gives one
ScalarVar per entry of the output's DataType list, the one for the launch's dtype used. A kernel that accumulates
into its output then finds that value where it writes nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct PairSumTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    PairSumTilingData *t = context->GetTilingData<PairSumTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    context->SetNeedAtomic(true);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class PairSum : public OpDef {
public:
    explicit PairSum(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).Follow("x")  // the fill: INIT
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .InitValue(INIT);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PairSum);
}
"""

# y[2j] += x[2j] + x[2j + 1]; y's odd elements are never written
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct PairSumTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void pair_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PairSumTilingData, td, tiling);
    GlobalTensor<DTYPE_X> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x);
    yGm.SetGlobalBuffer((__gm__ DTYPE_X *)y);
    for (uint32_t i = 0; i < td.n; i++) {
        uint32_t j = i / 2 * 2;
        yGm.SetValue(j, yGm.GetValue(j) + xGm.GetValue(i));
    }
}
"""


def _op(tmp_path: Path, init: str) -> Path:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "pair_sum.cpp").write_text(HOST.replace("INIT", init))
    (tmp_path / "op_kernel" / "pair_sum.cpp").write_text(KERNEL)
    return tmp_path


def _expected(x: np.ndarray, fill: object) -> np.ndarray:
    y = np.full(x.shape, fill, dtype=x.dtype)
    y[0::2] += x[0::2] + x[1::2]
    return y


@pytest.mark.parametrize(("init", "dtype", "fill"), [
    ("{ScalarType::FLOAT32, 1.5}", np.float32, 1.5),
    ("{ScalarType::INT32, -3}", np.int32, -3),
    # one ScalarVar per DataType entry: float16 2, float 3.25, int32 7
    ("{{ScalarType::FLOAT16, 2}, {ScalarType::FLOAT32, 3.25}, {ScalarType::INT32, 7}}", np.float32, 3.25),
    ("{{ScalarType::FLOAT16, 2}, {ScalarType::FLOAT32, 3.25}, {ScalarType::INT32, 7}}", np.float16, 2.0),
    ("{{ScalarType::FLOAT16, 2}, {ScalarType::FLOAT32, 3.25}, {ScalarType::INT32, 7}}", np.int32, 7),
    ("0", np.float32, 0.0),
])
def test_outputs_start_as_their_init_value(tmp_path: Path, init: str, dtype: type, fill: object) -> None:
    x = np.arange(1, 17).astype(dtype)
    # the caller's array holds other values: the runtime's fill comes first
    result = run(_op(tmp_path, init), [x], outputs={"y": np.full(16, 9, dtype=dtype)})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], _expected(x, fill)), result.outputs["y"]


def test_a_scalar_var_of_another_type_is_a_memset_of_its_bytes(tmp_path: Path) -> None:
    # {INT16, 1} over an int32 output: each int32 holds two int16 ones, 0x00010001
    x = np.arange(1, 17, dtype=np.int32)
    result = run(_op(tmp_path, "{ScalarType::INT16, 1}"), [x], outputs={"y": np.zeros(16, dtype=np.int32)})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], _expected(x, 0x00010001))
