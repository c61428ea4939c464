"""Objects, structs and references in the lowering: vendor kernel idioms, tensor comparison operators, structs
with reference members, a TPipe member set from the caller's pipe, writes through reference parameters and
helpers, member objects built from the init list, queues bound towards GM, local unions and structs, kernel
parameters by reference, the tiling struct's pointer."""

from __future__ import annotations

from xdsl.dialects import arith

from ascendir.dialects import ascendc as asc
from ascendir.lower import lower_program
from frontend.pipeline import load_text
from tests.ascendir.lowering_helpers import CLEAN, HEADER, lower, ops_of


def test_vendor_kernel_idioms_lower_without_name_errors() -> None:
    # each line below was an ASC102 / ASC006 false alarm on shipped vendor kernels
    r = lower(HEADER + """
#ifndef FORMAT_FRACTAL_NZ
#define FORMAT_FRACTAL_NZ
#endif
#if defined(FORMAT_X1) && FORMAT_X1 == FORMAT_FRACTAL_NZ
constexpr int32_t NZ_INPUT = 1;
#else
constexpr int32_t NZ_INPUT = 0;
#endif
template <typename, typename> struct isSame : public false_type {};
template <typename Tp> struct isSame<Tp, Tp> : public true_type {};
class SortBase {
protected:
    static constexpr int64_t WORK_GM_NUM = 2;
};
template <uint32_t tileLength>
class Kernel : public SortBase {
public:
    __aicore__ inline void Init(GM_ADDR x) { xGm.SetGlobalBuffer((__gm__ float*)x, tileLength); }
    __aicore__ inline int64_t Next(int64_t i) {
        if constexpr (isSame<float, float>::value) {
            i = (i + 1) % WORK_GM_NUM;
        }
        if (likely(i > 0) && !unlikely(i > 100)) {
            i += NZ_INPUT + DEFAULT_DATA_COPY_STRIDE;
        }
        return i;
    }
private:
    GlobalTensor<float> xGm;
};
template <uint32_t tileLength>
__global__ __aicore__ void k(GM_ADDR x) {
    Kernel<tileLength> op;
    op.Init(x);
    op.Next(0);
}
void launch(uint8_t* x) { k<TILE_FROM_BUILD_FLAGS><<<8, nullptr, nullptr>>>(x); }
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []


COMPARISONS = """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, m;
    pipe.InitBuffer(a, 1024);
    pipe.InitBuffer(m, 256);
    LocalTensor<float> t = a.Get<float>();
    LocalTensor<uint8_t> mask = m.Get<uint8_t>();
    Duplicate(t, 1.0f, 256);
    mask = t == t;
    mask = t < t;
    LocalTensor<int16_t> ints = a.Get<int16_t>();
    mask = ints < ints;
}
"""


def test_a_tensor_comparison_operator_is_compare_over_the_left_operand() -> None:
    # `mask = a == b` (cann-ops angle_v2) is the symbol override of Compare(mask, a, b, CMPMODE::EQ, a.GetSize())
    from passes.verify import check_program

    r = lower(HEADER + COMPARISONS)
    assert [(d.code, d.message) for d in r.diagnostics] == []  # no "comparison of LocalTensor" (ASC103)
    assert [op.api.data for op in ops_of(r, asc.ApiCallOp) if op.api.data == "Compare"] == ["Compare"] * 3
    # the rules then judge each call: Compare takes half, float and int32_t on 910B, not int16_t
    found = check_program(load_text(HEADER + COMPARISONS, "k.cpp"))
    assert [(d.code, d.span.line) for d in found if d.is_error] == [("ASC502", 15)]


def test_a_struct_with_a_reference_member_is_an_object_reading_the_referee() -> None:
    # cann-ops weight_quant_batch_matmul_v2: `struct UnfoldCMatrixParams { ...; BinaryRepeatParams &repeatParams; }`
    # is no tiling layout of scalars, and `params.repeatParams` is the BinaryRepeatParams it refers to
    from passes.verify import check_program

    src = HEADER + """
struct P {
    uint64_t n;
    BinaryRepeatParams &repeatParams;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    BinaryRepeatParams rp;
    P params{4, rp};
    MulAddDst<float, float, false>(t, t, t, 64, params.n, params.repeatParams);
}
"""
    assert [(d.code, d.message) for d in check_program(load_text(src, "k.cpp"))] == []
    # a reference to a type out of reach stays opaque, as before (ops-transformer ffn: `typename mm2Type::MT &mm2;`)
    holder = "template <class M>\nstruct Q {\n    typename M::MT &mm;\n};\n"
    opaque = src.replace("struct P {", holder + "struct P {").replace("P params{4, rp};", "P params{4, rp};\n    Q<int> q;")
    assert [d.code for d in check_program(load_text(opaque, "k.cpp")) if d.is_error] == []
    # and one to an object binds the caller's (ops-math cumsum arch35: `TPipe& pipe_;` set by the constructor)
    pipe_ref = HEADER + """
