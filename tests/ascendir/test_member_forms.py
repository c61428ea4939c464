"""Member forms of vendor kernels that the lowering follows instead of giving up on the function (ASC103):
a tensor's operator() (`xLocal(i)`, `this->reduceRes(0) = v`) and a method specialized for one
instantiation of its class template (`template <> void K<float>::CopyIn(...)`)."""

from __future__ import annotations

from frontend.pipeline import load_text
from passes.verify import check_program

ELEMENTS = """\
#include "kernel_operator.h"
using namespace AscendC;

class KernelRowMax {
public:
    __aicore__ inline void Init(GM_ADDR x)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 256);
        pipe.InitBuffer(inQueue, 1, 1024);
        pipe.InitBuffer(calcBuf, 64);
        reduceRes = calcBuf.Get<float>();
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm, 256);
        inQueue.EnQue(xLocal);
        LocalTensor<float> in = inQueue.DeQue<float>();
        ReduceMax(reduceRes, in, in, 256);
        float rowMax = this->reduceRes(0);
        in(1) = rowMax;
        this->reduceRes(1) = in(2) + rowMax;
        inQueue.FreeTensor(in);
        float late = in(3);
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<float> xGm;
    LocalTensor<float> reduceRes;
};

extern "C" __global__ __aicore__ void row_max(GM_ADDR x)
{
    KernelRowMax op;
    op.Init(x);
    op.Process();
}
"""


def test_a_tensor_call_reads_and_writes_one_element() -> None:
    """Every element access lowers (no ASC103), and the read after FreeTensor is the one finding."""
    found = [(d.code, d.span.line) for d in check_program(load_text(ELEMENTS, "row_max.cpp"))]
    assert found == [("ASC201", 24)]


SPECIALIZED = """\
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelCast {
public:
    __aicore__ inline void Init(GM_ADDR x)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, 256);
        pipe.InitBuffer(inQueue, 1, 256 * sizeof(T));
        pipe.InitBuffer(castBuf, 1024);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        DataCopy(xLocal, xGm, 256);
        inQueue.EnQue(xLocal);
        LocalTensor<T> in = inQueue.DeQue<T>();
        Widen(in);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void Widen(const LocalTensor<T> &in);
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> castBuf;
    GlobalTensor<T> xGm;
};

template <typename T>
__aicore__ inline void KernelCast<T>::Widen(const LocalTensor<T> &in)
{
    LocalTensor<float> wide = castBuf.Get<float>();
    Cast(wide, in, RoundMode::CAST_NONE, 256);
}

template <>
__aicore__ inline void KernelCast<float>::Widen(const LocalTensor<float> &in)
{
    LocalTensor<float> wide = castBuf.Get<float>();
    Adds(wide, in, 0.0f, 256);
}

extern "C" __global__ __aicore__ void widen(GM_ADDR x, GM_ADDR tiling)
{
    if (TILING_KEY_IS(1)) {
        KernelCast<half> op;
        op.Init(x);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelCast<float> op;
        op.Init(x);
        op.Process();
    }
}
"""


def test_a_method_specialized_for_float_runs_for_the_float_instance() -> None:
    """KernelCast<float> runs its own Widen (Adds); the generic one would Cast float to float with
    CAST_NONE, which the 910B does not take (ASC5xx). KernelCast<half> runs the generic one."""
    program = load_text(SPECIALIZED, "widen.cpp")
    assert [(d.code, d.span.line) for d in check_program(program)] == []
    generic_for_float = SPECIALIZED.replace("template <>\n__aicore__ inline void KernelCast<float>", "// gone\n"
                                            "__aicore__ inline void KernelCast_float_gone")
    found = check_program(load_text(generic_for_float, "widen.cpp"))
    cast_line = next(i for i, line in enumerate(SPECIALIZED.splitlines(), 1) if "CAST_NONE" in line)
    assert [(d.code, d.span.line) for d in found if d.is_error] == [("ASC504", cast_line)]


WRAPPER = """\
#include "kernel_operator.h"
using namespace AscendC;

class SortBase {
public:
    __aicore__ inline void SyncAll()
    {
        if (coreNum == 1) {
            return;
        }
        AscendC::SyncAll();
    }
    __aicore__ inline void Run(GM_ADDR x)
    {
        coreNum = GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ float *)x, 256);
        pipe.InitBuffer(queue, 1, 1024);
        LocalTensor<float> t = queue.AllocTensor<float>();
        DataCopy(t, xGm, 256);
        SyncAll();
        queue.FreeTensor(t);
        queue.FreeTensor(t);
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> queue;
    GlobalTensor<float> xGm;
    int64_t coreNum = 1;
};

extern "C" __global__ __aicore__ void sort(GM_ADDR x)
{
    SortBase op;
    op.Run(x);
}
"""


