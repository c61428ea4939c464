"""Tiling data of a class template of numbers, and tiling arrays of arrays (issue 28; lower_tiling.py).

ops-nn's generated kernels (softplus_v2_grad, bn_infer_grad, fused_mul_apply_momentum, dequantize) read
`GET_TILING_DATA_WITH_STRUCT(TilingData4, td, tiling)` with `using TilingData4 = XTilingData<4>;` and
`template <int64_t kRank> struct XTilingData { float beta; int64_t input_strides[kMaxInputSlots][kRank]; ... }`, then
`td_->input_strides[inp][d]` and `CalcOffset(coord, td_->input_strides[inputIdx], RANK)`. The template was no tiling
struct to the lowering: every field read as a uint32_t (beta's 1.25 became 1) and `strides[s][d]` was a left-out
statement ('indexing a value of type uint32_t', sim_gaps 5 files / 56 instructions); a plain struct's array of
arrays could not be indexed twice either. C lays an array of arrays out row by row ([dcl.array]/9), so the field's
values are one flat list, which the tiling may also give as nested lists."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ascendir.lower.tiling_layout import tiling_slots
from frontend.pipeline import load_text
from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;

constexpr int64_t kSlots = 2;
struct Split {
    int64_t axis;
    int64_t inner;
};

template <int64_t kRank>
struct TD {
    Split split;
    float beta;
    int64_t shape[kRank];
    int64_t strides[kSlots][kRank];
};
using TD4 = TD<4>;

template <int RANK>
class K {
public:
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR z, const TD<RANK> *td)
    {
        td_ = td;
        yGm.SetGlobalBuffer((__gm__ int64_t *)y, 10);
        zGm.SetGlobalBuffer((__gm__ float *)z, 8);
    }
    __aicore__ inline int64_t Sum(const int64_t *row, int n)
    {
        int64_t s = 0;
        for (int d = 0; d < n; d++) {
            s += row[d];
        }
        return s;
    }
    __aicore__ inline void Process()
    {
        for (int s = 0; s < kSlots; s++) {
            for (int d = 0; d < RANK; d++) {
                yGm.SetValue(s * RANK + d, td_->strides[s][d] + td_->shape[d]);
            }
        }
        yGm.SetValue(8, td_->split.axis);
        yGm.SetValue(9, Sum(td_->strides[1], RANK));
        zGm.SetValue(0, td_->beta * 2.0f);
        for (int i = 1; i < 8; i++) {
            zGm.SetValue(i, 0.0f);
        }
    }
private:
    GlobalTensor<int64_t> yGm;
    GlobalTensor<float> zGm;
    const TD<RANK> *td_;
};

extern "C" __global__ __aicore__ void t2(GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(@STRUCT@, td, tiling);
    K<4> k;
    k.Init(y, z, &td);
    k.Process();
}
"""

STRIDES = [[10, 20, 30, 40], [50, 60, 70, 80]]


def _run(tmp_path: Path, struct: str, strides: object) -> tuple[np.ndarray, np.ndarray]:
    path = tmp_path / "t2.cpp"
    path.write_text(SOURCE.replace("@STRUCT@", struct), encoding="utf-8")
    tiling = {"split.axis": 3, "split.inner": 7, "beta": 1.25, "shape": [1, 2, 3, 4], "strides": strides}
    result = run(str(path), {}, chip="950PR", block_dim=1, tiling=tiling,
                 outputs={"y": ((10,), "int64"), "z": ((8,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    return result.outputs["y"], result.outputs["z"]


def test_a_class_template_tiling_struct_through_its_alias(tmp_path: Path) -> None:
    y, z = _run(tmp_path, "TD4", STRIDES)
    # strides[s][d] + shape[d], then split.axis, then the row strides[1] summed in a callee taking a pointer
    np.testing.assert_array_equal(y, [11, 22, 33, 44, 51, 62, 73, 84, 3, 260])
    assert z[0] == 2.5  # beta is a float field, not a uint32_t


def test_the_instance_named_directly_with_the_array_as_one_flat_list(tmp_path: Path) -> None:
    y, _ = _run(tmp_path, "TD<4>", [v for row in STRIDES for v in row])
    np.testing.assert_array_equal(y[:8], [11, 22, 33, 44, 51, 62, 73, 84])


def test_an_array_of_arrays_is_laid_out_row_by_row() -> None:
    program = load_text("#include <cstdint>\nstruct P {\n    uint32_t n;\n    int64_t s[2][3];\n    uint16_t t;\n};\n",
                        "p.h")
    slots, size = tiling_slots(program, "P")
    by_path = {s.path: s for s in slots}
    assert (by_path["s"].offset, by_path["s"].count, by_path["t"].offset, size) == (8, 6, 56, 64)
