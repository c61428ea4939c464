"""Op projects without an op json (ops-nn, ops-math, cann-ops): the operator is the OpDef class that
OP_ADD registers, and the project rules compare against it."""

from __future__ import annotations

from pathlib import Path

from frontend.pipeline import load
from passes.verify import check_program

TILING_H = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleParam)
    TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleParamOp, ScaleParam)
BEGIN_TILING_DATA_DEF(ScaleTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, tileLength)
    TILING_DATA_FIELD_DEF_STRUCT(ScaleParam, param);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(REGISTERED_OP, ScaleTilingData)
REGISTER_TILING_DATA_CLASS(REGISTERED_OP_1, ScaleTilingData)
}
"""

HOST_CPP = """
#include "scale_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleTilingData tiling;
    tiling.set_tileLength(1024);
    tiling.param.set_factor(2.0f);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(8);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class Scale : public OpDef {
public:
    explicit Scale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
    }
};
OP_ADD(Scale);
}
"""

KERNEL_CPP = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ENTRY(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const int32_t DTYPE_SIZE = sizeof(float);  // the kernel's own name, not a DTYPE_<input> macro
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, td.tileLength * DTYPE_SIZE);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, td.tileLength);
    DataCopy(t, xGm, td.tileLength);
    Muls(t, t, td.param.factor, td.tileLength);
    DataCopy(xGm, t, td.tileLength);
}
"""


def project(root: Path, registered: str = "Scale", entry: str = "scale") -> str:
    (root / "op_host").mkdir(parents=True)
    (root / "op_kernel").mkdir()
    (root / "op_host" / "scale_tiling.h").write_text(TILING_H.replace("REGISTERED_OP", registered))
    (root / "op_host" / "scale.cpp").write_text(HOST_CPP)
    (root / "op_kernel" / "scale.cpp").write_text(KERNEL_CPP.replace("ENTRY", entry))
    return str(root)


def errors(folder: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in check_program(load(folder)) if d.is_error]


def test_a_project_that_agrees_with_its_opdef_is_clean(tmp_path: Path) -> None:
    # the helper struct registered under its own name (ScaleParamOp) is a field of the op's struct, and
    # Scale_1 registers the struct for tiling key 1
    assert errors(project(tmp_path)) == []


def test_registration_and_entry_are_compared_with_the_opdef(tmp_path: Path) -> None:
    found = errors(project(tmp_path, registered="ScaleV2", entry="scale_v2"))
    assert ("ASC802", "REGISTER_TILING_DATA_CLASS registers 'ScaleV2' but the op is 'Scale'") in found
    assert any(code == "ASC801" and "'scale_v2' does not match op 'Scale'" in msg for code, msg in found)


def test_platform_namespace_through_an_unknown_vendor_header_is_not_missing(tmp_path: Path) -> None:
    # ops-math host files reach platform_ascendc through op_common/op_host/util/platform_util.h, which is not
    # available here: whether it declares the namespace is unknown, so ASC904 stays silent (30 of 150 sampled
    # real op projects had this false alarm)
    folder = project(tmp_path)
    host = tmp_path / "op_host" / "scale.cpp"
    host.write_text(host.read_text().replace(
        '#include "register/op_def_registry.h"',
        '#include "register/op_def_registry.h"\n#include "op_common/op_host/util/platform_util.h"').replace(
        "context->SetBlockDim(8);",
        "context->SetBlockDim(platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv());"))
    assert [code for code, _ in errors(folder)] == []
    host.write_text(host.read_text().replace('#include "op_common/op_host/util/platform_util.h"', ""))
    assert [code for code, _ in errors(folder)] == ["ASC904"]


def test_kernel_entry_names_keep_a_run_of_capitals_whole() -> None:
    from passes.verify.project import snake_variants

    # ops-nn's NormalizeBBox op has the entry normalize_bbox, and it builds
    assert "normalize_bbox" in snake_variants("NormalizeBBox")
    assert snake_variants("AddCustom") == {"add_custom"}


KERNEL_CLASS_H = """
#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t length);
    __aicore__ inline void Process();
private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> xGm;
    uint32_t length = 0;
};
"""

KERNEL_CLASS_CPP = """
#include "scale.h"
template <typename T>
__aicore__ inline void KernelScale<T>::Init(GM_ADDR x, uint32_t length)
{
    this->length = length;
    xGm.SetGlobalBuffer((__gm__ T*)x + GetBlockIdx() * length, length);
    pipe.InitBuffer(buf, length * sizeof(T));
}
template <typename T>
__aicore__ inline void KernelScale<T>::Process()
{
    LocalTensor<T> t = buf.Get<T>();
    DataCopy(t, xGm, length);
    Muls(t, t, (T)2, length);
    DataCopy(xGm, t, length + 1);
}
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelScale<DTYPE_X> op;
    op.Init(x, td.tileLength);
    op.Process();
}
"""


def test_methods_defined_outside_a_class_that_a_kernel_header_declares(tmp_path: Path) -> None:
    # the header is a unit of the project too (op_kernel/scale.h); collected after the source that includes
    # it, its class (declarations only) hid the source's definitions: 'Init' is declared but never defined
    project(tmp_path)
    (tmp_path / "op_kernel" / "scale.h").write_text(KERNEL_CLASS_H)
    (tmp_path / "op_kernel" / "scale.cpp").write_text(KERNEL_CLASS_CPP)
    found = [(d.code, d.message) for d in check_program(load(str(tmp_path)))]
    assert not any(code == "ASC103" for code, _ in found), found
    assert [code for code, _ in found if code.startswith("ASC4")] == ["ASC408"]  # the lowered Process body
