"""The C++ idioms of NPUKernelBench's foreach kernels, lowered and run on the simulator.

- a base class template that holds a reference to the derived object (`Predicate &pred`, bound to `*this` through
  the derived constructor's `: Base(*this)` with `using Base = ...`) and calls its private methods (CRTP);
- a function passed as a template argument (`ForeachBinary<half, Adds>` with `template <..., Op *op>`, or a
  user function template instance `Twice<half>`), called through the parameter and passed on to another
  template;
- `Base::Start()` with `Base` an alias of a class that inherits Start from its own base;
- `std::is_member_function_pointer_v<decltype(&Derived::Hook)>` guarding a call of a hook the derived class may
  define, and `Base::member = v` assigning a member of a base part;
- a pointer member set to the tiling data, and one set to an array field of it (`counts = td->counts;`) and indexed, and array
  fields indexed by the block (`td->starts[GetBlockIdx()]`), which the simulator reads from a table.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

struct ListTilingData {
    uint32_t n;
    int64_t counts[4];
    int64_t starts[4];
};

template <typename T>
using BinaryScalarOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);

template <typename T>
__aicore__ inline void Twice(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &s, const int32_t &n)
{
    Muls(dst, src, (T)2.0, n);
}

template <typename T>
class Root {
protected:
    __aicore__ inline int64_t Start(const ListTilingData *td) { return td->starts[GetBlockIdx()]; }
    int64_t offset = 0;
};

template <typename T>
class Middle : public Root<T> {};

template <typename T, typename Derived>
class Driver : public Middle<T> {
protected:
    using Base = Middle<T>;
    explicit __aicore__ inline Driver(Derived &d) : Base(), pred(d) {}
    __aicore__ inline void Run(const ListTilingData *td, GM_ADDR x, GM_ADDR y) {
        tilingInClass = td;   // a member pointing at the tiling data, read through below
        counts = tilingInClass->counts;
        Base::offset = Base::Start(tilingInClass);   // a member of a base part, assigned through the alias
        if (std::is_member_function_pointer_v<decltype(&Derived::Before)>) {
            pred.Before();   // a hook the derived class may define: this one does
        }
        if (std::is_member_function_pointer_v<decltype(&Derived::After)>) {
            pred.After();   // and this one it does not (the call would not compile if it were lowered)
        }
        pred.Step(x, y, Base::offset, counts[GetBlockIdx()]);
    }
private:
    const int64_t *counts = nullptr;
    const ListTilingData *__restrict tilingInClass = nullptr;
    Derived &pred;
};

template <typename T, BinaryScalarOp<T> *op>
class Inner {
public:
    __aicore__ inline void Compute(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t n) {
        op(dst, src, (T)3.0, n);
    }
};

template <typename T, BinaryScalarOp<T> *op>
class Kernel : public Driver<T, Kernel<T, op>> {
public:
    using Base = Driver<T, Kernel<T, op>>;
    __aicore__ inline Kernel() : Base(*this) {}
    __aicore__ inline void Go(const ListTilingData *td, GM_ADDR x, GM_ADDR y) {
        pipe.InitBuffer(inQ, 1, 64 * sizeof(T));
        pipe.InitBuffer(outQ, 1, 64 * sizeof(T));
        Base::Run(td, x, y);
    }
private:
    __aicore__ inline void Before() { scale = (T)1.0; }
    __aicore__ inline void Step(GM_ADDR x, GM_ADDR y, int64_t start, int64_t count) {
        GlobalTensor<T> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, count);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, count);
        LocalTensor<T> a = inQ.template AllocTensor<T>();
        DataCopy(a, xGm, count);
        inQ.EnQue(a);
        a = inQ.template DeQue<T>();
        LocalTensor<T> b = outQ.template AllocTensor<T>();
        Inner<T, op> inner;
        inner.Compute(b, a, count);
        Muls(b, b, scale, count);
        outQ.EnQue(b);
        inQ.FreeTensor(a);
        b = outQ.template DeQue<T>();
        DataCopy(yGm, b, count);
        outQ.FreeTensor(b);
    }
    T scale = (T)0.0;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    friend Base;
};

extern "C" __global__ __aicore__ void idioms(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (td.n == 1) {
        Kernel<half, Adds> op;
        op.Go(&td, x, y);
    } else {
        Kernel<half, Twice<half>> op;
        op.Go(&td, x, y);
    }
}
"""

TILING = {"counts": [16, 32, 16, 0], "starts": [0, 16, 48, 64]}


def simulate(n: int) -> tuple[np.ndarray, object]:
    x = np.arange(64, dtype=np.float16)
    result = run(KERNEL, {"x": x}, block_dim=3, tiling={"n": n, **TILING}, outputs={"y": ((64,), "float16")})
    assert not result.errors, result.errors
    assert not [f for f in result.findings if f.code in ("ASC103", "ASC958")], result.findings
    return x, result


def test_an_api_passed_as_a_template_argument_runs_through_the_crtp_chain() -> None:
    x, result = simulate(1)
    np.testing.assert_array_equal(result.outputs["y"], x + 3)  # Adds with 3, on each core's slice


def test_a_function_template_instance_passed_as_a_template_argument() -> None:
    x, result = simulate(2)
    np.testing.assert_array_equal(result.outputs["y"], x * 2)
