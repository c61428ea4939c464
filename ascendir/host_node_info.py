"""The compute node's input instances in the host evaluation: `GetComputeNodeInfo()->GetInputInstanceInfo(i)
->GetInstanceNum()`, how many tensors op input `i` is (lowered by ascendir/lower/host_node_info.py).

A tensor-list (dynamic) input has one instance per tensor of its list (TilingInputs.instances); any other input
one, or none when it is an absent optional input.
"""

from __future__ import annotations

from typing import cast

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.utils.comparisons import to_signed

from ascendir.dialects import host


@register_impls
class NodeInfoFunctions(InterpreterFunctions):
    @impl(host.InputInstanceNumOp)
    def run_input_instance_num(self, interpreter: Interpreter, op: host.InputInstanceNumOp,
                               args: PythonValues) -> PythonValues:
        from ascendir.host_eval import HostEvalError, TilingContextState

        state = cast(TilingContextState, args[0])
        index = to_signed(int(args[1]), 64)
        given = state.inputs
        counts = given.instances if given.instances is not None else [int(t is not None) for t in given.inputs]
        if not 0 <= index < len(counts):
            raise HostEvalError(f"{state.func_name} asks for the instances of input {index}, but the op has "
                                f"{len(counts)} inputs here")
        return (counts[index],)
