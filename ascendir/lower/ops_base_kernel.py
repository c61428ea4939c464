"""The ops repositories' kernel-side helpers of ops-base: `Ops::Base::CeilDiv / CeilAlign / FloorDiv / FloorAlign`
(op_kernel/math_util.h) and `Ops::Base::GetUbBlockSize() / GetVRegSize()` (op_kernel/platform_util.h).

ops-math, ops-nn and ops-transformer kernels include these as "op_kernel/math_util.h" and
"op_kernel/platform_util.h" (about 270 includes); the headers live in ops-base (hicann/opbase
include/op_common/op_kernel/), which an op folder read alone does not reach, so every such call was an unresolved
call the core stopped at (sim_gaps.py: GetUbBlockSize 14 files, CeilAlign 9, CeilDiv 13 of 300). Modelled as
those headers define them, which differs from the host-side helpers of the same names (host_math_util.py):

* CeilDiv(a, b) (math_util.h:21): `(W(a) + W(b) - 1) / W(b)` converted back to T, W being uint32_t for a T of 1 or
  2 bytes and uint64_t otherwise. No zero case: a zero divisor divides by zero, as the kernel would.
* CeilAlign(a, b) (:36): that quotient times W(b), converted back to T.
* FloorDiv(a, b) (:29): a / b; FloorAlign(a, b) (:44): a / b * b (C's truncating division, in T).
* GetUbBlockSize() (platform_util.h:27): 32. GetVRegSize() (:32): VECTOR_REG_WIDTH where __CCE_AICORE__ is 310
  (the register-API chips: the simulator's register width, register_api.vreg_size), else 256.

The templates take one T for both operands (`template <typename T> T CeilDiv(T a, T b)`): T by the rule of
ops_base_operands.py, which the host-side model shares. A call that names `Ops::Base::` is this, and so is an
unqualified `CeilDiv(a, b)` where a using-directive nominates Ops::Base for the namespace the call is written in
(`namespace DropOutDoMask { using namespace Ops::Base; ... GetUbBlockSize() }`, [namespace.udir]/2) and neither
the calling class nor the program declares a function of that name (its own is called, as before: a member hides
the namespace's, and one of the program's own beside ops-base's is not told apart here). A program that defines
`Ops::Base::CeilDiv` itself has its definition called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.ops_base_operands import operand_type
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

ARITHMETIC = frozenset({"CeilDiv", "CeilAlign", "FloorDiv", "FloorAlign"})
FUNCTIONS = ARITHMETIC | {"GetUbBlockSize", "GetVRegSize"}
UB_BLOCK_BYTES = 32  # platform_util.h: GetUbBlockSize() { return 32U; }
OTHER_VREG_BYTES = 256  # platform_util.h: GetVRegSize() where __CCE_AICORE__ != 310


def names_ops_base(lw: FunctionLowerer, parts: list[A.NamePart]) -> bool:
    """Whether `parts` (a call's qualified name, namespaces included) is ops-base's helper and not the program's
    own definition of that name in a namespace Ops::Base."""
    name = parts[-1].name
    if name not in FUNCTIONS:
        return False
    own = lw.scope.functions.get(name, [])
    if len(parts) == 1:  # unqualified: found through a using-directive, unless something nearer declares it
        this = lw.frame.this if lw.frames else None
        return ("Ops::Base" in lw.scope.nominated(_namespace_here(lw)) and not own
                and not (this is not None and this.find_method(name) is not None)
                and (not lw.frames or lw.lookup(name) is None))  # (a local lambda of that name hides it too)
    if len(parts) != 3 or parts[0].name != "Ops" or parts[1].name != "Base":
        return False
    return not any(lw.scope.declared_in.get(id(f)) == "Ops::Base" for f in own)


def _namespace_here(lw: FunctionLowerer) -> str:
    """The namespace the code being lowered is written in: its function's, or where that function is a method
    defined in its class, the class's ('' for the global one, and for code outside any function)."""
    for frame in reversed(lw.frames):
        if frame.namespace is not None:
            return frame.namespace
        if frame.this is not None:
            return lw.scope.declared_in.get(id(frame.this.info.decl), "")
    return ""


def call(lw: FunctionLowerer, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val:
    if name in ("GetUbBlockSize", "GetVRegSize"):
        if e.args:
            raise Unsupported(f"Ops::Base::{name} with arguments (the kernel-side helper takes none)", e)
        if name == "GetUbBlockSize":
            return Val(C.U32, const=UB_BLOCK_BYTES)
        if lw.report.api_uncatalogued:  # the register-API chips (__CCE_AICORE__ == 310): VECTOR_REG_WIDTH
            from ascendir.lower import register_api

            return register_api.vreg_size(lw, e)
        return Val(C.U32, const=OTHER_VREG_BYTES)
    if len(e.args) != 2:
        raise Unsupported(f"Ops::Base::{name} with {len(e.args)} arguments (it takes two)", e)
    a, b = (lw.expr(arg) for arg in e.args)
    t = operand_type(lw, a, b, targs)
    if t is None:
        raise Unsupported(f"Ops::Base::{name} of non-integer operands ({a.ctype}, {b.ctype}) is not modelled", e)
    a, b = lw.convert(a, t, e.args[0]), lw.convert(b, t, e.args[1])
    if name == "FloorDiv":
        return lw.convert(lw.arith("/", a, b, e), t, e)
    if name == "FloorAlign":
        return lw.convert(lw.arith("*", lw.arith("/", a, b, e), b, e), t, e)
    wide = C.U32 if t.bits <= 16 else C.U64
    wa, wb = lw.convert(a, wide, e), lw.convert(b, wide, e)
    quotient = lw.arith("/", lw.arith("-", lw.arith("+", wa, wb, e), Val(wide, const=1), e), wb, e)
    if name == "CeilAlign":
        quotient = lw.arith("*", quotient, wb, e)
    return lw.convert(quotient, t, e)