class K {
public:
    __aicore__ inline explicit K(TPipe& pipe) : pipe_(pipe) {}
    __aicore__ inline void Init() { pipe_.InitBuffer(buf_, 1024); }
    TPipe& pipe_;
    TBuf<TPosition::VECCALC> buf_;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> other;
    K op(pipe);
    op.Init();
    pipe.InitBuffer(other, 1024);
}
"""
    assert [d.code for d in check_program(load_text(pipe_ref, "k.cpp")) if d.is_error] == []


def test_more_vendor_idioms_resolve_to_the_right_overloads() -> None:
    # ASC101 false alarms on shipped kernels: a struct bundling LocalTensors (was read as a tiling struct of
    # scalars), a template template parameter (R<T> in is_same), a HardEvent template argument (was taken for
    # a TPosition), and RoundMode::CAST_NONE next to a project constant CAST_NONE
    r = lower(HEADER + """
constexpr int8_t CAST_NONE = 0;
struct Bufs {
    LocalTensor<float> buffer1_;
    LocalTensor<float> buffer2_;
};
__aicore__ inline void Zero(Bufs& b) { Duplicate(b.buffer2_, 0.0f, 64); Add(b.buffer2_, b.buffer1_, b.buffer2_, 64); }
template <typename T, template <typename U> class R, template <typename U> class S>
__aicore__ inline void Move(const R<T>& dst, const S<T>& src, uint32_t len)
{
    DataCopyParams copyParams{1, static_cast<uint16_t>(len * sizeof(T)), 0, 0};
    if constexpr (is_same<R<T>, AscendC::LocalTensor<T>>::value) {
        DataCopyPadParams padParams;
        DataCopyPad(dst, src, copyParams, padParams);
    } else {
        DataCopyPad(dst, src, copyParams);
    }
}
template <HardEvent event>
__aicore__ inline void Sync()
{
    int32_t id = static_cast<int32_t>(GetTPipePtr()->FetchEventID(event));
    SetFlag<event>(id);
    WaitFlag<event>(id);
}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> t1, t2;
    TBuf<TPosition::VECCALC> t3;
    pipe.InitBuffer(t1, 256);
    pipe.InitBuffer(t2, 256);
    pipe.InitBuffer(t3, 256);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    Bufs b;
    b.buffer1_ = t1.Get<float>();
    b.buffer2_ = t2.Get<float>();
    Move(b.buffer1_, xGm, 64);
    Sync<HardEvent::MTE2_V>();
    Zero(b);
    LocalTensor<half> h = t3.Get<half>();
    Cast(h, b.buffer2_, RoundMode::CAST_NONE, 64);
    Sync<HardEvent::V_MTE3>();
    Move(xGm, b.buffer2_, 64);
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    calls = [(op.api.data, len(op.args)) for op in ops_of(r, asc.ApiCallOp) if op.api.data in ("DataCopyPad", "Cast")]
    assert calls == [("DataCopyPad", 4), ("Cast", 4), ("DataCopyPad", 3)]  # only the taken `if constexpr` branch


def test_a_tpipe_member_assigned_from_the_callers_pipe_is_that_pipe() -> None:
    # vendor layer-norm-grad code keeps `TPipe pipe_;` in a helper and assigns `pipe_ = pipe;` before its
    # InitBuffer calls; that is the caller's pipe, not a second TPipe in use (was ASC211)
    from passes.verify import check_program

    text = HEADER + """
class Inner {
public:
    __aicore__ inline void initBuffer(TPipe& pipe) { pipe_ = pipe; pipe_.InitBuffer(q_, 2, 256); }
    TPipe pipe_;
    TQue<TPosition::VECOUT, 1> q_;
};
class Outer {
public:
    __aicore__ inline void Init() { pipe.InitBuffer(inQ, 2, 256); }
    __aicore__ inline void Process() { Inner op; op.initBuffer(pipe); }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) { Outer o; o.Init(); o.Process(); }
"""
    assert [d.code for d in check_program(load_text(text, "k.cpp"))] == []


