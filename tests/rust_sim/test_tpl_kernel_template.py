"""An ops-repository op whose kernel entry is a template the template tiling key instantiates: the host sets
`GET_TPL_TILING_KEY(scale, negate)` under the header's `ASCENDC_TPL_ARGS_DECL`, and the launch runs the kernel
instance `tpl_scale<SCALE, NEGATE>` those values make (the build instantiates one per ASCENDC_TPL_SEL
combination and the runtime picks it by key). Before, the kernel template was run with its first-listed
arguments whatever key the host set (a never-instantiated template, ASC105), and the host's key was an
undeclared identifier (ASC102). The project is written for the test; the layout is ops-nn's (arch35/ struct
header included from op_host by a relative path)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KEY_HEADER = """\
#ifndef TPL_SCALE_STRUCT_H
#define TPL_SCALE_STRUCT_H
#include "ascendc/host_api/tiling/template_argument.h"
#define TPL_SCALE_TWO 2
#define TPL_SCALE_THREE 3
#define TPL_SCALE_FIVE 5
namespace TplScaleOp {
ASCENDC_TPL_ARGS_DECL(TplScale,
    ASCENDC_TPL_UINT_DECL(scale, 2, ASCENDC_TPL_UI_LIST, TPL_SCALE_TWO, TPL_SCALE_THREE, TPL_SCALE_FIVE),
    ASCENDC_TPL_BOOL_DECL(negate, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(
    ASCENDC_TPL_UINT_SEL(scale, ASCENDC_TPL_UI_LIST, TPL_SCALE_TWO, TPL_SCALE_THREE, TPL_SCALE_FIVE),
    ASCENDC_TPL_BOOL_SEL(negate, 0, 1)));
}
#endif
"""

TILING = """\
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TplScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TplScale, TplScaleTilingData)
}
"""

HOST = """\
#include "tpl_scale_tiling.h"
#include "register/op_def_registry.h"
#include "../op_kernel/arch35/tpl_scale_struct.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    TplScaleTilingData tiling;
    const int64_t *scale = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const bool *negate = context->GetAttrs()->GetAttrPointer<bool>(1);
    tiling.set_length(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    context->SetTilingKey(GET_TPL_TILING_KEY(static_cast<uint64_t>(*scale), static_cast<uint64_t>(*negate)));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class TplScale : public OpDef {
public:
    explicit TplScale(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Int(2);
        this->Attr("negate").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TplScale);
}
"""

KERNEL = """\
#include "kernel_operator.h"
#include "arch35/tpl_scale_struct.h"
using namespace AscendC;

template <uint64_t SCALE, uint64_t NEGATE>
__global__ __aicore__ void tpl_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TQue<TPosition::VECOUT, 1> out;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.length);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.length);
    pipe.InitBuffer(q, 1, td.length * sizeof(float));
    pipe.InitBuffer(out, 1, td.length * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, td.length);
    q.EnQue(t);
    LocalTensor<float> u = q.DeQue<float>();
    LocalTensor<float> v = out.AllocTensor<float>();
    if constexpr (NEGATE == 1) {
        Muls(v, u, -static_cast<float>(SCALE), td.length);
    } else {
        Muls(v, u, static_cast<float>(SCALE), td.length);
    }
    out.EnQue(v);
    q.FreeTensor(u);
    LocalTensor<float> w = out.DeQue<float>();
    DataCopy(yGm, w, td.length);
    out.FreeTensor(w);
}
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "tpl_scale"
    (root / "op_host").mkdir(parents=True)
    (root / "op_kernel" / "arch35").mkdir(parents=True)
    (root / "op_host" / "tpl_scale.cpp").write_text(HOST)
    (root / "op_host" / "tpl_scale_tiling.h").write_text(TILING)
    (root / "op_kernel" / "arch35" / "tpl_scale_struct.h").write_text(KEY_HEADER)
    (root / "op_kernel" / "tpl_scale.cpp").write_text(KERNEL)
    return root


