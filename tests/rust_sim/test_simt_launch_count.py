"""A SIMT launch's thread count is x * y * z of its dim3, not wrapped (ascendir/lower/simt_launch._thread_count).
The lowering multiplied the unsigned extents as u32, so dim3(65536, 65536) made 2^32 mod 2^32 = 0 threads: the
launch was skipped with no finding, and the simulator's limit (more than 2048 threads is ASC959, rust_sim/src/simt.rs
begin) never saw the count asked for (issue 28, review of session 16). Now the count is exact, and an over-limit
launch is ASC959 at its line, whether its extents are constants or read from the tiling data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
__simt_vf__ __aicore__ LAUNCH_BOUND(32) inline void Fill(__gm__ int32_t* out)
{
    out[threadIdx.x + threadIdx.y * blockDim.x] = 7;
}
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    asc_vf_call<Fill>(dim3(DIMS), (__gm__ int32_t *)y);
}
"""


def _run(tmp_path: Path, dims: str, n: int):  # type: ignore[no-untyped-def]
    src = tmp_path / "k.cpp"
    src.write_text(SOURCE.replace("DIMS", dims), encoding="utf-8")
    return run(str(src), {}, chip="950PR", block_dim=1, tiling={"n": n}, outputs={"y": ((4,), "int32")})


@pytest.mark.parametrize("dims, threads", [("65536, 65536", 2 ** 32), ("td.n, td.n", 2 ** 32),
                                           ("65536u, 65536u, 2u", 2 ** 33), ("td.n, 2u", 2 ** 17)])
def test_a_launch_whose_count_wraps_in_32_bits_is_asc959(dims: str, threads: int, tmp_path: Path) -> None:
    result = _run(tmp_path, dims, 65536)
    hits = [d for d in result.findings if d.code == "ASC959" and "SIMT launch" in d.message]
    assert not result.ok and hits, [str(d) for d in result.findings]
    assert f"{threads} threads" in hits[0].message and hits[0].span is not None and hits[0].span.line == 10


@pytest.mark.parametrize("dims", ["2, 2", "td.n, td.n"])
def test_a_launch_within_the_limit_runs_each_thread(dims: str, tmp_path: Path) -> None:
    result = _run(tmp_path, dims, 2)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [7, 7, 7, 7])
