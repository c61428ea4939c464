"""The AST-to-IR lowering: the clean corpus lowers to verifying IR with no diagnostics; templates are
instantiated, constants fold and control flow (early returns, loops with break, while loops) lowers as
documented; a statement or call that cannot be lowered forgets what it may write; mutated kernels never crash
it. Names and diagnostics: test_lowering_names.py; classes and templates: test_lowering_classes.py; objects,
structs and references: test_lowering_objects.py."""

from __future__ import annotations

import random
import pytest

from xdsl.dialects import arith, memref, scf

from ascendir.dialects import ascendc as asc
from ascendir.lower import lower_program
from frontend.pipeline import load_text
from tests.ascendir.lowering_helpers import CLEAN, HEADER, corpus, corpus_result, lower, ops_of


def test_every_corpus_kernel_lowers_and_verifies() -> None:
    results = corpus()
    kernels = sum(len(r.kernels) for _, r in results)
    assert kernels >= 60
    for path, r in results:
        assert not r.diagnostics, (path, [f"{d.span}: {d.message}" for d in r.diagnostics])
        r.module.verify()


def test_corpus_kernels_have_no_unresolved_calls_and_every_op_has_a_location() -> None:
    for path, r in corpus():
        for op in r.module.walk():
            assert not isinstance(op, asc.OpaqueCallOp), (path, str(op))
            if op is not r.module:
                assert op.location is not None and "loc" not in str(type(op.location)).lower() or op.location, path


def test_class_kernel_is_flattened_into_the_kernel() -> None:
    r = corpus_result("projects/add_custom")
    (kernel,) = r.kernels
    names = {op.name for op in kernel.walk()}
    # members became declarations, methods were inlined: only AscendC and standard ops remain
    assert {"ascendc.tpipe", "ascendc.tque", "ascendc.global_tensor", "ascendc.alloc_tensor", "ascendc.enque",
            "ascendc.deque", "ascendc.free_tensor", "ascendc.vec_binary", "ascendc.data_copy"} <= names
    assert all(n.split(".")[0] in ("ascendc", "arith", "scf", "memref", "builtin") for n in names)
    queues = ops_of(r, asc.TQueOp)
    assert sorted(str(q.result.type) for q in queues) == [
        "!ascendc.tque<VECIN, 2>", "!ascendc.tque<VECIN, 2>", "!ascendc.tque<VECOUT, 2>"]
    # DTYPE_X is bound from the op json (float16 first) and the class template instantiated for it
    assert all(str(g.result.type) == "!ascendc.global_tensor<f16>" for g in ops_of(r, asc.GlobalTensorOp))


KERNEL = HEADER + """
constexpr int32_t TILE = 256;
template <typename T>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n) {
        xGm.SetGlobalBuffer((__gm__ T *)x, n);
        pipe.InitBuffer(q, 2, TILE * sizeof(T));
        this->n = n;
    }
    __aicore__ inline void Process() {
        for (int32_t i = 0; i < n / TILE; i++) {
            LocalTensor<T> t = q.AllocTensor<T>();
            DataCopy(t, xGm[i * TILE], TILE);
            q.EnQue(t);
            LocalTensor<T> u = q.DeQue<T>();
            Muls(u, u, (T)2, TILE);
            q.FreeTensor(u);
        }
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    GlobalTensor<T> xGm;
    uint32_t n;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    K<DTYPE_X> op;
    op.Init(x, 4096);
    op.Process();
}
"""


@pytest.mark.parametrize("dtype,ir", [("half", "f16"), ("float", "f32")])
def test_templates_are_instantiated_for_the_bound_dtype(dtype: str, ir: str) -> None:
    r = lower(KERNEL, dtypes={"DTYPE_X": dtype})
    (g,) = ops_of(r, asc.GlobalTensorOp)
    assert str(g.result.type) == f"!ascendc.global_tensor<{ir}>"
    (alloc,) = ops_of(r, asc.AllocTensorOp)
    assert str(alloc.result.type) == f"!ascendc.local_tensor<{ir}, VECIN>"
    (muls,) = [op for op in ops_of(r, asc.VecScalarOp) if op.api.data == "Muls"]
    assert muls.overload.data == "count"


def test_constants_fold_and_counted_loops_become_scf_for() -> None:
    r = lower(KERNEL, dtypes={"DTYPE_X": "half"})
    (init,) = ops_of(r, asc.InitBufferOp)
    length = init.length.owner
    assert isinstance(length, arith.ConstantOp) and length.value.value.data == 512  # TILE * sizeof(half)
    (loop,) = ops_of(r, scf.ForOp)
    assert any(isinstance(op, asc.DataCopyOp) for op in loop.body.walk())


