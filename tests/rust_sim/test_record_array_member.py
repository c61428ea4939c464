"""A kernel's own plain struct held in a local variable keeps its C array members (an object of its class,
ascendir/lower/aggregates.py; record_arrays.py before).
NPUKernelBench Lerp copies its tiling into `TilingParam paramList = {.total_length = ..., ...}` and then fills the
array members in a loop, `paramList.shape[i] = tiling_data.shape[i]`, and its broadcast class keeps
`this->shape = paramList.shape`. The element stores had nowhere to go (ASC103, the statement left out) and the
element reads were taken for reads of the host's tiling data, which stopped every case as 'the kernel reads
tiling field shape, which the host tiling did not set' (ASC958). The project here is written for the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

TILING = """\
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(RecTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, extra);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RecCustom, RecTilingData)
}
"""

HOST = """\
#include "rec_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RecTilingData tiling;
    uint32_t extra[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tiling.set_length(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    tiling.set_extra(extra);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class RecCustom : public OpDef {
public:
    explicit RecCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RecCustom);
}
"""

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

struct Record {
    uint32_t length;
    uint32_t extra[8];
    uint32_t unused[4];
};

class Adder {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, Record &rec)
    {
        length = rec.length;
        table = rec.extra;  // a pointer member to the record's own array
        xGm.SetGlobalBuffer((__gm__ float *)x, length);
        yGm.SetGlobalBuffer((__gm__ float *)y, length);
        pipe.InitBuffer(q, 1, length * sizeof(float));
        pipe.InitBuffer(out, 1, length * sizeof(float));
    }
    __aicore__ inline void Process(uint32_t at)
    {
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopy(t, xGm, length);
        q.EnQue(t);
        LocalTensor<float> u = q.DeQue<float>();
        LocalTensor<float> v = out.AllocTensor<float>();
        Adds(v, u, (float)(table[at] + table[7]), length);
        out.EnQue(v);
        q.FreeTensor(u);
        LocalTensor<float> w = out.DeQue<float>();
        DataCopy(yGm, w, length);
        out.FreeTensor(w);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TQue<TPosition::VECOUT, 1> out;
    GlobalTensor<float> xGm, yGm;
    uint32_t length;
    uint32_t *table;
};

extern "C" __global__ __aicore__ void rec_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Record rec = {.length = td.length};
    for (int i = 0; i < 8; ++i) {
        rec.extra[i] = td.extra[i] + rec.unused[i % 4];  // members a brace list leaves out are zero
    }
    rec.extra[7] = 100;
    Adder op;
    op.Init(x, y, rec);
    op.Process(td.length / 32 + rec.extra[0]);  // 64 / 32 + 1: reads extra[3]
}
"""


def project(tmp_path: Path) -> Path:
    folder = tmp_path / "rec_custom"
    (folder / "op_host").mkdir(parents=True)
    (folder / "op_kernel").mkdir()
    (folder / "op_host" / "rec_custom.cpp").write_text(HOST)
    (folder / "op_host" / "rec_custom_tiling.h").write_text(TILING)
    (folder / "op_kernel" / "rec_custom.cpp").write_text(KERNEL)
    return folder


def test_a_local_records_array_members_hold_what_the_kernel_stores(tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(str(project(tmp_path)), {"x": x.copy()}, outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x + 4 + 100)  # extra[3] as the host set it, extra[7] as stored
