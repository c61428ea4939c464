"""A tiling class declared in a header of op_host and its methods defined out of class in the .cpp that
includes it.

The header is a unit of the program of its own and is also read again through the .cpp's #include, so the
class's definition is collected twice. The second collection replaced the first, and with it the methods
defined out of class: `t.Run()` was "declared but never defined" (ASC103), no SetBlockDim or SetTilingKey ran,
and the kernel ran no branch (NPUKernelBench GeluQuant's RunGeluQuantTiling).
"""

from __future__ import annotations

from pathlib import Path

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load

HEADER = """
#ifndef Q_TILING_H
#define Q_TILING_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(QTilingData)
TILING_DATA_FIELD_DEF(int64_t, total);
TILING_DATA_FIELD_DEF(int64_t, perCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Q, QTilingData)

class QTiling {
public:
    explicit QTiling(gert::TilingContext *context) : context_(context) {}
    ge::graphStatus Run();
    ge::graphStatus Split();
private:
    gert::TilingContext *context_ = nullptr;
    int64_t total_ = 0;
    int64_t cores_ = 1;
    QTilingData td;
};
}  // namespace optiling
#endif
"""

SOURCE = """
#include "register/op_def_registry.h"
#include "q_tiling.h"
namespace optiling {
ge::graphStatus QTiling::Split()
{
    cores_ = total_ >= 64 ? 4 : 1;
    td.set_total(total_);
    td.set_perCore(total_ / cores_);
    return ge::GRAPH_SUCCESS;
}

ge::graphStatus QTiling::Run()
{
    total_ = context_->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (Split() != ge::GRAPH_SUCCESS) {
        return ge::GRAPH_FAILED;
    }
    td.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context_->SetBlockDim(cores_);
    context_->SetTilingKey(cores_ == 4 ? 2 : 1);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingForQ(gert::TilingContext *context)
{
    QTiling tiling(context);
    return tiling.Run();
}
}  // namespace optiling

namespace ops {
class Q : public OpDef {
public:
    explicit Q(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingForQ);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Q);
}  // namespace ops
"""


def test_methods_defined_out_of_class_of_a_class_in_an_included_header(tmp_path: Path) -> None:
    host = tmp_path / "q" / "op_host"
    host.mkdir(parents=True)
    (host / "q_tiling.h").write_text(HEADER)
    (host / "q.cpp").write_text(SOURCE)
    program = load(str(tmp_path / "q"))
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((8, 16), "float32")]))
    assert result.succeeded, result.diagnostics
    assert not result.gaps, result.gaps
    assert (result.block_dim, result.tiling_key) == (4, 2)
    assert result.fields == {"total": 128, "perCore": 32}


LOGGED = """
#include "register/op_def_registry.h"
#include <sstream>
#include <vector>
namespace optiling {
BEGIN_TILING_DATA_DEF(LTilingData)
TILING_DATA_FIELD_DEF(int64_t, total);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(L, LTilingData)

static uint64_t KeyOf(const std::vector<int64_t> &digits)
{
    uint64_t key = 100;
    uint64_t weight = 1;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        key += *it * weight;
        weight *= 10;
    }
    return key;
}

static ge::graphStatus TilingForL(gert::TilingContext *context)
{
    int64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    int64_t mode = total > 100 ? 2 : 1;
    std::ostringstream info;
    info << "total: " << total << std::endl;
    info << "ratio: " << total * 0.5 << std::endl;
    OP_LOGD("L", "%s", info.str().c_str());
    info.str("");
    LTilingData td;
    td.set_total(total);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    std::vector<int64_t> digits{mode, 7};
    context->SetTilingKey(KeyOf(digits));
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
""" + SOURCE[SOURCE.index("namespace ops"):].replace("TilingForQ", "TilingForL").replace("Q", "L")


def test_string_stream_logging_and_a_reverse_walk_over_a_braced_vector() -> None:
    """`std::ostringstream` written for a log line changes no tiling value (it was an ASC102 'endl' error, which
    failed the tiling function), and `rbegin()`..`rend()` over `std::vector<int64_t> v{a, b}` runs per element
    (it was left out: no tiling key)."""
    from frontend.pipeline import load_text

    program = load_text(LOGGED, "op_host/l.cpp")
    for shape, key in (((8, 16), 127), ((4, 4), 117)):
        result = evaluate_program_tiling(program, TilingInputs([TensorSpec(shape, "float32")]))
        assert result.succeeded, result.diagnostics
        assert not result.gaps, result.gaps
        assert result.tiling_key == key
