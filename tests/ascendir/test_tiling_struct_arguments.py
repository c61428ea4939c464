"""A struct inside tiling data whose layout the kernel file does not hold, passed to an API that takes such a
struct (ops-nn's `AscendC::SoftMax<T>(y, y, tilingData->softmaxTilingData, shapeInfo)`)."""

from __future__ import annotations

from frontend.pipeline import load_text
from passes.verify import check_program

KERNEL = """\
#include "kernel_operator.h"
#include "softmax_tiling.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void softmax(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(SoftmaxCustomTilingData, tilingData, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> y = buf.Get<float>();
    SoftMaxShapeInfo shapeInfo{8, 64, 8, 64};
    AscendC::SoftMax<float, false, false>(y, y, tilingData.softmaxTilingData, shapeInfo);
}
"""


def test_a_nested_tiling_struct_of_unknown_layout_matches_a_struct_parameter() -> None:
    program = load_text(KERNEL, "softmax.cpp")
    assert [d.code for d in check_program(program) if d.is_error] == []


ARRAY_FIELDS = """\
#include "kernel_operator.h"
#include "pool_tiling.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pool(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    uint64_t depth = tilingData.inputShapes[0];
    uint64_t width = tilingData.inputShapes[2] * tilingData.outShapes[1];
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    pipe.InitBuffer(inQueue, 1, 1024);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, depth * width);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 256);
    inQueue.EnQue(xLocal);
    LocalTensor<float> again = inQueue.DeQue<float>();
    inQueue.FreeTensor(again);
    Adds(again, again, 1.0f, 256);
}
"""


def test_an_array_field_of_a_tiling_struct_out_of_reach_is_read_element_wise() -> None:
    """`tilingData.inputShapes[0]` where the struct (TILING_DATA_FIELD_DEF_ARR in op_host) is not included:
    an indexed tiling_field read, not a gap that leaves the rest of the kernel half-checked."""
    from ascendir.dialects import ascendc as asc
    from ascendir.lower import lower_program

    program = load_text(ARRAY_FIELDS, "pool.cpp")
    reads = [(op.field.data, op.index is not None) for op in lower_program(program).module.walk()
             if isinstance(op, asc.TilingFieldOp)]
    assert {("inputShapes", True), ("outShapes", True)} <= set(reads)
    found = [(d.code, d.span.line) for d in check_program(program) if d.code != "ASC002"]
    assert found == [("ASC201", 20)]


MEMBER_COPY = """\
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

struct MmTilingData {
    TCubeTiling cubeTilingData;
    uint32_t tileNum;
};

class Kernel {
public:
    __aicore__ inline void Init(GM_ADDR y, const TCubeTiling &tiling)
    {
        this->tiling = tiling;
        yGm.SetGlobalBuffer((__gm__ float *)y, tiling.M * tiling.N);
    }
    __aicore__ inline void Process()
    {
        yGm.SetValue(0, static_cast<float>(tiling.N));
    }
private:
    GlobalTensor<float> yGm;
    TCubeTiling tiling;
};

extern "C" __global__ __aicore__ void mm(GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(MmTilingData, tilingData, tiling);
    Kernel op;
    op.Init(y, tilingData.cubeTilingData);
    op.Process();
}
"""


def test_a_nested_tiling_struct_stored_in_a_member_keeps_its_fields() -> None:
    """`this->tiling = tiling;` with `tiling` a `const TCubeTiling &` bound to `tilingData.cubeTilingData`: the
    member holds the nested struct (tiling_field "cubeTilingData"), not the root struct seen as a TCubeTiling,
    so a later `tiling.N` reads cubeTilingData.N (kernelhive gemm_add_relu read N as a missing field)."""
    from xdsl.dialects.builtin import UnrealizedConversionCastOp

    from ascendir.dialects import ascendc as asc
    from ascendir.lower import lower_program

    module = lower_program(load_text(MEMBER_COPY, "mm.cpp")).module
    casts = [op for op in module.walk() if isinstance(op, UnrealizedConversionCastOp)
             and isinstance(op.operands[0].type, asc.TilingType)]
    assert casts == []
    nested = [op.field.data for op in module.walk() if isinstance(op, asc.TilingFieldOp)
              and isinstance(op.result.type, asc.TilingType)]
    assert nested == ["cubeTilingData"]
