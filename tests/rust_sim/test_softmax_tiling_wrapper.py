"""`AscendC::SoftMaxFlashV2TilingFunc(shapeInfo, size1, size2, workBytes, ...)` in kernel code, the library's constexpr
wrapper of SoftMaxFlashV2TilingFuncImpl (srcM and srcK from the SoftMaxShapeInfo, the work space in bytes): 11
vendor op_kernel files call it (bench/perf/adv_api_calls.py). It was an unresolved call (the simulator stopped
there); now each field equals the Impl's for the same sizes (test_softmax_tiling_impl.py's reference)."""

from __future__ import annotations

import numpy as np

from passes.sim import run
from tests.rust_sim.test_softmax_tiling_impl import CASES, FIELDS, reference


def _kernel() -> str:
    calls = []
    for i, (_, _, size1, _, basic) in enumerate(CASES):
        stores = "\n".join(f"        outGm.SetValue({i * 16 + j}, t{i}.{f});" for j, f in enumerate(FIELDS))
        # a named SoftMaxShapeInfo for even cases, a brace list for odd ones
        shape = (f"info{i}" if i % 2 == 0 else
                 f"{{inGm.GetValue({i * 3}), inGm.GetValue({i * 3 + 1}), inGm.GetValue({i * 3}), "
                 f"inGm.GetValue({i * 3 + 1})}}")
        calls.append(f"""
        SoftMaxShapeInfo info{i} = {{inGm.GetValue({i * 3}), inGm.GetValue({i * 3 + 1}), inGm.GetValue({i * 3}),
            inGm.GetValue({i * 3 + 1})}};
        SoftMaxTiling t{i} = AscendC::SoftMaxFlashV2TilingFunc({shape}, {size1}, sizeof(float),
            inGm.GetValue({i * 3 + 2}) * 4, true, {"true" if basic else "false"});
{stores}""")
    return """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR in, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<uint32_t> inGm;
    GlobalTensor<uint32_t> outGm;
    inGm.SetGlobalBuffer((__gm__ uint32_t *)in, %d);
    outGm.SetGlobalBuffer((__gm__ uint32_t *)out, %d);
    %s
}
""" % (3 * len(CASES), 16 * len(CASES), "".join(calls))


def test_wrapper_fields_equal_the_impl() -> None:
    given = np.array([v for m, k, _, work, _ in CASES for v in (m, k, work)], dtype=np.uint32)
    result = run(_kernel(), {"in": given}, block_dim=1, outputs={"out": ((16 * len(CASES),), "uint32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    got = result.outputs["out"].reshape(len(CASES), 16)
    for case, row in zip(CASES, got):
        assert dict(zip(FIELDS, row.tolist())) == reference(*case), case
