"""A Matmul declared with MatmulCallBackFunc callbacks (ascendir/lower/matmul_callbacks.py): the simulator's
Matmul moves A, B and C as the library does and cannot run the kernel's CopyA1 / CopyB1 / DataCopyOut, so the
declaration gets an ASC103 warning naming them. Before, they were ignored with no word (ops-nn batch_mat_mul_v3's
BmmCopyAL1 / BmmCopyBL1, mat_mul_v3's CopyBL1, flash_attention_score_grad's DataCopyOutLocal through a
Conditional): as a class template parameter (`class MM_CB = ...`, then
`MatmulImpl<..., MM_CB> mm;`) every MatmulCallBackFunc<...> was one unknown type, its arguments lost."""

from __future__ import annotations

from ascendir.lower import LoweringOptions, lower_program
from frontend.pipeline import load_text

KERNEL = """#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;
__aicore__ inline void CopyB(const LocalTensor<int8_t> &bMatrix, const __gm__ void *gm, int row, int col, int useK,
                             int useN, const uint64_t tilingPtr, const uint64_t dataPtr) {}
__aicore__ inline void CopyOut(const __gm__ void *gm, const LocalTensor<int8_t> &co1Local, const void *params,
                               const uint64_t tilingPtr, const uint64_t dataPtr) {}
using aType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using cType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
template <class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
class K {
public:
    __aicore__ inline void Done() { mm.End(); }
    MatmulImpl<aType, aType, cType, cType, CFG_NORM, MM_CB> mm;
};
using Plain = Matmul<aType, aType, cType, cType, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>>;
using Picked = AscendC::Conditional<sizeof(half) == 2, MatmulImpl<aType, aType, cType, cType, CFG_NORM,
                                    MatmulCallBackFunc<CopyOut>>, Plain>::type;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K<%s> op;
    op.Done();
    Matmul<aType, aType, cType, cType, CFG_NORM, MatmulCallBackFunc<nullptr, CopyB, CopyB>> mm2;
    mm2.End();
    Plain mm3;
    mm3.End();
    Picked mm4;
    mm4.End();
}
"""


def _warnings(cb: str) -> dict[int, str]:
    result = lower_program(load_text(KERNEL % cb, "k.cpp"), LoweringOptions())
    return {d.span.line: d.message for d in result.diagnostics
            if d.code == "ASC103" and d.span is not None and "MatmulCallBackFunc" in d.message}


def test_callbacks_given_directly_and_through_a_class_template_parameter() -> None:
    found = _warnings("MatmulCallBackFunc<nullptr, nullptr, CopyB>")
    # the member through MM_CB, the local, the Conditional's chosen type; not Plain's nullptrs
    assert set(found) == {15, 23, 27}, found
    assert "(CopyB1 = CopyB)" in found[15] and "(CopyA1 = CopyB, CopyB1 = CopyB)" in found[23]
    assert "(DataCopyOut = CopyOut)" in found[27]


def test_no_callbacks_no_warning() -> None:
    assert set(_warnings("")) == {23, 27}  # (the default MM_CB: three nullptrs)
