"""The Matmul library's integer helpers that kernels including lib/matmul_intf.h call unqualified: `CeilDiv`,
`CeilAlign`, `Ceil`, `CeilT`, `CeilAlignT` (namespace AscendC, asc-devkit impl/adv_api/detail/matmul/utils).

ops-nn's matmul kernels call them as the library's own (batch_mat_mul_v3_com_base_block.h:288,
`CeilDiv(params_.mCnt, params_.mTileCnt)`; batch_matmul_utils.h:85 says "It is invoked by the matmulV3 operator and
cannot be removed at present"). They were opaque calls (matmul_library_functions.txt names them, what they compute
was unknown), so a core stopped at the first one. As those headers define them:

* CeilDiv(uint16_t num1, uint16_t num2) (batch_matmul_utils.h:86): `(num1 + num2 - 1) / num2`, the operands
  converted to uint16_t, the sum and quotient in int (C's promotions), the result converted to uint16_t. It is the
  only CeilDiv: a wider operand is narrowed to 16 bits, as the compiler does.
* CeilAlign: the template `CeilAlign<T>(T, T)` (matmul_utils.h:397, `Ceil(num1, num2) * num2`) where both operands
  have one type (deduction succeeds and the exact match wins), else `CeilAlign(uint16_t, uint16_t)`
  (batch_matmul_utils.h:93, `CeilDiv(num1, num2) * num2`).
* Ceil<T> (:390) and CeilT<T> (:204): `(num1 + num2 - 1) / num2` in T (int for a T narrower than int, converted
  back); CeilAlignT<T> (:211): that times num2. Both operands must have one type (else deduction fails: a gap),
  but for Ceil, whose operands of two types call the basic API's `uint32_t Ceil(uint32_t, uint32_t)`.

Each asserts num2 > 0 (ASSERT / ASCENDC_ASSERT, compiled out of a release kernel): a zero divisor divides by zero,
as the kernel would. A program's own function of one of these names is found before this (calls.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

FUNCTIONS = frozenset({"CeilDiv", "CeilAlign", "Ceil", "CeilT", "CeilAlignT"})
_U16 = C.Scalar("uint16_t")
_TEMPLATES = frozenset({"CeilAlign", "Ceil", "CeilT", "CeilAlignT"})


def call(lw: FunctionLowerer, e: A.Call, name: str) -> Val | None:
    """The helper's value, or None for a name that is none of them."""
    if name not in FUNCTIONS:
        return None
    if len(e.args) != 2:
        raise Unsupported(f"the Matmul library's {name} with {len(e.args)} arguments (it takes two)", e)
    a, b = (lw.expr(arg) for arg in e.args)
    if not (_integer(a.ctype) and _integer(b.ctype)):
        raise Unsupported(f"the Matmul library's {name} of {a.ctype} and {b.ctype} is not modelled", e)
    if name in _TEMPLATES and a.ctype == b.ctype:
        t: C.Scalar = a.ctype  # type: ignore[assignment]  # the template, T deduced from both operands
    elif name in ("CeilDiv", "CeilAlign"):
        t = _U16  # the uint16_t overload
    elif name == "Ceil":
        # deduction fails, so the basic API's non-template `uint32_t Ceil(uint32_t, uint32_t)` (namespace AscendC,
        # impl/basic_api/utils/kernel_utils_ceil_oom_que.h:45, beside the library's template) is the viable one:
        # ops-transformer ffn's `Ceil(n1, tilingData->mm1TilingData.baseN)` of a uint32_t and an int32_t
        t = C.U32
    else:
        raise Unsupported(f"{name}<T>({a.ctype}, {b.ctype}): T is deduced as two types (no overload is viable)", e)
    wide = C.I32 if t.bits < 32 else t  # (C's integer promotions: a uint16_t sum is an int)
    wa, wb = (lw.convert(lw.convert(v, t, n), wide, n) for v, n in zip((a, b), e.args))
    quotient = lw.arith("/", lw.arith("-", lw.arith("+", wa, wb, e), Val(wide, const=1), e), wb, e)
    if name in ("CeilAlign", "CeilAlignT"):
        quotient = lw.arith("*", lw.convert(lw.convert(quotient, t, e), wide, e), wb, e)
    return lw.convert(quotient, t, e)


def _integer(t: object) -> bool:
    return isinstance(t, C.Scalar) and t.kind in ("int", "uint")
