"""AscendC::SoftmaxFlashV2 on the simulator, in the forms NPUKernelBench's large-head-dim flash attention answer
calls it: blocks of columns of the same rows, the first with isUpdate false and the next with isUpdate true, the
same tensors passed as dst and src and as the running sum / max in and out, a sharedTmpBuffer, isReuseSource,
isBasicBlock where the tile is whole repeats, no SoftMaxShapeInfo (the shape then comes from the source tensor's
ShapeInfo, its original shape saying which columns are real). Per the API page: the first block gives
M = rowmax(x), dst = exp(x - M), S = rowsum(dst); each later one M' = max(M, rowmax(x)), dst = exp(x - M'),
E = exp(M - M'), S' = E * S + rowsum(dst). Statistics fill one 32-byte block per row. Checked against numpy for
float, half with half statistics and half with float statistics, a row count that is no multiple of 8 and
columns past the original length."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
constexpr SoftmaxConfig CFG = {{false}};
extern "C" __global__ __aicore__ void flash_k(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR max, GM_ADDR expmax,
                                              GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    uint32_t n = td.rows * td.cols;
    uint32_t statN = td.rows * (32 / sizeof({s}));
    uint32_t expN = td.rows * (32 / sizeof({t}));
    GlobalTensor<{t}> xGm, yGm, emGm;
    GlobalTensor<{s}> sumGm, maxGm;
    xGm.SetGlobalBuffer((__gm__ {t} *)x, td.blocks * n);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.blocks * n);
    sumGm.SetGlobalBuffer((__gm__ {s} *)sum, statN);
    maxGm.SetGlobalBuffer((__gm__ {s} *)max, statN);
    emGm.SetGlobalBuffer((__gm__ {t} *)expmax, expN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf, sumBuf, maxBuf, expBuf, tmpBuf;
    pipe.InitBuffer(srcBuf, n * sizeof({t}));
    pipe.InitBuffer(sumBuf, td.rows * 32);
    pipe.InitBuffer(maxBuf, td.rows * 32);
    pipe.InitBuffer(expBuf, td.rows * 32);
    pipe.InitBuffer(tmpBuf, td.tmpBytes);
    LocalTensor<{t}> src = srcBuf.Get<{t}>();
    LocalTensor<{s}> sumUb = sumBuf.Get<{s}>();
    LocalTensor<{s}> maxUb = maxBuf.Get<{s}>();
    LocalTensor<{t}> expUb = expBuf.Get<{t}>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    for (uint32_t blk = 0; blk < td.blocks; blk++) {{
        DataCopy(src, xGm[blk * n], n);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        uint32_t shape[] = {{td.rows, td.cols}};
        uint32_t oriShape[] = {{td.rows, td.oriCols}};
        src.SetShapeInfo(ShapeInfo(2, shape, 2, oriShape, DataFormat::ND));
        {call}
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(yGm[blk * n], src, n);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }}
    DataCopy(sumGm, sumUb, statN);
    DataCopy(maxGm, maxUb, statN);
    DataCopy(emGm, expUb, expN);
}}
"""

# the answer's two calls: the first block, then the running update (its SoftMaxTiling comes from
# SoftMaxFlashV2TilingFuncImpl; a default one here: the library's default config checks the tiling against the
# tensor's shape and recomputes it)
TENSOR_SHAPE = """
        SoftMaxTiling tl;
        if (blk == 0) {{
            SoftmaxFlashV2<{t}, false, true, {basic}>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl);
        }} else {{
            SoftmaxFlashV2<{t}, true, true, {basic}>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl);
        }}"""

