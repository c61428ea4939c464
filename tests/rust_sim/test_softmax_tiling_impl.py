"""`AscendC::SoftMaxFlashV2TilingFuncImpl` in kernel code (ascendir/lower/softmax_tiling_impl.py): the SoftMaxTiling a
kernel computes for rows and columns known only at run time (NPUKernelBench's large-head-dim flash attention calls
it before each SoftmaxFlashV2). It was ASC100 'unknown AscendC API', and the simulator stopped at the call. Each
field the kernel reads back is checked against the library's arithmetic, written out here on its own."""

from __future__ import annotations

import numpy as np

from passes.sim import run

FIELDS = ("srcM", "srcK", "srcSize", "outMaxM", "outMaxK", "outMaxSize", "splitM", "splitK", "splitSize",
          "reduceM", "reduceK", "reduceSize", "rangeM", "tailM", "tailSplitSize", "tailReduceSize")

# (srcM, srcK, dataTypeSize1, workLocalSize in floats, isBasicBlock)
CASES = [
    (64, 1024, 4, 16384, False),  # float, one pass
    (40, 128, 4, 2000, True),  # basic block: 27 -> 24, lowered by 8 until it divides 40
    (100, 256, 2, 10000, False),  # half: 29 rows, rounded down to 24, a tail of 4
    (64, 512, 4, 100000, True),  # basic block: 64 rows halved twice (64 * 512 >= 64 * 256)
    (36, 128, 4, 2000, True),  # 36 is no multiple of 8: the general split, 27 -> 24, a tail of 12
]


def reference(m: int, k: int, size1: int, work: int, basic: bool) -> dict[str, int]:
    e = 32 // 4
    if basic and k % 64 == 0 and m % 8 == 0:
        rows = min(work // ((e + k + 64) if size1 == 2 else (e + 64)), m)
        if rows > 8:
            rows = rows // 8 * 8
            while m % rows:
                rows -= 8
            while rows * k >= 64 * 256:
                rows //= 2
    else:
        rows = work // ((2 * e + k + 64) if size1 == 2 else (e + 64))
    if 8 < rows < m:
        rows = rows // 8 * 8
    rows = min(rows, m)
    tail = m % rows
    return {"srcM": m, "srcK": k, "srcSize": m * k, "outMaxM": m, "outMaxK": e, "outMaxSize": m * e,
            "splitM": rows, "splitK": k, "splitSize": rows * k, "reduceM": rows, "reduceK": e,
            "reduceSize": rows * e, "rangeM": m // rows, "tailM": tail, "tailSplitSize": tail * k,
            "tailReduceSize": tail * e}


def _kernel() -> str:
    calls = []
    for i, (_, _, size1, _, basic) in enumerate(CASES):
        stores = "\n".join(f"        outGm.SetValue({i * 16 + j}, t{i}.{f});" for j, f in enumerate(FIELDS))
        calls.append(f"""
        SoftMaxTiling t{i} = AscendC::SoftMaxFlashV2TilingFuncImpl(inGm.GetValue({i * 3}), inGm.GetValue({i * 3 + 1}),
            {size1}, sizeof(float), inGm.GetValue({i * 3 + 2}), true, {"true" if basic else "false"});
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


def test_fields_from_run_time_sizes() -> None:
    given = np.array([v for m, k, _, work, _ in CASES for v in (m, k, work)], dtype=np.uint32)
    result = run(_kernel(), {"in": given}, block_dim=1, outputs={"out": ((16 * len(CASES),), "uint32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    got = result.outputs["out"].reshape(len(CASES), 16)
    for case, row in zip(CASES, got):
        assert dict(zip(FIELDS, row.tolist())) == reference(*case), case
