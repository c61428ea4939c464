"""PopStackBuffer<T, pos>(tensor): the tensor becomes the UB the TPipe's buffers leave, from the end of the last
one to the end of UB (asc-devkit impl/basic_api/kernel_pop_stack_buffer.h), and the call returns true
(rust_sim/src/system.rs). ops-math diag_flat zeroes its output that way, through library-internal functions on
raw pointers: DuplicateImpl((__ubuf__ int16_t *)pop.GetPhyAddr(), 0, n) and DataCopyUB2GMImpl((__gm__ int16_t
*)gm.GetPhyAddr() + off, (__ubuf__ int16_t *)pop.GetPhyAddr(), {1, blocks, 0, 0}) on a GlobalTensor of another
element type: the calls lower as Duplicate and DataCopy on the tensors, read as int16_t where the casts say so
(ascendir/lower/impl_calls.py), the offset counting int16 elements. Before: PopStackBuffer was ASC958; then
DuplicateImpl / DataCopyUB2GMImpl were unresolved calls (ASC958); then the copy took the int32 tensor as is and
resolved to an L0C overload (ASC959).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pop_fill(GM_ADDR y, GM_ADDR keep, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    GlobalTensor<int32_t> yGm, keepGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 200);
    keepGm.SetGlobalBuffer((__gm__ int32_t *)keep, 256);
    LocalTensor<int32_t> mine = ub.Get<int32_t>();
    Duplicate(mine, (int32_t)5, 256);
    LocalTensor<int16_t> popBuffer;
    bool ret = PopStackBuffer<int16_t, TPosition::LCM>(popBuffer);
    uint32_t popSize = popBuffer.GetSize() >= 128 ? 128 : popBuffer.GetSize();
    DuplicateImpl<int16_t>((__ubuf__ int16_t *)popBuffer.GetPhyAddr(), ret ? 1 : 2, popSize);
    PipeBarrier<PIPE_ALL>();
    uint32_t total = 200 * sizeof(int32_t) / sizeof(int16_t);
    uint32_t round = total / popSize;
    uint32_t tail = total % popSize;
    uint32_t off = 0;
    for (uint32_t i = 0; i < round; ++i) {
        DataCopyUB2GMImpl((__gm__ int16_t *)yGm.GetPhyAddr() + off, (__ubuf__ int16_t *)popBuffer.GetPhyAddr(),
                          {1, static_cast<uint16_t>(popSize * sizeof(int16_t) / 32), 0, 0});
        off += popSize;
    }
    if (tail != 0) {
        DataCopyUB2GMImpl((__gm__ int16_t *)yGm.GetPhyAddr() + off, (__ubuf__ int16_t *)popBuffer.GetPhyAddr(),
                          {1, static_cast<uint16_t>((tail * sizeof(int16_t) + 31) / 32), 0, 0});
    }
    DataCopy(keepGm, mine, 256);
}
"""


def test_pop_stack_buffer_is_the_ub_after_the_pipes_buffers() -> None:
    result = run(KERNEL, {}, block_dim=1, outputs={"y": ((200,), "int32"), "keep": ((256,), "int32")})
    errors = [f for f in result.findings if f.is_error]
    assert errors == [], errors
    # each int32 is two int16 ones (ret is true): 0x00010001; the 200 int32 are 3 rounds of 128 int16 and a tail
    np.testing.assert_array_equal(result.outputs["y"], np.full(200, 0x00010001, np.int32))
    # the popped space starts past the TBuf: its data is untouched
    np.testing.assert_array_equal(result.outputs["keep"], np.full(256, 5, np.int32))
