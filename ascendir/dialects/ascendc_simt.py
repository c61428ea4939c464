"""The SIMT launch's thread functions that make threads wait for each other (issue 28): asc_syncthreads and the
warp functions; and the SIMT atomics. A launch is an scf.for over its threads marked SIMT_LAUNCH_ATTR; the
simulator runs such a loop's iterations as threads that meet at these ops, ordered as a vector function
(rust_sim/src/simt.rs; ascendir/lower/simt_launch.py)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, var_operand_def

# on the scf.for of a SIMT launch over its threads
SIMT_LAUNCH_ATTR = "ascendc.simt_launch"

# the warp functions by kind (the rust_sim opcode's middle part) and how many operands each takes
WARP_KINDS = {"shfl": 3, "shfl_up": 3, "shfl_down": 3, "shfl_xor": 3, "all": 1, "any": 1, "ballot": 1,
              "activemask": 0, "reduce_add": 1, "reduce_max": 1, "reduce_min": 1, "reduce_umax": 1,
              "reduce_umin": 1}


@irdl_op_definition
class SimtSyncOp(IRDLOperation):
    """asc_syncthreads(): the thread waits until every thread of its launch is here."""

    name = "ascendc.simt_sync"
    assembly_format = "attr-dict"


@irdl_op_definition
class SimtWarpOp(IRDLOperation):
    """A warp function (`kind` of WARP_KINDS) of the thread's operands (value, then lane / delta / mask and
    width for a shuffle): every active thread of the warp gets its result when all are here."""

    name = "ascendc.simt_warp"
    kind = prop_def(StringAttr)
    args = var_operand_def()
    result = result_def()
    assembly_format = "$kind `(` $args `)` attr-dict `:` functional-type($args, $result)"

    def __init__(self, kind: str, args: Sequence[SSAValue], result_type: Attribute) -> None:
        super().__init__(operands=[list(args)], result_types=[result_type], properties={"kind": StringAttr(kind)})


# the atomics by kind (the rust_sim opcode's `atomic_<kind>`) and how many values each takes after the address
ATOMIC_KINDS = {"add": 1, "sub": 1, "max": 1, "min": 1, "exch": 1, "cas": 2, "inc": 1, "dec": 1, "and": 1, "or": 1,
                "xor": 1}


@irdl_op_definition
class SimtAtomicOp(IRDLOperation):
    """asc_atomic_<kind>(address, values...) on the element `target` starts at (a raw GM pointer, or the local
    tensor at a UB pointer): the element's value before, the element updated (rust_sim/src/simt.rs)."""

    name = "ascendc.simt_atomic"
    kind = prop_def(StringAttr)
    target = operand_def()
    args = var_operand_def()
    result = result_def()
    assembly_format = "$kind $target `(` $args `)` attr-dict `:` type($target) `,` functional-type($args, $result)"

    def __init__(self, kind: str, target: SSAValue, args: Sequence[SSAValue], result_type: Attribute) -> None:
        super().__init__(operands=[target, list(args)], result_types=[result_type],
                         properties={"kind": StringAttr(kind)})
