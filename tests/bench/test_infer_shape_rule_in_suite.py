"""ASC907 (InferShape never sets an output's shape) does not fail an NPUKernelBench answer's compile stage: the
task's binding allocates every output itself and hands it to EXEC_NPU_CMD, so the answer's InferShape never runs
there. NPUKernelBench CrossEntropyLoss's InferShape sets loss and log_prob only (zloss and lse_for_zloss are
the binding's), and passes on hardware; once its InferShape lowered (ge::UNKNOWN_DIM), ASC907 failed it. An answer
shipping its own l0op layer (`INFER_SHAPE(...)`) does run InferShape: the rule applies to it.
"""

from __future__ import annotations

from pathlib import Path

from bench.harness.answers import Answer
from bench.harness.stages.compile import compile_answer
from bench.harness.stages.extract import extract
from bench.suites.model import Task
from bench.suites.npukernelbench import NPUKernelBenchTask

TILING_H = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TwoOutTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TwoOut, TwoOutTilingData)
}
"""

HOST = """
#include "two_out_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TwoOutTilingData tiling;
    tiling.set_n(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}
namespace ops {
class TwoOut : public OpDef {
public:
    explicit TwoOut(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TwoOut);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void two_out(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    zGm.SetGlobalBuffer((__gm__ float *)z, td.n);
    for (uint32_t i = 0; i < td.n; i++) {
        yGm.SetValue(i, xGm.GetValue(i));
        zGm.SetValue(i, xGm.GetValue(i));
    }
}
"""


def _answer(tmp_path: Path, extra: str = "") -> Answer:
    (tmp_path / "op_host").mkdir(parents=True)
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "two_out_tiling.h").write_text(TILING_H)
    (tmp_path / "op_host" / "two_out.cpp").write_text(HOST + extra)
    (tmp_path / "op_kernel" / "two_out.cpp").write_text(KERNEL)
    return Answer("TwoOut", "0", str(tmp_path))


def _task(cls: type[Task]) -> Task:
    return cls(suite="npukernelbench", name="TwoOut", level=2, category="Test", description="", op_type="TwoOut",
               kernel_name="two_out")


def _asc907(compiled: object) -> list[str]:
    return [f.code for f in compiled.errors if f.code == "ASC907"]  # type: ignore[attr-defined]


def test_asc907_does_not_fail_an_npukernelbench_answer(tmp_path: Path) -> None:
    task = _task(NPUKernelBenchTask)
    compiled = compile_answer(task, extract(task, _answer(tmp_path)))
    assert _asc907(compiled) == [] and compiled.ok, compiled.reason


def test_asc907_still_applies_elsewhere_and_with_an_l0op_layer(tmp_path: Path) -> None:
    plain = _task(Task)
    assert _asc907(compile_answer(plain, extract(plain, _answer(tmp_path / "a")))) == ["ASC907"]
    task = _task(NPUKernelBenchTask)
    l0op = "\n// l0op: INFER_SHAPE(TwoOut, OP_INPUT(x), OP_OUTPUT(y, z));\n"
    assert _asc907(compile_answer(task, extract(task, _answer(tmp_path / "b", l0op)))) == ["ASC907"]