def test_early_return_puts_the_rest_in_the_else_branch() -> None:
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    if (GetBlockIdx() >= 4) {
        return;
    }
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x, 64);
}
""")
    (if_op,) = ops_of(r, scf.IfOp)
    assert not list(if_op.true_region.block.ops)[:-1]
    assert any(isinstance(op, asc.SetGlobalBufferOp) for op in if_op.false_region.walk())
    assert not ops_of(r, memref.AllocaOp)  # no return flag was needed


def test_loops_with_break_and_while_loops_become_scf_while() -> None:
    r = lower(HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    uint32_t i = 0;
    while (i < 10) {
        if (i == 3) { break; }
        i += 2;
    }
}
""")
    assert len(ops_of(r, scf.WhileOp)) == 1
    assert not r.diagnostics


def test_template_kernels_take_their_launch_arguments() -> None:
    r = corpus_result("kernels/memalloc/softmax_row.asc")
    assert not r.diagnostics
    (kernel,) = r.kernels
    assert kernel.kernel_type.data == "aiv"


@pytest.mark.parametrize("seed", range(3))
def test_mutated_kernels_never_crash_the_lowering(seed: int) -> None:
    """Delete, duplicate or swap lines of corpus kernels: any outcome but an internal error is fine."""
    rng = random.Random(seed)
    files = sorted(p for p in (CLEAN / "kernels").rglob("*") if p.suffix in (".cpp", ".asc"))
    for _ in range(40):
        path = rng.choice(files)
        lines = path.read_text(encoding="utf-8").splitlines()
        for _ in range(rng.randint(1, 3)):
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            choice = rng.random()
            if choice < 0.4:
                del lines[i]
            elif choice < 0.7:
                lines.insert(i, lines[j])
            else:
                lines[i], lines[j] = lines[j], lines[i]
        program = load_text("\n".join(lines), path.name)
        result = lower_program(program)
        internal = [d for d in result.diagnostics if d.code == "ASC000"]
        assert not internal, (path.name, internal[0].message, "\n".join(lines))
        result.module.verify()


def test_a_constant_nan_is_folded_not_double_arithmetic() -> None:
    # vendor batch-norm code writes `static_cast<float>(0.0 / 0.0)` for a NaN: the compiler folds it, so
    # it is no double-precision arithmetic on the AI Core (was ASC508)
    from passes.verify import check_program

    text = HEADER + """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    float nanValue = static_cast<float>(0.0 / 0.0);
    float infValue = 1.0f / 0.0f;
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 8);
    g.SetValue(0, nanValue + infValue);
}
"""
    assert [d.code for d in check_program(load_text(text, "k.cpp"))] == []
    r = lower(text)
    assert not ops_of(r, arith.DivfOp)


def test_a_statement_that_cannot_be_lowered_forgets_what_it_may_write() -> None:
    # `count = xs[i]` on a scalar cannot be lowered; the loop bound must not fold to the initial 0 (which
    # made every rule skip the loop), and a call that could not be lowered may have used the queue
    r = lower(HEADER + """
class K {
public:
    __aicore__ inline void Process(uint32_t n) {
        count = n[1];
        for (uint32_t i = 0; i < count; i++) {
            LocalTensor<float> t = que.AllocTensor<float>();
            que.FreeTensor(t);
        }
        Missing(que, n[2]);
    }
    TQue<TPosition::VECIN, 1> que;
    uint32_t count = 0;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n) {
    K op;
    op.Process(n);
}
""")
    undef_stores = [op for op in ops_of(r, memref.StoreOp) if isinstance(op.value.owner, asc.UndefOp)]
    assert [op.memref.name_hint for op in undef_stores] == ["count"]
    from passes.verify.alignment import fold_int
    loop = ops_of(r, scf.ForOp)[0]
    assert fold_int(loop.ub) is None
    havoc = [op for op in ops_of(r, asc.OpaqueCallOp) if op.callee.data == "<not lowered>"]
    assert len(havoc) == 1 and [type(a.type) for a in havoc[0].args] == [asc.TQueType]


def test_a_call_on_an_object_that_cannot_be_lowered_may_use_its_queues() -> None:
    # asc-devkit's clampmin passes a macro the build defines (`op.Init(..., SCENARIO, &pipe)`): the Init that
    # sets the queues up is lost, so the queues of `op` are in an unknown state, not "never InitBuffer'd"
    r = lower(HEADER + """
class K {
public:
    __aicore__ inline void Init(uint32_t n, uint32_t mode) { pipe.InitBuffer(que, 1, n); }
    __aicore__ inline void Process() {
        LocalTensor<float> t = que.AllocTensor<float>();
        que.FreeTensor(t);
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n) {
    K op;
    op.Init(n, SCENARIO);
    op.Process();
}
""")
    havoc = [op for op in ops_of(r, asc.OpaqueCallOp) if op.callee.data == "<not lowered>"]
    assert len(havoc) == 1 and [type(a.type) for a in havoc[0].args] == [asc.TQueType]
