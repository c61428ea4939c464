"""Tensor lists (dynamic inputs and outputs) on the simulator.

A list given for one input or output reaches the kernel as the runtime lays it out: one GM address holding a
descriptor (the byte offset of its pointer table, each tensor's dims, then the tensors' addresses), the tensors
themselves in GM buffers of their own. The kernel reads the table and turns the words back into pointers
(`reinterpret_cast<__gm__ T*>(word)`), which the simulator decodes into those buffers.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run
from passes.sim.tensor_list import GM_ADDRESS_BASE, GM_ADDRESS_STRIDE, descriptor, gm_address

# the pointer table read by hand, as NPUKernelBench's foreach kernels do (their GetTensorAddr)
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline __gm__ half *TensorAt(GM_ADDR list, uint32_t i)
{
    __gm__ uint64_t *words = reinterpret_cast<__gm__ uint64_t *>(list);
    uint64_t tableOffset = *words;
    __gm__ uint64_t *table = words + (tableOffset >> 3);
    return reinterpret_cast<__gm__ half *>(*(table + i));
}

extern "C" __global__ __aicore__ void twice(GM_ADDR xs, GM_ADDR ys, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 64 * sizeof(half));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(half));
    __gm__ uint64_t *words = reinterpret_cast<__gm__ uint64_t *>(xs);
    for (uint32_t t = 0; t < td.count; t++) {
        uint64_t n = *(words + 2 + 2 * t);  // each tensor is 1-D: its header, then its one dim
        GlobalTensor<half> xGm, yGm;
        xGm.SetGlobalBuffer(TensorAt(xs, t), n);
        yGm.SetGlobalBuffer(TensorAt(ys, t), n);
        LocalTensor<half> a = inQ.AllocTensor<half>();
        DataCopy(a, xGm, n);
        inQ.EnQue(a);
        a = inQ.DeQue<half>();
        LocalTensor<half> b = outQ.AllocTensor<half>();
        Muls(b, a, (half)2.0, n);
        outQ.EnQue(b);
        inQ.FreeTensor(a);
        b = outQ.DeQue<half>();
        DataCopy(yGm, b, n);
        outQ.FreeTensor(b);
    }
}
"""


def test_the_descriptor_is_the_runtimes_layout() -> None:
    words = descriptor([(2, 3), (5,)], [7, 8])
    # the table's offset in bytes (6 words precede it), a header per tensor (dim count, its index in the high
    # half) followed by its dims, then the tensors' addresses
    assert list(words) == [6 * 8, 2, 2, 3, 1 | (1 << 32), 5, gm_address(7), gm_address(8)]
    assert gm_address(3, 16) == GM_ADDRESS_BASE + 3 * GM_ADDRESS_STRIDE + 16


def test_a_kernel_reads_and_writes_tensor_lists() -> None:
    xs = [np.arange(1, 33, dtype=np.float16), np.arange(100, 164, dtype=np.float16)]
    result = run(KERNEL, {"xs": xs}, block_dim=1, tiling={"count": 2},
                 outputs={"ys": [((32,), "float16"), ((64,), "float16")]})
    assert not result.errors, result.errors
    ys = result.outputs["ys"]
    assert isinstance(ys, list) and len(ys) == 2
    for x, y in zip(xs, ys):
        np.testing.assert_array_equal(y, x * 2)


def test_a_list_tensor_is_bounds_checked_on_its_own() -> None:
    # the second tensor holds 16 elements, the kernel copies 64: past its 512-byte allocation, ASC950
    xs = [np.ones(32, dtype=np.float16), np.ones(16, dtype=np.float16)]
    src = KERNEL.replace("uint64_t n = *(words + 2 + 2 * t);", "uint64_t n = 32 + 32 * t;").replace(
        "xGm.SetGlobalBuffer(TensorAt(xs, t), n);", "xGm.SetGlobalBuffer(TensorAt(xs, t) + 256 * t, n);")
    result = run(src, {"xs": xs}, block_dim=1, tiling={"count": 2},
                 outputs={"ys": [((32,), "float16"), ((64,), "float16")]})
    assert any(f.code == "ASC950" and "xs[1]" in f.message for f in result.errors), result.findings


def test_a_plain_tensor_where_a_list_is_read_is_no_pointer() -> None:
    # a kernel that reads a tensor list given a plain tensor: the word it takes for an address is none (ASC959)
    x = np.array([16, 32, 0xDEADBEEF, 0], dtype=np.uint64)
    result = run(KERNEL, {"xs": x}, block_dim=1, tiling={"count": 1}, outputs={"ys": [((32,), "float16")]})
    assert any(f.code == "ASC959" and "no tensor of the launch" in f.message for f in result.errors), result.findings


POINTER_AS_INTEGER = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void shift(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    uint64_t address = (uint64_t)x + 4 * sizeof(int32_t);   // the address as an integer, four elements on
    __gm__ int32_t *from = reinterpret_cast<__gm__ int32_t *>(address);
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 1);
    yGm.SetValue(0, *from);
}
"""


def test_a_pointer_survives_a_round_trip_through_an_integer() -> None:
    x = np.arange(10, 18, dtype=np.int32)
    result = run(POINTER_AS_INTEGER, {"x": x}, block_dim=1, outputs={"y": ((1,), "int32")})
    assert not result.errors, result.errors
    assert result.outputs["y"][0] == 14


# the same through AscendC's ListTensorDesc (kernel_operator_list_tensor_intf.h)
LIST_TENSOR_DESC = """
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
using namespace AscendC;

class Twice {
public:
    __aicore__ inline void Init(GM_ADDR xs, GM_ADDR ys) {
        inList.Init(xs);
        outList = ListTensorDesc(reinterpret_cast<__gm__ void *>(ys));
        pipe.InitBuffer(inQ, 1, 64 * sizeof(half));
        pipe.InitBuffer(outQ, 1, 64 * sizeof(half));
    }
    __aicore__ inline void Process(GM_ADDR ys) {
        ListTensorDesc outs(reinterpret_cast<__gm__ void *>(ys));
        for (uint32_t t = 0; t < inList.GetSize() && t < outList.GetSize(); t++) {
            GlobalTensor<half> xGm, yGm;
            xGm.SetGlobalBuffer(inList.GetDataPtr<half>(t), 32);
            yGm.SetGlobalBuffer(outs.GetDataPtr<half>(t), 32);
            LocalTensor<half> a = inQ.AllocTensor<half>();
            DataCopy(a, xGm, 32);
            inQ.EnQue(a);
            a = inQ.DeQue<half>();
            LocalTensor<half> b = outQ.AllocTensor<half>();
            Muls(b, a, (half)2.0, 32);
            outQ.EnQue(b);
            inQ.FreeTensor(a);
            b = outQ.DeQue<half>();
            DataCopy(yGm, b, 32);
            outQ.FreeTensor(b);
        }
    }
private:
    ListTensorDesc inList;
    ListTensorDesc outList;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
};

extern "C" __global__ __aicore__ void twice(GM_ADDR xs, GM_ADDR ys, GM_ADDR workspace, GM_ADDR tiling)
{
    Twice op;
    op.Init(xs, ys);
    op.Process(ys);
}
"""


def test_list_tensor_desc_reads_the_descriptor() -> None:
    xs = [np.arange(k, k + 32, dtype=np.float16) for k in (0, 100, 200)]
    result = run(LIST_TENSOR_DESC, {"xs": xs}, block_dim=1, outputs={"ys": [((32,), "float16")] * 3})
    assert not result.errors, result.errors
    for x, y in zip(xs, result.outputs["ys"]):
        np.testing.assert_array_equal(y, x * 2)