@pytest.mark.parametrize(("scale", "negate", "key"), [(5, True, 2 | 1 << 2), (3, False, 1), (2, False, 0)])
def test_the_launch_runs_the_instance_of_the_key_the_host_set(tmp_path: Path, scale: int, negate: bool,
                                                               key: int) -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(str(project(tmp_path)), {"x": x.copy()}, [scale, negate], outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert result.tiling_key == key
    assert np.array_equal(result.outputs["y"], x * scale * (-1 if negate else 1))


PLAIN_KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
namespace TplScaleOp {
struct Body {
    __aicore__ static inline float Shift() { return 1.0f; }
};
}

extern "C" __global__ __aicore__ void tpl_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.length);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.length);
    pipe.InitBuffer(q, 1, td.length * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, td.length);
    q.EnQue(t);
    LocalTensor<float> u = q.DeQue<float>();
    Adds(u, u, TplScaleOp::Body::Shift(), td.length);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, u, td.length);
    q.FreeTensor(u);
}
"""


@pytest.mark.parametrize(("chip", "expected"), [("910B2", lambda x: x + 1), ("950PR", lambda x: x * 6)])
def test_each_chip_runs_the_kernel_file_its_opdef_config_names(tmp_path: Path, chip: str, expected) -> None:
    # ops-nn's layout: op_kernel/op.cpp for the 910B, op_kernel/op_apt.cpp (a template entry) for the 950, whose
    # config says `ExtendCfgInfo("opFile.value", "op_apt")`; both entries are named `op`, and each source, compiled
    # apart, defines its own TplScaleOp::Body (ops-nn dynamic_quant: DynamicQuantNDOpt::DynamicQuantBase twice):
    # each entry is lowered with its own
    root = project(tmp_path)
    apt = KERNEL.replace("using namespace AscendC;\n", "using namespace AscendC;\nnamespace TplScaleOp {\n"
                         "struct Body {\n    __aicore__ static inline float Shift() { return 2.0f; }\n};\n}\n")
    apt = apt.replace("static_cast<float>(SCALE), td.length);\n    }",
                      "static_cast<float>(SCALE) * TplScaleOp::Body::Shift(), td.length);\n    }")
    (root / "op_kernel" / "tpl_scale_apt.cpp").write_text(apt)
    (root / "op_kernel" / "tpl_scale.cpp").write_text(PLAIN_KERNEL)
    host = HOST.replace('        this->AICore().AddConfig("ascend910b");\n',
                        '        this->AICore().AddConfig("ascend910b");\n'
                        '        OpAICoreConfig config_950;\n'
                        '        config_950.DynamicCompileStaticFlag(true)'
                        '.ExtendCfgInfo("opFile.value", "tpl_scale_apt");\n'
                        '        this->AICore().AddConfig("ascend950", config_950);\n')
    (root / "op_host" / "tpl_scale.cpp").write_text(host)
    x = np.arange(64, dtype=np.float32)
    result = run(str(root), {"x": x.copy()}, [3, False], outputs={"y": ((64,), "float32")}, chip=chip)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], expected(x))


@pytest.mark.parametrize(("chip", "expected"), [("910B2", lambda x: x + 1), ("950PR", lambda x: x * 6)])
def test_an_entry_of_the_same_file_name_in_the_chips_architecture_folder_runs_there(tmp_path: Path, chip: str,
                                                                                     expected) -> None:
    # ops-nn deep_norm: op_kernel/deep_norm.cpp (910B) and op_kernel/arch35/deep_norm.cpp (950), no opFile.value
    root = project(tmp_path)
    arch35 = KERNEL.replace('#include "arch35/tpl_scale_struct.h"', '#include "tpl_scale_struct.h"')
    arch35 = arch35.replace("using namespace AscendC;\n", "using namespace AscendC;\nnamespace TplScaleOp {\n"
                            "struct Body {\n    __aicore__ static inline float Shift() { return 2.0f; }\n};\n}\n")
    arch35 = arch35.replace("static_cast<float>(SCALE), td.length);\n    }",
                            "static_cast<float>(SCALE) * TplScaleOp::Body::Shift(), td.length);\n    }")
    (root / "op_kernel" / "arch35" / "tpl_scale.cpp").write_text(arch35)
    (root / "op_kernel" / "tpl_scale.cpp").write_text(PLAIN_KERNEL)
    host = HOST.replace('        this->AICore().AddConfig("ascend910b");\n',
                        '        this->AICore().AddConfig("ascend910b");\n'
                        '        this->AICore().AddConfig("ascend950");\n')
    (root / "op_host" / "tpl_scale.cpp").write_text(host)
    x = np.arange(64, dtype=np.float32)
    result = run(str(root), {"x": x.copy()}, [3, False], outputs={"y": ((64,), "float32")}, chip=chip)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], expected(x))


def test_the_template_entry_of_another_chip_is_not_lowered_again(tmp_path: Path, monkeypatch) -> None:
    # on the 910B the plain entry runs: the 950 template entry beside it, checked for key 0, is not lowered again
    # for the host's key 1 (ops-nn dynamic_quant lowered both entries twice)
    from passes.sim.lowering_cache import PreparedLaunch, forget

    root = project(tmp_path)
    (root / "op_kernel" / "tpl_scale_apt.cpp").write_text(KERNEL)
    (root / "op_kernel" / "tpl_scale.cpp").write_text(PLAIN_KERNEL)
    host = HOST.replace('        this->AICore().AddConfig("ascend910b");\n',
                        '        this->AICore().AddConfig("ascend910b");\n'
                        '        OpAICoreConfig config_950;\n'
                        '        config_950.ExtendCfgInfo("opFile.value", "tpl_scale_apt");\n'
                        '        this->AICore().AddConfig("ascend950", config_950);\n')
    (root / "op_host" / "tpl_scale.cpp").write_text(host)
    relowered: list[object] = []
    original = PreparedLaunch.relower
    monkeypatch.setattr(PreparedLaunch, "relower", lambda self, options: relowered.append(options) or original(
        self, options))
    forget()
    x = np.arange(64, dtype=np.float32)
    result = run(str(root), {"x": x.copy()}, [3, False], outputs={"y": ((64,), "float32")}, chip="910B2")
    assert result.ok and np.array_equal(result.outputs["y"], x + 1)
    # (the launch's first lowering goes through relower too, with no key)
    assert result.tiling_key == 1 and [o.tiling_key for o in relowered] == [None]
