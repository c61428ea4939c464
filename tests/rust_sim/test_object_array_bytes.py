"""Words written into an array of objects through a pointer of another type land in the objects' members by their C
layout (ascendir/lower/object_layout.py), and `sizeof` of such a class is its C size. catlass's grouped kernels
unpack the per-group shapes and layouts the host copied from std::vectors this way:

    GemmCoord problemShapeList[MAX_TENSOR_COUNT];
    for (uint32_t i = 0; i * sizeof(uint64_t) < len * sizeof(T); ++i)
        reinterpret_cast<uint64_t *>(dst)[i] = reinterpret_cast<__gm__ uint64_t *>(src)[i];

Before, T was not deduced from the array argument (sizeof(T) unknown: the loop never ran) and the cast array took
no write: every member stayed 0, with no finding (issue 29, 08_grouped_matmul / 16_group_gemm's kernels). The
struct sizes are C's: a struct of `uint32_t idx[3]` is 12 bytes (the tiling size rule gave it 16, aligning the
array as a whole to 8).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
struct Coord3 { uint32_t idx[3]; };
template <class T> struct Base { T tag; };
struct Layout2 : Base<uint16_t> { uint32_t shape[2]; int64_t stride[2]; };
template <class T>
__aicore__ inline void Unpack(T *const dst, GM_ADDR src, uint32_t len)
{
    for (uint32_t i = 0; i * sizeof(uint64_t) < len * sizeof(T); ++i) {
        reinterpret_cast<uint64_t *>(dst)[i] = reinterpret_cast<__gm__ uint64_t *>(src)[i];
    }
}
extern "C" __global__ __aicore__ void unpack(GM_ADDR shapes, GM_ADDR layouts, GM_ADDR y)
{
    Coord3 coords[8];
    Layout2 layouts_[8];
    Unpack(coords, shapes, 4);
    Unpack(layouts_, layouts, 3);
    AscendC::GlobalTensor<int64_t> yg;
    yg.SetGlobalBuffer((__gm__ int64_t *)y, 21);
    for (uint32_t i = 0; i < 4; ++i) {
        yg.SetValue(i * 2, coords[i].idx[0]);
        yg.SetValue(i * 2 + 1, coords[i].idx[2]);
    }
    for (uint32_t i = 0; i < 3; ++i) {
        yg.SetValue(8 + i * 4, layouts_[i].tag);
        yg.SetValue(8 + i * 4 + 1, layouts_[i].shape[1]);
        yg.SetValue(8 + i * 4 + 2, layouts_[i].stride[0]);
        yg.SetValue(8 + i * 4 + 3, layouts_[i].stride[1]);
    }
    yg.SetValue(20, sizeof(Coord3) * 100 + sizeof(Layout2));
}
"""

# numpy's aligned structured dtypes follow C's layout rules
LAYOUT2 = np.dtype([("tag", "<u2"), ("shape", "<u4", 2), ("stride", "<i8", 2)], align=True)


def test_words_written_through_a_cast_fill_the_members_by_their_c_layout() -> None:
    shapes = np.arange(1, 13, dtype=np.uint32)  # 4 x {3 x uint32}: 48 bytes, 6 words
    layouts = np.zeros(3, dtype=LAYOUT2)  # 3 x 32 bytes (tag, 2 bytes of padding, shape at 4, stride at 16)
    layouts["tag"] = [7, 8, 9]
    layouts["shape"] = [[10, 20], [11, 21], [12, 22]]
    layouts["stride"] = [[-100, 1 << 40], [-101, 2], [-102, 3]]
    raw = np.frombuffer(layouts.tobytes(), np.uint8).copy()
    result = run(KERNEL, {"shapes": shapes, "layouts": raw}, chip="910B2", block_dim=1,
                 outputs={"y": ((21,), "int64")})
    assert not [f for f in result.findings if f.severity.name == "ERROR"], result.findings
    y = result.outputs["y"]
    assert [list(y[i * 2:i * 2 + 2]) for i in range(4)] == [[1, 3], [4, 6], [7, 9], [10, 12]]
    assert [list(y[8 + i * 4:8 + i * 4 + 4]) for i in range(3)] == [
        [7, 20, -100, 1 << 40], [8, 21, -101, 2], [9, 22, -102, 3]]
    assert y[20] == 12 * 100 + LAYOUT2.itemsize  # sizeof(Coord3) 12, sizeof(Layout2) 32


FLOATS = """
#include "kernel_operator.h"
template <class T>
__aicore__ inline void Unpack(T *const dst, GM_ADDR src, uint32_t len)
{
    for (uint32_t i = 0; i * sizeof(uint64_t) < len * sizeof(T); ++i) {
        reinterpret_cast<uint64_t *>(dst)[i] = reinterpret_cast<__gm__ uint64_t *>(src)[i];
    }
}
extern "C" __global__ __aicore__ void unpack(GM_ADDR alpha, GM_ADDR y)
{
    float alphaList[8];
    Unpack(alphaList, alpha, 4);
    AscendC::GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        yg.SetValue(i, alphaList[i] * 2);
    }
}
"""


def test_words_written_into_an_array_of_floats_are_its_elements_bits() -> None:
    """catlass's group_gemm unpacks its per-group alpha and beta (`float alphaList[N]`) the same way: before, the
    words never reached the array and the epilogue scaled by whatever it held (16_group_gemm's output inf / nan)."""
    alpha = np.array([0.5, -1.25, 3.0, 1e-3], dtype=np.float32)
    result = run(FLOATS, {"alpha": alpha}, chip="910B2", block_dim=1, outputs={"y": ((4,), "float32")})
    assert not [f for f in result.findings if f.severity.name == "ERROR"], result.findings
    np.testing.assert_array_equal(result.outputs["y"], alpha * 2)
