"""A kernel file of an ops repository run alone (`ascendir run op_kernel/op.cpp --tiling-key K --tiling ...`, no
host source): its template entry, whose parameters the ASCENDC_TPL_ARGS_DECL of the tiling-key header it
includes declares, runs as the instance of the key given, as it does when the op folder's host chose the key
(e0bb0c2). Before, the device build's reading of template_argument.h erased the declaration with the selection
lists, nothing bound the parameters from the key, and ops-nn's transpose_batch_mat_mul ran 2 instructions with no
`if constexpr` branch taken (ASC961: no output written). The kernel and header are written for the test in
ops-nn's layout (the header beside the kernel, template_argument.h from the vendor's include path)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KEY_HEADER = """\
#ifndef TPL_AXPB_KEY_H
#define TPL_AXPB_KEY_H
#include "ascendc/host_api/tiling/template_argument.h"
#define AXPB_MODE_COPY 0
#define AXPB_MODE_SCALE 3
#define AXPB_MODE_SHIFT 7
ASCENDC_TPL_ARGS_DECL(TplAxpb,
    ASCENDC_TPL_UINT_DECL(MODE, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_LIST, AXPB_MODE_COPY, AXPB_MODE_SCALE,
                          AXPB_MODE_SHIFT),
    ASCENDC_TPL_BOOL_DECL(NEGATE, 0, 1), );
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
    ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, AXPB_MODE_COPY, AXPB_MODE_SCALE, AXPB_MODE_SHIFT)
    ASCENDC_TPL_BOOL_SEL(NEGATE, 0, 1)));
#endif
"""

KERNEL = """\
#include "kernel_operator.h"
#include "tpl_axpb_tiling_key.h"
using namespace AscendC;

struct TplAxpbTilingData {
    uint32_t length;
    float factor;
};

template <int MODE, bool NEGATE>
__global__ __aicore__ void tpl_axpb(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(TplAxpbTilingData, td, tiling);
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
    float factor = NEGATE ? -td.factor : td.factor;
    if constexpr (MODE == AXPB_MODE_SCALE) {
        Muls(u, u, factor, td.length);
    } else if constexpr (MODE == AXPB_MODE_SHIFT) {
        Adds(u, u, factor, td.length);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, u, td.length);
    q.FreeTensor(u);
}
"""


def kernel_file(tmp_path: Path) -> Path:
    folder = tmp_path / "tpl_axpb" / "op_kernel"
    folder.mkdir(parents=True)
    (folder / "tpl_axpb_tiling_key.h").write_text(KEY_HEADER)
    (folder / "tpl_axpb.cpp").write_text(KERNEL)
    return folder / "tpl_axpb.cpp"


# the key: MODE's index among its declared values in bits 0-3, NEGATE in bit 4
@pytest.mark.parametrize(("key", "expected"), [
    (1, lambda x: x * 2.5), (2 | 1 << 4, lambda x: x - 2.5), (0, lambda x: x), (1 << 4, lambda x: x),
])
def test_a_kernel_file_alone_runs_the_instance_of_the_tiling_key_given(tmp_path: Path, key: int, expected) -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(str(kernel_file(tmp_path)), {"x": x.copy()}, tiling={"length": 64, "factor": 2.5}, tiling_key=key,
                 block_dim=1, outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], expected(x))



def test_an_op_folder_whose_declaration_is_not_named_for_its_kernel_reads_it_once(tmp_path: Path) -> None:
    # the host and the kernel both include the tiling-key header, so the kernel's lowering meets its declaration
    # twice; named unlike the kernel (ScaleKey for tpl_scale), the two copies left no single declaration to
    # instantiate the kernel from (no instance: ASC105) until they were known as one by where they are written
    from tests.rust_sim import test_tpl_kernel_template as folder

    root = folder.project(tmp_path)
    header = root / "op_kernel" / "arch35" / "tpl_scale_struct.h"
    header.write_text(header.read_text().replace("ASCENDC_TPL_ARGS_DECL(TplScale,", "ASCENDC_TPL_ARGS_DECL(ScaleKey,"))
    x = np.arange(64, dtype=np.float32)
    result = run(str(root), {"x": x.copy()}, [5, True], outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert result.tiling_key == 2 | 1 << 2
    assert np.array_equal(result.outputs["y"], -5 * x)