# the answer's calls as written: SoftmaxConfig{false} (the tiling is used as given), the tiling computed in the
# kernel by SoftMaxFlashV2TilingFuncImpl for the rows and aligned columns, isBasicBlock where rows are a multiple
# of 8 and the real columns of 64 (the answer's IsBasicBlockInSoftMax)
KERNEL_TILING = """
        bool basic = td.rows % 8 == 0 && td.oriCols % 64 == 0;
        SoftMaxTiling tl = SoftMaxFlashV2TilingFuncImpl(td.rows, td.cols, sizeof({t}), sizeof({s}),
                                                        tmp.GetSize() / sizeof(float), blk != 0, basic);
        if (blk == 0) {{
            if (basic) {{
                SoftmaxFlashV2<{t}, false, true, true, false, CFG>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl);
            }} else {{
                SoftmaxFlashV2<{t}, false, true, false, false, CFG>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl);
            }}
        }} else {{
            if (basic) {{
                SoftmaxFlashV2<{t}, true, true, true, false, CFG>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl);
            }} else {{
                SoftmaxFlashV2<{t}, true, true, false, false, CFG>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl);
            }}
        }}"""

# the documented general form: a SoftMaxShapeInfo argument, no sharedTmpBuffer
SHAPE_ARGUMENT = """
        SoftMaxTiling tl;
        SoftMaxShapeInfo info = {{td.rows, td.cols, td.rows, td.oriCols}};
        if (blk == 0) {{
            SoftmaxFlashV2<{t}, false>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tl, info);
        }} else {{
            SoftmaxFlashV2<{t}, true>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tl, info);
        }}"""

NP = {"float": np.float32, "half": np.float16}


