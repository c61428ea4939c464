"""Evaluate a lowered host tiling function for concrete shapes, dtypes, attributes and a chip.

The tiling function is a `func.func` taking one `!host.tiling_context` and returning the graphStatus
(see `ascendir.dialects.host`). `evaluate_tiling` runs it with xDSL's interpreter: the stock function
tables for arith, scf, memref, func, cf and math, the `host` dialect's table below, and a few arith /
memref / math implementations xDSL 0.74 lacks (unsigned division, min/max, casts, `memref.alloca`, ...).
`evaluate_infer_shape` runs an InferShape function (one `!host.infer_shape_context`) the same way and
reports the output shapes it wrote.

Nothing here raises on bad input: a failing op, a loop that never ends (guarded by a step budget) or an
input the function reads but was not given all end the run with a diagnostic in the `TilingResult`
(or `InferShapeResult`).

This module runs a function (the interpreter set up with a step budget, the entry checked, the status and the
tiling read back, a failure traced to its cause); its parts live in modules of their own, and every public
name is re-exported here (`from ascendir.host_eval import TilingInputs, evaluate_tiling` keeps working):

- host_eval_types.py: the inputs (TensorSpec, TilingInputs), the results, the errors and the run's state;
- host_eval_chips.py: the chip's numbers (core counts, memory sizes), by name or from a chip object;
- host_eval_context.py: the `host` dialect's ops on that state (HostFunctions);
- host_eval_matmul.py: matmul API tiling objects and GetTiling's checks (MatmulTilingFunctions);
- host_eval_arith.py: the arith / math / memref ops xDSL's interpreter lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import FileLineColLoc, IntegerType, ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.cf import CfFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.math import MathFunctions
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import SymbolTable
from xdsl.utils.comparisons import to_unsigned

from ascendir.dialects import host
from ascendir.dialects.host import GRAPH_FAILED, GRAPH_SUCCESS, InferShapeContextType, TilingContextType
from ascendir.host_eval_arith import (
    ArithExtraFunctions as ArithExtraFunctions,
    MathExtraFunctions as MathExtraFunctions,
    MemRefExtraFunctions as MemRefExtraFunctions,
)
from ascendir.host_eval_chips import (
    DEFAULT_CHIP as DEFAULT_CHIP,
    FALLBACK_CHIPS as FALLBACK_CHIPS,
    resolve_chip as resolve_chip,
)
from ascendir.host_eval_context import (
    HostFunctions as HostFunctions,
    STATE_KEY as STATE_KEY,
    copy_fields as copy_fields,
)
from ascendir.host_eval_failure import describe as describe_failure
from ascendir.host_eval_left_out import LeftOut
from ascendir.host_eval_matmul import MatmulTilingFunctions as MatmulTilingFunctions
from ascendir.host_eval_types import (
    HostEvalError as HostEvalError,
    InferShapeContextState as InferShapeContextState,
    InferShapeResult as InferShapeResult,
    MissingInputError as MissingInputError,
    StepBudgetExhausted as StepBudgetExhausted,
    TilingContextState as TilingContextState,
    TilingInputs as TilingInputs,
    TilingResult as TilingResult,
)

# Defined in the modules this one was split into; other modules import them from here.
from ascendir.host_eval_arith import c_div as c_div, int_width as int_width, round_float as round_float
from ascendir.host_eval_chips import ChipNumbers as ChipNumbers
from ascendir.host_eval_context import context_state as context_state
from ascendir.host_eval_matmul import (
    MatmulMatrixType as MatmulMatrixType,
    MatmulTilingObject as MatmulTilingObject,
)
from ascendir.host_eval_types import (
    AttrValue as AttrValue,
    FieldValue as FieldValue,
    ShapeBuffer as ShapeBuffer,
    TensorSpec as TensorSpec,
    TilingStruct as TilingStruct,
    ge_dtype as ge_dtype,
)


@dataclass
class _StepCounter(Interpreter.Listener):
    """Counts interpreted ops, remembers the innermost one running, and stops at the budget."""

    budget: int
    steps: int = 0
    current: Operation | None = None
    # the cell the function's result is returned from, and the last store into it (the `return` that ran)
    result_cell: SSAValue | None = None
    last_result_store: Operation | None = None
    # the statements the host lowering left out (host.left_out) that the run reached, by their `at`
    left_out_reached: set[str] = field(default_factory=set)

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        self.steps += 1
        self.current = op
        if isinstance(op, host.LeftOutOp):
            self.left_out_reached.add(op.at.data)
        if self.result_cell is not None and isinstance(op, memref.StoreOp) and op.memref is self.result_cell:
            self.last_result_store = op
        if self.steps > self.budget:
            raise StepBudgetExhausted()


def _where(op: Operation | None) -> str:
    if op is None:
        return ""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f" (in {op.name} at {loc.filename.data}:{loc.line.data}:{loc.column.data})"
    return f" (in {op.name})"


def _make_interpreter(module: ModuleOp, counter: _StepCounter) -> Interpreter:
    from ascendir.host_eval_left_out import LeftOutFunctions, ReachedFunctions
    from ascendir.host_node_info import NodeInfoFunctions
    from ascendir.host_tensor_values import InputValuesFunctions

    interpreter = Interpreter(module, listeners=(counter,))
    stock: tuple[InterpreterFunctions, ...] = (
        ArithFunctions(),
        ScfFunctions(),
        MemRefFunctions(),
        FuncFunctions(),
        CfFunctions(),
        MathFunctions(),
        BuiltinFunctions(),
        HostFunctions(),
        MatmulTilingFunctions(),
        InputValuesFunctions(),
        NodeInfoFunctions(),
        LeftOutFunctions(),
        ReachedFunctions(),
    )
    for table in stock:
        interpreter.register_implementations(table)
    # ours replace the stock division (bare asserts) and memref (no alloca, no bounds checks) entries
    extras: tuple[InterpreterFunctions, ...] = (
        ArithExtraFunctions(),
        MathExtraFunctions(),
        MemRefExtraFunctions(),
    )
    for table in extras:
        interpreter.register_implementations(table, override=True)
    return interpreter


@dataclass
class _Run:
    """How one interpreted call ended: returned values, or the op it stopped at and why."""

    counter: _StepCounter
    returned: PythonValues | None = None  # None: it did not return
    failure_op: Operation | None = None
    missing: bool = False


def _entry_problem(module: ModuleOp, func_name: str, context: type[Attribute]) -> str | None:
    """Why `func_name` cannot be run with a context of type `context`; None when it can."""
    target = SymbolTable.lookup_symbol(module, func_name)
    if not isinstance(target, func.FuncOp):
        return f"no function named {func_name} in the module"
    arg_types = target.function_type.inputs.data
    if len(arg_types) != 1 or not isinstance(arg_types[0], context):
        shown = ", ".join(str(t) for t in arg_types)
        return f"{func_name} must take one !{context.name}, it takes ({shown})"  # type: ignore[attr-defined]
    return None


def _interpret(
    module: ModuleOp, target: func.FuncOp, state: TilingContextState, step_budget: int, diagnostics: list[str]
) -> _Run:
    """Call `target` on `state`; whatever stops it becomes a diagnostic, never an exception."""
    func_name = state.func_name
    counter = _StepCounter(budget=step_budget, result_cell=_result_cell(target))
    run = _Run(counter)
    interpreter = _make_interpreter(module, counter)
    interpreter.set_data(HostFunctions, STATE_KEY, state)
    try:
        returned = interpreter.call_op(target, (state,))
        for value in returned:
            if isinstance(value, LeftOut):
                # the status returned is one a left-out statement set (`status = tiling.DoTiling();` not lowered):
                # reported as the run's failure, not raised at the caller that reads the status
                raise HostEvalError(f"{func_name} returns {value.described()}")
        run.returned = returned
    except StepBudgetExhausted:
        run.failure_op = counter.current
        diagnostics.append(
            f"interpreter step budget exhausted after {step_budget} ops{_where(counter.current)}; "
            "does a loop never end?"
        )
    except MissingInputError as error:
        run.missing = True
        run.failure_op = counter.current
        diagnostics.append(f"{error}{_where(counter.current)}")
    except HostEvalError as error:
        run.failure_op = counter.current
        diagnostics.append(f"{error}{_where(counter.current)}")
    except RecursionError:
        run.failure_op = counter.current
        diagnostics.append(f"{func_name} recursed too deeply{_where(counter.current)}")
    except Exception:  # noqa: BLE001 - evaluation must not raise, whatever an op implementation does
        run.failure_op = counter.current
        # the exception's class and the interpreter's message mean nothing to the user: name the construct
        diagnostics.append(f"{describe_failure(func_name, counter.current)}{_where(counter.current)}")
    return run


def evaluate_tiling(
    module: ModuleOp, func_name: str, inputs: TilingInputs, *, step_budget: int = 1_000_000
) -> TilingResult:
    """Run the tiling function `func_name` of `module` on `inputs`; errors become diagnostics."""
    chip, diagnostics = resolve_chip(inputs.chip)
    state = TilingContextState(inputs=inputs, chip=chip, func_name=func_name)
    status: int | None = None

    problem = _entry_problem(module, func_name, TilingContextType)
    if problem is not None:
        diagnostics.append(problem)
        return _result(state, status, diagnostics)
    target = cast(func.FuncOp, SymbolTable.lookup_symbol(module, func_name))

    run = _interpret(module, target, state, step_budget, diagnostics)
    counter, failure_op = run.counter, run.failure_op
    if run.returned is not None:
        status = _status(run.returned, target)
        if status == GRAPH_FAILED:
            failure_op = counter.last_result_store or counter.current  # the return that gave up
            cause = _matmul_cause(state, failure_op)
            if cause is not None:
                failure_op = cause[0]
                diagnostics.append(f"GetTiling returns -1: {cause[1]}")
            diagnostics.append(f"{func_name} returned ge::GRAPH_FAILED")
            if cause is not None:
                state.matmul_failures = [f for f in state.matmul_failures if f[0] is not cause[0]]
        elif status is not None and status != GRAPH_SUCCESS:
            failure_op = counter.last_result_store or counter.current
            diagnostics.append(f"{func_name} returned failure status {status}")
        elif state.block_dim is None:
            diagnostics.append(f"{func_name} succeeded without calling SetBlockDim")
    # a GetTiling that failed without deciding the outcome: its TCubeTiling is left as it was
    state.notes.extend(f"GetTiling returned -1 ({why}) and the function went on"
                       for _, why in state.matmul_failures)
    result = _result(state, status, diagnostics)
    result.failure_op = failure_op
    result.missing_inputs = run.missing
    result.complete = not state.unmodelled
    result.left_out_reached = counter.left_out_reached
    return result


def evaluate_infer_shape(
    module: ModuleOp, func_name: str, inputs: TilingInputs, *, step_budget: int = 200_000
) -> InferShapeResult:
    """Run the InferShape function `func_name` of `module` on `inputs` (their shapes are the origin
    shapes it reads; outputs and chip are not used); errors become diagnostics."""
    # an InferShape context has no platform: the chip is never read
    state = InferShapeContextState(inputs=inputs, chip=FALLBACK_CHIPS[DEFAULT_CHIP], func_name=func_name)
    diagnostics: list[str] = []
    problem = _entry_problem(module, func_name, InferShapeContextType)
    if problem is not None:
        return InferShapeResult(None, [], [problem])
    target = cast(func.FuncOp, SymbolTable.lookup_symbol(module, func_name))

    run = _interpret(module, target, state, step_budget, diagnostics)
    status: int | None = None
    failure_op = run.failure_op
    written = {i: b for i, b in state.output_shapes.items() if b.written}
    if run.returned is not None:
        status = _status(run.returned, target)
        if status is not None and status != GRAPH_SUCCESS:
            failure_op = run.counter.last_result_store or run.counter.current  # the return that gave up
            shown = "ge::GRAPH_FAILED" if status == GRAPH_FAILED else f"failure status {status}"
            diagnostics.append(f"{func_name} returned {shown}")
        elif not written:
            diagnostics.append(f"{func_name} succeeded without writing any output shape")
        else:
            # an output it asked for but left as it was has rank 0: a scalar, seldom what was meant
            diagnostics.extend(f"{func_name} succeeded without writing the shape of output {i}"
                               for i in sorted(state.output_shapes) if i not in written)
    diagnostics.extend(state.notes)
    diagnostics.extend(state.unmodelled)
    count = max(written, default=-1) + 1
    outputs = [written[i].value() if i in written else None for i in range(count)]
    return InferShapeResult(status, outputs, diagnostics, complete=not state.unmodelled,
                            failure_op=failure_op, missing_inputs=run.missing)


def _matmul_cause(state: TilingContextState, failing: Operation | None) -> tuple[Operation, str] | None:
    """The GetTiling that returned -1 and decided the failing `return`, if one did: the returned value or
    a condition of an `if` around the return depends on its result."""
    if failing is None:
        return None
    for get_tiling, why in reversed(state.matmul_failures):
        if _depends_on(failing, get_tiling):
            return get_tiling, why
    return None


def _depends_on(failing: Operation, source: Operation) -> bool:
    """Whether the store `failing` (a `return` into the result cell) depends on a result of `source`:
    through the value it stores or the conditions of the `scf.if`s around it, following values through
    the memref cells of C++ locals (every store into a cell the chain loads from)."""
    work: list[SSAValue] = list(failing.operands[:1]) if isinstance(failing, memref.StoreOp) else []
    parent = failing.parent_op()
    while parent is not None:
        if isinstance(parent, scf.IfOp):
            work.append(parent.cond)
        parent = parent.parent_op()
    seen: set[SSAValue] = set()
    cells: set[SSAValue] = set()
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        owner = value.owner
        if not isinstance(owner, Operation):
            continue  # a block argument: a loop-carried value, not followed
        if owner is source:
            return True
        if isinstance(owner, memref.LoadOp) and owner.memref not in cells:
            cells.add(owner.memref)
            work.extend(use.operation.operands[0] for use in owner.memref.uses
                        if isinstance(use.operation, memref.StoreOp) and use.index == 1)
        work.extend(owner.operands)
        for region in owner.regions:  # the values an scf.if yields
            work.extend(v for op in region.walk() if isinstance(op, scf.YieldOp) for v in op.operands)
    return False


def _result_cell(target: func.FuncOp) -> SSAValue | None:
    """The memref cell the function's value is returned from (`return` statements store into it)."""
    last = target.body.blocks.last.last_op if target.body.blocks else None
    if isinstance(last, func.ReturnOp) and last.operands:
        loaded = last.operands[0].owner
        if isinstance(loaded, memref.LoadOp):
            return loaded.memref
    return None


