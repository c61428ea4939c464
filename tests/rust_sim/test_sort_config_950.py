"""The Ascend 950's Sort with a SortConfig template argument (issue 28, the sim_gaps sweep: ops-nn's arch35 index
kernels, scatter_add / scatter_nd_add / index_fill / unsorted_segment_sum ..., sort their indices this way). Sort.md
("带SortConfig"): calCount values sorted ascending, or descending with isDescend, stably (equal values keep their
order); dstIndex gets each value's position (uint32, from 0), or srcIndex's element there; RADIX_SORT (the default)
takes integers of 8 to 64 bits, half, bfloat16_t and float. Before: 'AscendC::Sort (overload ''), not in the
catalog', ASC958 at the first call and the outputs unwritten. MERGE_SORT, whose dst layout the page does not give,
is reported."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

static constexpr SortConfig ascending{SortType::RADIX_SORT, false};
constexpr SortConfig descending = {SortType::RADIX_SORT, true};

extern "C" __global__ __aicore__ void sort950(GM_ADDR x, GM_ADDR f, GM_ADDR k, GM_ADDR v, GM_ADDR i, GM_ADDR w,
                                              GM_ADDR u, GM_ADDR s, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, vGm, uGm;
    GlobalTensor<float> fGm, wGm;
    GlobalTensor<uint32_t> kGm, iGm, sGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 64);
    fGm.SetGlobalBuffer((__gm__ float *)f, 64);
    kGm.SetGlobalBuffer((__gm__ uint32_t *)k, 64);
    vGm.SetGlobalBuffer((__gm__ int32_t *)v, 64);
    uGm.SetGlobalBuffer((__gm__ int32_t *)u, 64);
    iGm.SetGlobalBuffer((__gm__ uint32_t *)i, 64);
    wGm.SetGlobalBuffer((__gm__ float *)w, 64);
    sGm.SetGlobalBuffer((__gm__ uint32_t *)s, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, fb, kb, vb, ib, wb, ub, sb, tmpb;
    pipe.InitBuffer(xb, 64 * sizeof(int32_t));
    pipe.InitBuffer(fb, 64 * sizeof(float));
    pipe.InitBuffer(kb, 64 * sizeof(uint32_t));
    pipe.InitBuffer(vb, 64 * sizeof(int32_t));
    pipe.InitBuffer(ib, 64 * sizeof(uint32_t));
    pipe.InitBuffer(wb, 64 * sizeof(float));
    pipe.InitBuffer(ub, 64 * sizeof(int32_t));
    pipe.InitBuffer(sb, 64 * sizeof(uint32_t));
    pipe.InitBuffer(tmpb, 8192);
    LocalTensor<int32_t> xl = xb.Get<int32_t>(), vl = vb.Get<int32_t>(), ul = ub.Get<int32_t>();
    LocalTensor<float> fl = fb.Get<float>(), wl = wb.Get<float>();
    LocalTensor<uint32_t> kl = kb.Get<uint32_t>(), il = ib.Get<uint32_t>(), sl = sb.Get<uint32_t>();
    LocalTensor<uint8_t> shared = tmpb.Get<uint8_t>();
    DataCopy(xl, xGm, 64);
    DataCopy(fl, fGm, 64);
    DataCopy(kl, kGm, 64);
    Duplicate(wl, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    // ascending int32 with its positions, through a sharedTmpBuffer (ops-nn uss_deterministic's form)
    Sort<int32_t, false, ascending>(vl, il, xl, shared, 64);
    // descending float values alone, the framework's temporary space
    Sort<float, false, descending>(wl, fl, 60);
    // the default config (radix, ascending) with a source index carried along
    Sort<int32_t, uint32_t>(ul, sl, xl, kl, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(vGm, vl, 64);
    DataCopy(iGm, il, 64);
    DataCopy(wGm, wl, 64);
    DataCopy(uGm, ul, 64);
    DataCopy(sGm, sl, 64);
}
"""


def _simulate(tmp_path: Path, source: str = KERNEL):
    path = tmp_path / "sort950.cpp"
    path.write_text(source, encoding="utf-8")
    rng = np.random.default_rng(0)
    x = rng.integers(-20, 20, 64).astype(np.int32)  # many equal keys: the order among them is the input's
    f = rng.standard_normal(64).astype(np.float32)
    f[5] = f[9]
    k = (1000 + np.arange(64)).astype(np.uint32)
    outputs = {"v": ((64,), "int32"), "i": ((64,), "uint32"), "w": ((64,), "float32"), "u": ((64,), "int32"),
               "s": ((64,), "uint32")}
    return x, f, k, run(str(path), {"x": x, "f": f, "k": k}, chip="950PR", block_dim=1, outputs=outputs)


def test_sort_config_forms_sort_stably_with_positions_or_source_indices(tmp_path: Path) -> None:
    x, f, k, result = _simulate(tmp_path)
    assert result.ok, [str(d) for d in result.findings]
    order = np.argsort(x, kind="stable")
    np.testing.assert_array_equal(result.outputs["v"], x[order])
    np.testing.assert_array_equal(result.outputs["i"], order.astype(np.uint32))
    # descending and stable: equal values keep their input order (a stable sort of the negated values)
    down = np.argsort(-f[:60], kind="stable")
    np.testing.assert_array_equal(result.outputs["w"][:60], f[:60][down])
    np.testing.assert_array_equal(result.outputs["u"], x[order])
    np.testing.assert_array_equal(result.outputs["s"], k[order])


def test_merge_sort_is_reported_not_guessed(tmp_path: Path) -> None:
    source = KERNEL.replace("{SortType::RADIX_SORT, true}", "{SortType::MERGE_SORT, true}")
    _, _, _, result = _simulate(tmp_path, source)
    assert any(d.code == "ASC958" and "MERGE_SORT" in d.message for d in result.findings), \
        [str(d) for d in result.findings]