def reference(x: np.ndarray, ori: int, stat: type) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The API page's formulas, in float, each stored result rounded to its tensor's type (statistics of type
    `stat` are read back rounded by the next block)."""
    t = x.dtype.type
    ys = []
    m = s = e = None
    for block in x.astype(np.float32):
        row_max = block[:, :ori].max(axis=1)
        new_m = row_max if m is None else np.maximum(m, row_max)
        d = np.exp(block - new_m[:, None])
        row_sum = d[:, :ori].sum(axis=1)
        if m is None:
            s = row_sum
        else:
            e = np.exp(m - new_m)
            s = e * s + row_sum
        m = new_m.astype(stat).astype(np.float32)
        s = s.astype(stat).astype(np.float32)
        ys.append(d.astype(t))
    return np.stack(ys), m, s, e


def simulate(tmp_path: Path, t: str, s: str, rows: int, cols: int, ori: int, form: str, basic: bool = False,
             blocks: int = 3, tmp_bytes: int = 64 * 1024) -> tuple[object, np.ndarray]:
    call = form.format(t=t, s=s, basic="true" if basic else "false")
    src = tmp_path / "flash_k.cpp"
    src.write_text(KERNEL.format(t=t, s=s, call=call), encoding="utf-8")
    dt, st = NP[t], NP[s]
    x = np.random.default_rng(11).uniform(-3, 3, (blocks, rows, cols)).astype(dt)
    per_s, per_t = 32 // np.dtype(st).itemsize, 32 // np.dtype(dt).itemsize
    result = run(str(src), {"x": x.reshape(-1)}, block_dim=1,
                 tiling={"rows": rows, "cols": cols, "oriCols": ori, "blocks": blocks, "tmpBytes": tmp_bytes},
                 outputs={"y": ((blocks * rows * cols,), np.dtype(dt).name),
                          "sum": ((rows * per_s,), np.dtype(st).name), "max": ((rows * per_s,), np.dtype(st).name),
                          "expmax": ((rows * per_t,), np.dtype(dt).name)})
    return result, x


CASES = [
    # (T, statistics type, rows, cols, oriCols, isBasicBlock)
    ("float", "float", 8, 64, 64, True),  # the answer's basic-block branch
    ("float", "float", 5, 40, 35, False),  # a tail of rows, columns past the original length
    ("half", "half", 3, 32, 30, False),
    ("half", "float", 5, 48, 41, False),  # the half/float form: float sum and max, half expMax
]


@pytest.mark.parametrize("form", ["tensor_shape", "kernel_tiling"])
@pytest.mark.parametrize(("t", "s", "rows", "cols", "ori", "basic"), CASES)
def test_running_blocks_against_numpy(tmp_path: Path, t: str, s: str, rows: int, cols: int, ori: int,
                                      basic: bool, form: str) -> None:
    call = TENSOR_SHAPE if form == "tensor_shape" else KERNEL_TILING
    result, x = simulate(tmp_path, t, s, rows, cols, ori, call, basic)
    assert result.ok, [str(d) for d in result.findings]
    y, m, sums, e = reference(x, ori, NP[s])
    half = t == "half"
    out = result.outputs
    np.testing.assert_allclose(out["y"].reshape(y.shape).astype(np.float32), y.astype(np.float32),
                               rtol=2e-3 if half else 2e-6, atol=1e-6)
    per_s, per_t = 32 // np.dtype(NP[s]).itemsize, 32 // np.dtype(NP[t]).itemsize
    stat_tol = 2e-3 if s == "half" else 2e-6
    np.testing.assert_allclose(out["max"].astype(np.float32), np.repeat(m, per_s), rtol=stat_tol)
    np.testing.assert_allclose(out["sum"].astype(np.float32), np.repeat(sums, per_s), rtol=stat_tol)
    np.testing.assert_allclose(out["expmax"].astype(np.float32), np.repeat(e.astype(NP[t]), per_t).astype(np.float32),
                               rtol=2e-3 if half else 2e-6)


def test_softmax_shape_info_argument_without_a_shared_buffer(tmp_path: Path) -> None:
    result, x = simulate(tmp_path, "float", "float", 4, 32, 29, SHAPE_ARGUMENT, tmp_bytes=32)
    assert result.ok, [str(d) for d in result.findings]
    y, m, sums, _ = reference(x, 29, np.float32)
    np.testing.assert_allclose(result.outputs["y"].reshape(y.shape), y, rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(result.outputs["sum"], np.repeat(sums, 8), rtol=2e-6)
    np.testing.assert_allclose(result.outputs["max"], np.repeat(m, 8), rtol=2e-6)


def test_a_shared_buffer_below_the_minimum_is_an_error_at_the_call(tmp_path: Path) -> None:
    # float rows, not basic blocks: GetSoftMaxFlashV2MinTmpSize's minimum is (8 + 64) floats = 288 bytes
    result, _ = simulate(tmp_path, "float", "float", 5, 40, 40, TENSOR_SHAPE, tmp_bytes=256)
    hits = [d for d in result.findings if d.code == "ASC959" and "SoftmaxFlashV2" in d.message]
    assert hits and hits[0].severity == "error" and "288 bytes" in hits[0].message, [str(d) for d in result.findings]
    assert "SoftmaxFlashV2<" in (tmp_path / "flash_k.cpp").read_text().splitlines()[hits[0].span.line - 1]


def test_an_update_reads_the_running_max_and_sum(tmp_path: Path) -> None:
    # isUpdate true on the first block: inMax / inSum were never written, so neither are the results that
    # depend on them (reported where they are copied out)
    update_first = """
        SoftMaxTiling tl;
        SoftmaxFlashV2<{t}, true, true, {basic}>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl);"""
    result, _ = simulate(tmp_path, "float", "float", 4, 32, 32, update_first, blocks=1)
    unwritten = {d.message.split("'")[1] for d in result.findings if d.code == "ASC952"}
    assert {"y", "sum", "max", "expmax"} <= unwritten, [str(d) for d in result.findings]


def test_a_shape_past_any_memory_is_an_error_not_a_crash(tmp_path: Path) -> None:
    # 2^31 x 2^31 floats: the element count times 4 bytes wraps a 64-bit size to 0
    src = tmp_path / "huge_k.cpp"
    src.write_text("""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void huge_k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> t = buf.Get<float>();
    LocalTensor<uint8_t> tmp = buf.Get<uint8_t>();
    uint32_t shape[] = {2147483648u, 2147483648u};
    t.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    SoftMaxTiling tl;
    SoftmaxFlashV2<float, false, true>(t, t, t, t, t, t, t, tmp, tl);
}
""", encoding="utf-8")
    result = run(str(src), {"x": np.zeros(8, np.float32)}, block_dim=1, tiling={})
    hits = [d for d in result.findings if d.code == "ASC959" and "SoftmaxFlashV2" in d.message]
    assert hits, [str(d) for d in result.findings]