def test_a_local_written_through_a_reference_parameter_sees_the_write() -> None:
    # vendor layer-norm code: `uint32_t eleNum = 0; GetSize(sid, eleNum); Copy(eleNum);` -- eleNum was
    # folded to its initial 0, and the DataCopyPad of eleNum * 4 bytes reported as blockLen = 0 (ASC402)
    from passes.verify import check_program

    text = HEADER + """
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n) {
        size = n;
        xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
        pipe.InitBuffer(q, 1, 1024 * sizeof(float));
    }
    __aicore__ inline void GetSize(uint32_t sid, uint32_t& eleNum) { eleNum = sid == 0 ? size : 8; }
    __aicore__ inline void Process() {
        for (uint32_t sid = 0; sid < 2; sid++) {
            uint32_t eleNum = 0;
            GetSize(sid, eleNum);
            LocalTensor<float> t = q.AllocTensor<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(eleNum * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            DataCopyPad(t, xGm, params, pad);
            q.EnQue(t);
            t = q.DeQue<float>();
            q.FreeTensor(t);
        }
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<float> xGm;
    uint32_t size;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) { K op; op.Init(x, 64); op.Process(); }
"""
    assert [d.code for d in check_program(load_text(text, "k.cpp"))] == []


def test_a_parameter_struct_filled_by_a_helper_in_a_loop_sees_the_writes() -> None:
    # ops-nn's sparse matmul: `DataCopyParams p{1, 0, 0, 0};` before the loop, then in it a namespace helper
    # `SetParams(p, rows, cols)` writes p.blockLen through a reference and a second helper copies with p. The
    # struct was a constant (never assigned in the caller's own body), so the copy saw blockLen = 0 (ASC402).
    from passes.verify import check_program

    text = HEADER + """
namespace Helpers {
__aicore__ inline void SetParams(AscendC::DataCopyParams& p, uint32_t rows, uint32_t cols)
{
    p.blockLen = cols * sizeof(int32_t);
    p.blockCount = rows;
}
__aicore__ inline void Load(LocalTensor<int32_t>& t, GlobalTensor<int32_t>& g, AscendC::DataCopyParams& p)
{
    DataCopyPadParams pad;
    DataCopyPad(t, g, p, pad);
}
}
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n) {
        xGm.SetGlobalBuffer((__gm__ int32_t*)x, 4096);
        pipe.InitBuffer(q, 1, 4096 * sizeof(int32_t));
        n_ = n;
    }
    __aicore__ inline void Process() {
        DataCopyParams params{1, 0, 0, 0};
        for (uint32_t i = 0; i < 4; i++) {
            LocalTensor<int32_t> t = q.AllocTensor<int32_t>();
            Helpers::SetParams(params, 4, n_);
            Helpers::Load(t, xGm, params);
            q.EnQue(t);
            t = q.DeQue<int32_t>();
            q.FreeTensor(t);
        }
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<int32_t> xGm;
    uint32_t n_;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    K op;
    op.Init(x, *(__gm__ uint32_t*)tiling);
    op.Process();
}
"""
    assert [d.code for d in check_program(load_text(text, "k.cpp"))] == []
    # a helper that really writes 0 is still seen (outside a loop: a value stored in a loop does not fold,
    # as with a plain `params.blockLen = 0;` there)
    zero = text.replace("p.blockLen = cols * sizeof(int32_t);", "p.blockLen = 0;").replace(
        "for (uint32_t i = 0; i < 4; i++) {", "{")
    assert [d.code for d in check_program(load_text(zero, "k.cpp"))] == ["ASC402"]


def test_a_member_object_is_built_by_its_constructor_from_the_init_list() -> None:
    # cann-ops gather: `helper({ti.maxLength, ti.tileLength}, p)` in a constructor's init list runs the
    # helper's constructor, which sets its queue up; skipped, the queue looked never InitBuffer'd (ASC206)
    r = lower(HEADER + """
struct Info { uint32_t maxLength, tileLength; };
template <class Tiling> class Helper {
    TQue<TPosition::VECIN, 1> que;
    Tiling ti;
public:
    __aicore__ inline Helper(const Tiling &ti, TPipe *p) : ti(ti) { p->InitBuffer(que, 1, this->ti.tileLength * 4); }
    __aicore__ inline void Run() { LocalTensor<float> t = que.AllocTensor<float>(); que.FreeTensor(t); }
};
class Outer {
    Helper<Info> helper;
public:
    __aicore__ inline Outer(uint32_t n, TPipe *p) : helper({n * 4, n}, p) {}
    __aicore__ inline void Run() { helper.Run(); }
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n) {
    TPipe pipe;
    Outer(n, &pipe).Run();
}
""")
    assert [d.code for d in r.diagnostics] == []
    assert len(ops_of(r, asc.InitBufferOp)) == 1