def test_a_method_wrapping_the_vendor_call_of_its_name_is_no_recursion() -> None:
    """`AscendC::SyncAll()` inside the class's own SyncAll() is the vendor API, not a recursive call (which
    stopped the lowering with 'call chain deeper than 24'); the double free after it is still found."""
    found = [(d.code, d.span.line) for d in check_program(load_text(WRAPPER, "sort.cpp"))]
    assert found == [("ASC205", 22)]


SPECIALIZED_CLASS = """\
#include "kernel_operator.h"
namespace Ns {
using namespace AscendC;
template <typename T>
class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x) { xGm.SetGlobalBuffer((__gm__ T *)x, 256); }
    __aicore__ inline void Process() {}
    GlobalTensor<T> xGm;
};
}  // namespace Ns

template <>
class Ns::KernelScale<bfloat16_t> {
public:
    __aicore__ inline void Init(GM_ADDR x);
    __aicore__ inline void Process();
private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floatBuf;
    AscendC::GlobalTensor<bfloat16_t> xGm;
};

__aicore__ inline void Ns::KernelScale<bfloat16_t>::Init(GM_ADDR x)
{
    xGm.SetGlobalBuffer((__gm__ bfloat16_t *)x, 256);
    pipe.InitBuffer(floatBuf, 256 * sizeof(float));
}

__aicore__ inline void Ns::KernelScale<bfloat16_t>::Process()
{
    AscendC::LocalTensor<float> f = floatBuf.Get<float>();
    AscendC::Duplicate(f, 1.0f, 256);
}

extern "C" __global__ __aicore__ void scale(GM_ADDR x)
{
    Ns::KernelScale<bfloat16_t> op;
    op.Init(x);
    op.Process();
}
"""


def test_the_members_of_an_explicit_class_specialisation_defined_out_of_it_are_its_own() -> None:
    """ops-nn huber_loss_grad: `template <> class Ns::K<bfloat16_t> {...}` and then `void Ns::K<bfloat16_t>::Init`
    with no `template <>`; those bodies use the specialisation's members (floatBuf), not the primary's."""
    assert [(d.code, d.message) for d in check_program(load_text(SPECIALIZED_CLASS, "scale.cpp"))] == []


METHOD_NAMED_TENSOR = """\
#include "kernel_operator.h"
using namespace AscendC;

class Kernel {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
    {
        pipe.InitBuffer(q, 1, 256);
        Tensor(x, y);
    }

private:
    __aicore__ inline void Tensor(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 64);
        yGm.SetGlobalBuffer((__gm__ float *)y, 64);
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopy(t, xGm, 64);
        q.EnQue(t);
        t = q.DeQue<float>();
        DataCopy(yGm, t, 64);
        q.FreeTensor(t);
        q.FreeTensor(t);
    }

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void method_named_tensor(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Kernel op;
    op.Run(x, y);
}
"""


def test_a_member_function_named_like_a_vendor_type_is_called() -> None:
    """`Tensor(x, y)` inside the class calls its member function Tensor (class members hide namespace-scope
    names), not a construction of a vendor type `Tensor` that was dropped with the whole body: the body's
    copies are lowered and its double free is found."""
    from ascendir.dialects import ascendc as asc
    from ascendir.lower import lower_program

    lowered = lower_program(load_text(METHOD_NAMED_TENSOR, "method_named_tensor.cpp"))
    copies = [op for op in lowered.module.walk() if isinstance(op, asc.ApiCallOp) and op.api.data == "DataCopy"]
    assert len(copies) == 2
    found = [(d.code, d.span.line) for d in check_program(load_text(METHOD_NAMED_TENSOR, "method_named_tensor.cpp"))]
    assert found == [("ASC205", 23)]


def test_a_temporary_discarded_at_once_is_reported() -> None:
    """`Name(args);` that the lowering reads as a temporary of a type (no function of that name found) never
    vanishes silently."""
    text = METHOD_NAMED_TENSOR.replace("        Tensor(x, y);", "        DataCopyParams(1, 2, 0, 0);")
    found = [(d.code, d.span.line, d.message) for d in check_program(load_text(text, "discard.cpp"))]
    assert [(c, line) for c, line, _ in found] == [("ASC103", 9)]
    assert "constructs a temporary DataCopyParams and discards it" in found[0][2]
