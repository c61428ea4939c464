"""A kernel too large to lower whole is lowered once per tiling key, as many keys as fit; a launch runs the branch of
the key the host chose, lowering again with that key first when it was among those left over (NPUKernelBench's
GroupNormSwish: twelve keys, the float32 ones past the budget; its float32 cases ran key 111's float16 branch).
The size limits are lowered here so that a two-key kernel is "too large"."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendir import lower
from ascendir.lower import function, tiling_key_split
from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct KeyTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    KeyTilingData *t = context->GetTilingData<KeyTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetTilingKey(t->n > 4 ? 2 : 1);
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class KeyOp : public OpDef {
public:
    explicit KeyOp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(KeyOp);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct KeyTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void key_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(KeyTilingData, td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    if (TILING_KEY_IS(1)) {
        for (uint32_t i = 0; i < td.n; i++) {
            yGm.SetValue(i, xGm.GetValue(i) + 1.0f);
        }
    } else if (TILING_KEY_IS(2)) {
        for (uint32_t i = 0; i < td.n; i++) {
            yGm.SetValue(i, xGm.GetValue(i) * 3.0f);
        }
    }
}
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "key_op.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "key_op.cpp").write_text(KERNEL)
    # whole, the kernel is over the limit; one key's branch fits, two do not
    monkeypatch.setattr(function, "MAX_KERNEL_OPS", 25)
    monkeypatch.setattr(tiling_key_split, "MAX_SPLIT_OPS", 25)
    return tmp_path


def test_the_branch_of_the_host_s_key_runs(project: Path) -> None:
    from frontend.pipeline import load

    lowered = lower.lower_program(load(str(project)))
    keys = [k.attributes[tiling_key_split.TILING_KEY_ATTR].value.data for k in lowered.kernels]
    assert keys == [1]  # key 2's branch did not fit beside key 1's
    for n, expected in ((4, lambda x: x + 1), (8, lambda x: 3 * x)):
        x = np.arange(n, dtype=np.float32)
        result = run(project, [x], outputs={"y": np.zeros(n, dtype=np.float32)})
        assert result.ok, [str(d) for d in result.findings]
        assert np.array_equal(result.outputs["y"], expected(x))


def test_the_branch_of_a_given_key_runs(project: Path) -> None:
    # `ascendir run KERNEL --tiling-key 2 --block-dim 1 --tiling n=8` (the tiling given by hand, as for a vendor op
    # whose host code cannot run): key 2's branch, left over at the first lowering, is lowered again first. Before,
    # ASC958 'the kernel's branch for tiling key 2 ... did not fit' (moe_gating_top_k_softmax_v2's key 103012)
    x = np.arange(8, dtype=np.float32)
    result = run(project / "op_kernel" / "key_op.cpp", [x], block_dim=1, tiling={"n": 8}, tiling_key=2,
                 outputs={"y": np.zeros(8, dtype=np.float32)})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 3 * x)


OWN_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct KeyTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void key_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(KeyTilingData, td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    for (uint32_t i = 0; i < td.n; i++) {
        yGm.SetValue(i, xGm.GetValue(i) - 1.0f);
    }
}
"""


def _with_950_entry(project: Path) -> None:
    host = (project / "op_host" / "key_op.cpp").read_text()
    (project / "op_host" / "key_op.cpp").write_text(host.replace(
        'this->AICore().AddConfig("ascend910b");',
        'this->AICore().AddConfig("ascend910b");\n'
        '        OpAICoreConfig config950;\n'
        '        config950.ExtendCfgInfo("opFile.value", "key_op_apt");\n'
        '        this->AICore().AddConfig("ascend950", config950);'))


def test_another_entry_lowered_per_key_does_not_hide_the_chip_s_entry(project: Path) -> None:
    # ops-nn group_norm_silu: op_kernel/group_norm_silu.cpp (the 910B's, lowered whole) beside
    # group_norm_silu_apt.cpp (the 950's, too large whole, lowered per key: 1100, 1101, ...). The host's key 102
    # was looked up among the 950 entry's keys only: ASC958 "the kernel's branch for tiling key 102 ... did not
    # fit", after a needless relowering. The 910B's entry runs whatever keys the other one was lowered for.
    (project / "op_kernel" / "key_op.cpp").rename(project / "op_kernel" / "key_op_apt.cpp")
    (project / "op_kernel" / "key_op.cpp").write_text(OWN_KERNEL)
    _with_950_entry(project)
    for n in (4, 8):  # keys 1 and 2: the 910B entry has no branch of its own for either
        x = np.arange(n, dtype=np.float32)
        result = run(project, [x], outputs={"y": np.zeros(n, dtype=np.float32)})
        assert result.ok, [str(d) for d in result.findings]
        assert np.array_equal(result.outputs["y"], x - 1)


def test_the_chip_s_entry_lowered_per_key_runs_beside_a_whole_one(project: Path) -> None:
    # the other way round (ops-nn layer_norm_v4: layer_norm_v4.cpp, the 910B's, lowered per key beside the 950's
    # layer_norm_v4_apt.cpp, lowered whole): the 910B entry's branch runs, not the whole 950 entry
    (project / "op_kernel" / "key_op_apt.cpp").write_text(OWN_KERNEL)
    _with_950_entry(project)
    for n, expected in ((4, lambda x: x + 1), (8, lambda x: 3 * x)):
        x = np.arange(n, dtype=np.float32)
        result = run(project, [x], outputs={"y": np.zeros(n, dtype=np.float32)})
        assert result.ok, [str(d) for d in result.findings]
        assert np.array_equal(result.outputs["y"], expected(x))