def test_a_pointer_to_a_struct_broken_into_a_class_does_not_crash_the_lowering() -> None:
    # a mutation of the corpus kernel (seed 0 above) moved the kernel class's head into the tiling struct: the
    # struct became a class type, and the GM pointer cast to it had no GM pointer type to take
    path = CLEAN / "kernels" / "memalloc" / "scale_bias_relu.cpp"
    lines = path.read_text(encoding="utf-8").splitlines()
    i, j = lines.index("    float bias;"), lines.index("class KernelScaleBiasRelu {")
    lines[i], lines[j] = lines[j], lines[i]
    result = lower_program(load_text("\n".join(lines), path.name))
    assert not [d for d in result.diagnostics if d.code == "ASC000"]
    result.module.verify()


def test_a_queue_bound_towards_gm_keeps_its_buffers_in_the_source_memory() -> None:
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TQueBind<TPosition::CO1, TPosition::GM, 1> out;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> pass;
    pipe.InitBuffer(out, 1, 4096);
    pipe.InitBuffer(pass, 1, 4096);
    LocalTensor<float> c = out.AllocTensor<float>();
    LocalTensor<float> v = pass.AllocTensor<float>();
    out.FreeTensor(c);
    pass.FreeTensor(v);
}
""")
    assert [op.result.type.position.data for op in ops_of(r, asc.AllocTensorOp)] == ["CO1", "VECOUT"]


def test_a_variable_declared_with_a_local_union_or_struct_is_declared() -> None:
    # cann-ops embedding_bag reinterprets bits through `union { int i; float f; } u;`: u was undeclared (ASC102);
    # what a union holds is not modelled, so its reads are unknown (ASC103 warnings), and no error
    from passes.verify import check_program

    text = HEADER + """
__aicore__ inline float IntBits(int i) {
    union {
        int i;
        float f;
    } u;
    u.i = i;
    return u.f;
}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    struct Pair {
        int32_t a;
        int32_t b;
    } p;
    p.a = 3;
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 16);
    g.SetValue(p.a, IntBits(3));
}
"""
    found = check_program(load_text(text, "k.cpp"))
    assert [d.code for d in found if d.is_error] == []
    assert {d.code for d in found} == {"ASC103"}


def test_a_kernel_parameter_taken_by_reference_is_the_value() -> None:
    # asc-devkit's API tests launch kernels with parameter structs: `const TransDataTo5HDParams& params` was a
    # pointer, so TransDataTo5HD(dst, src, params) matched no overload (ASC101)
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(__gm__ uint64_t* x, const TransDataTo5HDParams& params, const int32_t& n) {
    TPipe tpipe;
    TBuf<TPosition::VECCALC> tbuf;
    tpipe.InitBuffer(tbuf, 256);
    LocalTensor<uint64_t> dst = tbuf.Get<uint64_t>();
    TransDataTo5HD<half>(dst, dst, params);
    Duplicate(dst.ReinterpretCast<int32_t>(), n, 64);
}
""")
    r.module.verify()
    assert [(d.code, d.message) for d in r.diagnostics] == []


def test_copy_tiling_with_struct_declares_a_pointer_to_the_tiling() -> None:
    # ops-nn fused_linear_cross_entropy_loss_grad: `COPY_TILING_WITH_STRUCT(Data, tiling, tdp);` then
    # `COPY_TILING_WITH_STRUCT(TCubeTiling, &tdp->mmTiling, mmTiling); mm.Init(mmTiling, &pipe);` (was ASC102
    # on the macro and on tdp, and ASC101 on Init)
    r = lower(HEADER + """
#include "lib/matmul_intf.h"
struct CopyTilingData {
    uint32_t len;
    TCubeTiling mmTiling;
};
using MT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    COPY_TILING_WITH_STRUCT(CopyTilingData, tiling, tdp);
    COPY_TILING_WITH_STRUCT(TCubeTiling, &tdp->mmTiling, mmTiling);
    TPipe pipe;
    matmul::Matmul<MT, MT, MT, MT> mm;
    mm.Init(mmTiling, &pipe);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tdp->len * sizeof(half));
}
""")
    assert [(d.code, d.message) for d in r.diagnostics] == []
    (init,) = ops_of(r, asc.InitBufferOp)
    assert not isinstance(init.length.owner, arith.ConstantOp)  # a tiling value, read at run time