def _status(returned: PythonValues, target: func.FuncOp) -> int | None:
    if not returned:
        return None
    value = returned[0]
    out_type = target.function_type.outputs.data[0]
    if isinstance(out_type, IntegerType):
        # graphStatus is a uint32_t: report GRAPH_FAILED as 0xFFFFFFFF, not -1
        return to_unsigned(int(value), min(out_type.width.data, 32))
    return int(value)


def _result(state: TilingContextState, status: int | None, diagnostics: list[str]) -> TilingResult:
    diagnostics.extend(state.notes)
    diagnostics.extend(state.unmodelled)
    for data in state.locals:
        if data.fields and not data.saved:
            diagnostics.append(
                f"tiling struct {data.struct_name} was filled but never saved to the context (missing SaveToBuffer)"
            )
    if state.block_dim is not None and not 1 <= state.block_dim <= 65535:
        diagnostics.append(f"block dim {state.block_dim} is outside [1, 65535]")
    buffer = state.buffer
    return TilingResult(
        status=status,
        block_dim=state.block_dim,
        tiling_key=state.tiling_key,
        workspace=dict(state.workspace),
        fields=copy_fields(buffer.fields) if buffer is not None else {},
        diagnostics=diagnostics,
        struct_name=buffer.struct_name if buffer is not None else None,
        local_memory_size=state.local_memory_size,
        need_atomic=state.need_atomic,
    )
