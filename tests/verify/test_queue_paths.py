"""Which paths the queue analysis follows: tests the lowering keeps correlated."""

from __future__ import annotations


def test_an_if_constexpr_on_an_unknown_trait_goes_the_same_way_each_time() -> None:
    # ops-nn scatter_add: `if constexpr (platform::IsSupportAtomicAdd<T>())` (a header that was not read)
    # picks the queues Init sets up and, tested again in Process, the queues it uses; the path through
    # one arm of the first test and the other arm of the second does not exist
    kernel = """
#include "kernel_operator.h"
#include "../inc/platform.h"
using namespace AscendC;
template <typename T>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        xGm.SetGlobalBuffer((__gm__ T*)x + GetBlockIdx() * 1024, 1024);
        if constexpr (platform::IsSupportAtomicAdd<T>()) {
            pipe.InitBuffer(direct, 1, 4096);
        } else {
            pipe.InitBuffer(staged, 1, 4096);
        }
    }
    __aicore__ inline void Process() {
        if constexpr (platform::IsSupportAtomicAdd<T>()) {
            Copy(direct);
        } else {
            Copy(staged);
        }
    }
    __aicore__ inline void Copy(TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>& q) {
        LocalTensor<T> t = q.template AllocTensor<T>();
        DataCopy(t, xGm, 1024);
        q.EnQue(t);
        t = q.template DeQue<T>();
        DataCopy(xGm, t, 1024);
        q.FreeTensor(t);
    }
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> direct, staged;
    GlobalTensor<T> xGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K<float> op;
    op.Init(x);
    op.Process();
}
"""
    from frontend.pipeline import load_text
    from passes.verify import check_program

    found = [d.code for d in check_program(load_text(kernel, "k.cpp")) if d.is_error]
    assert found == []
    swapped = kernel.replace("Copy(direct);", "Copy(staged);")
    assert [d.code for d in check_program(load_text(swapped, "k.cpp")) if d.is_error] == ["ASC206"]
