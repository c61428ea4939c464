"""The register API of arch35 chips (Ascend 950: `AscendC::Reg` / `MicroAPI` inside `__simd_vf__` functions and
`__VEC_SCOPE__` blocks) as one op per call: `ascendc.reg_call "Add" <f32> (dst, src0, src1, mask)`.

Registers are not SSA values here: a `RegTensor<T>` or `MaskReg` variable is a register of the core's register
file, named by the lowering once per declaration (`v3` a vector register, `p1` a mask register); `regs` lists
the call's register operands by role (`dst=v2 src0=v0 src1=v1 mask=p0`). The SSA operands are the C++
arguments that are values (UB addresses as i64 byte addresses, from GetPhyAddr and pointer arithmetic; scalars),
named in order by `names` (`addr`, `scalar`, `count`). `mode` holds the template arguments that choose a
behaviour (`mode=MERGING`, `pattern=VL16`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_result_def, prop_def, var_operand_def


@irdl_op_definition
class RegCallOp(IRDLOperation):
    """One register-API call: `api` its name (Add, LoadAlign, UpdateMask, ...), `elem` the element type the
    registers are read as (f32, f16, si32, ...), `mode` its behaviour-selecting template arguments."""

    name = "ascendc.reg_call"
    api = prop_def(StringAttr)
    elem = prop_def(StringAttr)
    mode = prop_def(StringAttr)
    regs = prop_def(StringAttr)
    names = prop_def(StringAttr)
    args = var_operand_def()
    result = opt_result_def()
    assembly_format = ("$api `<` $elem `,` $mode `>` `[` $regs `]` `(` $args `)` `{` `names` `=` $names `}` attr-dict `:` "
                       "functional-type($args, $result)")
