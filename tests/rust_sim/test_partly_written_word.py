"""A 64-bit read that reaches past a buffer's data taints only the bits its unwritten bytes form (taint.rs).

catlass's UnpackListParam copies a packed parameter buffer as 64-bit words: for three 12-byte shapes (36 bytes)
its last word reads 4 bytes past the data (ASC962, true). The low 4 bytes are the last shape's k, and using them
is fine; before, the whole word was unwritten data and every use of k was an ASC952 (false). Using the 4 bytes
past the data (the high half, by shift, by sign extension or as the whole word) is still ASC952.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

# x holds 3 uint32 (12 bytes): word 1 is x[2] below and 4 padding bytes above; {use} reads from it
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void wordk(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<uint64_t> xGm;
    GlobalTensor<uint32_t> yGm;
    xGm.SetGlobalBuffer((__gm__ uint64_t *)x);
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y);
    uint64_t words[2];
    for (int32_t i = 0; i < 2; i++) {{
        words[i] = xGm.GetValue(i);  // read
    }}
    uint64_t w = words[1];
    uint32_t r = 0;
{use}
    yGm.SetValue(0, r);
}}
"""


def simulate(use: str) -> tuple[object, str]:
    src = KERNEL.format(use=use)
    x = np.array([7, 8, 5], dtype=np.uint32)
    return run(src, {"x": x}, block_dim=1, tiling={"n": 1}, outputs={"y": ((1,), "uint32")}), src


def codes(result: object, code: str) -> list:
    return [d for d in result.findings if d.code == code]


def line_of(src: str, text: str) -> int:
    return next(i for i, ln in enumerate(src.splitlines(), 1) if text in ln)


LOW_USES = {
    "truncation": "    uint32_t k = (uint32_t)w;\n",
    "mask": "    uint32_t k = (uint32_t)(w & 0xFFFFFFFFu);\n",
    "shift up and down": "    uint32_t k = (uint32_t)((w << 32) >> 32);\n",
}


def test_using_only_the_written_low_bytes_is_clean() -> None:
    for how, take in LOW_USES.items():
        # a loop bound, a branch and an output element, all from k
        use = take + "    for (uint32_t j = 0; j < k; j++) { r += 2; }\n    if (k == 5) { r += 1; }\n"
        result, src = simulate(use)
        assert result.completed and not codes(result, "ASC952"), (how, [str(d) for d in result.findings])
        assert result.outputs["y"].tolist() == [11], how
        past = codes(result, "ASC962")
        assert len(past) == 1 and past[0].span.line == line_of(src, "// read"), (how, [str(d) for d in past])


HIGH_USES = {
    "shift down": "    uint32_t h = (uint32_t)(w >> 32);\n",
    "the whole word": "    uint64_t h = w;\n",
    "a sum carrying into the high half": "    uint64_t h = (w + 1) >> 40;\n",
}


def test_using_the_unwritten_high_bytes_is_reported() -> None:
    for how, take in HIGH_USES.items():
        result, src = simulate(take + "    if (h == 3) { r = 1; }  // branch\n")
        hits = codes(result, "ASC952")
        assert len(hits) == 1 and hits[0].span.line == line_of(src, "// branch"), \
            (how, [str(d) for d in result.findings])
        assert f":{line_of(src, '// read')}:" in hits[0].message, hits[0].message
