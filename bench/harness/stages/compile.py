"""Stage 2, compile: parse, lower and verify the answer with the rule catalog `ascendc-check` runs.

Any error is a compile failure, with every diagnostic kept. The kernel entry the task's host side launches must
be defined (a misnamed entry fails the vendor build too). Then, per test case, the same check with the case's
shapes (`static_check`): the host tiling function runs on them and capacity, alignment and coverage rules see
numbers; its findings are kept with the case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.harness.stages.extract import Extracted, kernel_entries
from bench.harness.verdict import Finding
from bench.suites import Case, Inputs, Task


@dataclass
class Compiled:
    program: Any  # frontend.pipeline.Program
    chip: str
    errors: list[Finding] = field(default_factory=list)
    diagnostics: list[Finding] = field(default_factory=list)
    reason: str = ""
    # errors the device build compiles, in code one tiling key runs: each fails the runs whose host picks that key
    keyed: list[tuple[Finding, int]] = field(default_factory=list)
    # attributes (indices among the op json's) the binding hands over so that the op reads 0 (ASC812, an error the
    # build accepts): the runs give the op 0 there, as the device does
    zeroed_attrs: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors and not self.reason


def compile_answer(task: Task, extracted: Extracted) -> Compiled:
    """Check the extracted answer as `ascendc-check --chip <task's chip>` does."""
    from bench.harness.answer_chip import answer_chip
    from passes.verify import check_program, load_for_check
    from passes.verify.key_guard import keyed_build_accepted
    from passes.verify.project_binding import zeroed_attribute

    assert extracted.bundle is not None
    program, chip = load_for_check(extracted.bundle, answer_chip(extracted.bundle, task.chip))
    diags = check_program(program, chip, ignore=task.rules_not_applying(program))
    findings = [Finding.of(d) for d in diags]
    # an error the build accepts in one key's branch is judged per run, by the key the host sets
    keys = [keyed_build_accepted(d) for d in diags]
    keyed = [(f, k) for f, k in zip(findings, keys) if k is not None]
    # an attribute the op reads as 0 is judged by the runs, which give it 0: wrong only where the kernel uses it
    zeroed = [zeroed_attribute(d) for d in diags]
    errors = [f for f, k, z in zip(findings, keys, zeroed) if f.severity == "error" and k is None and z is None]
    compiled = Compiled(program, chip, errors, findings, keyed=keyed,
                        zeroed_attrs=tuple(sorted({z for z in zeroed if z is not None})))
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more error{'s' * (len(errors) > 2)})" if len(errors) > 1 else ""
        compiled.reason = f"{first.render()}{more}"
        return compiled
    # a kernel-only answer is launched by the task's fixed host under the task's kernel name; a project names its
    # op (and so its kernel, which the rules check: ASC801) itself
    entries = kernel_entries(extracted.bundle)
    if extracted.form in ("npukernelbench-kernel", "kernel") and task.kernel_name not in entries:
        found = f" (the answer defines {', '.join(repr(e) for e in entries)})" if entries else ""
        compiled.reason = f"no kernel entry '{task.kernel_name}', which the task's host side launches{found}"
    return compiled


def tiling_inputs(task: Task, case: Case, inputs: Inputs, expected: dict[str, Any], compiled: Compiled) -> Any | None:
    """The TilingInputs of one drawn case: tensor inputs in op order, the task's attributes and the scalar
    arguments after them, the expected outputs' shapes. None where an input is a list of tensors (dynamic
    inputs have no static model yet). An output's dtype is the one the op json pairs with the inputs', else
    the first input's for a float output."""
    import numpy as np

    from ascendir.host_eval import TensorSpec, TilingInputs
    from ascendir.host_tensor_values import known_values
    from ascendir.lower import output_dtypes

    tensors: list[TensorSpec | None] = []
    attrs: list[Any] = list(task.attr_values(case).values())
    for name, value in inputs.values.items():
        if isinstance(value, list) and value and isinstance(value[0], np.ndarray):
            return None
        if isinstance(value, np.ndarray) and (value.ndim > 0 or name in inputs.dtypes):
            tensors.append(TensorSpec(tuple(int(d) for d in value.shape), inputs.dtypes.get(name, str(value.dtype)),
                                      values=known_values(value)))
        elif value is None:
            tensors.append(None)
        else:
            attrs.append(list(value) if isinstance(value, tuple) else value)
    given = [t.dtype for t in tensors if t is not None]
    paired = output_dtypes(compiled.program, given) if given else []
    outputs: list[TensorSpec | None] = []
    for i, value in enumerate(expected.values()):
        if not isinstance(value, np.ndarray):
            outputs.append(None)
            continue
        dtype = paired[i] if i < len(paired) and paired[i] else None
        if dtype is None:
            dtype = given[0] if value.dtype.kind == "f" and given else str(value.dtype)
        outputs.append(TensorSpec(tuple(int(d) for d in value.shape), dtype))
    return TilingInputs(tensors, outputs=outputs if any(outputs) else [], attrs=attrs, chip=compiled.chip)


_TYPE_NAMES = {"float16": "float16", "fp16": "float16", "half": "float16", "float": "float32", "float32": "float32",
               "fp32": "float32", "bf16": "bfloat16", "bfloat16": "bfloat16", "double": "float64", "float64": "float64",
               "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8",
               "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "bool": "bool",
               "complex64": "complex64", "complex128": "complex128"}


def _type_name(t: Any) -> str | None:
    name = str(t).lower().removeprefix("dt_").removeprefix("ge::dt_")
    return _TYPE_NAMES.get(name)


def op_output_dtypes(program: Any, input_dtypes: list[str | None], expected: dict[str, Any]) -> list[str]:
    """The dtype of each output buffer: the one the op's description (op json, else OpDef) pairs with the inputs'
    dtypes, else the expected array's (a bfloat16 case's float32 expectation is bfloat16)."""
    import numpy as np

    from passes.verify.kernel_only import op_description

    desc = op_description(program) or {}
    ins = [d.get("type") or d.get("types") or [] for d in desc.get("input_desc") or []]
    outs = [d.get("type") or d.get("types") or [] for d in desc.get("output_desc") or []]
    out_names = [str(d.get("name")) for d in desc.get("output_desc") or []]
    if list(expected) != out_names[:len(expected)] and all(n in out_names for n in expected):
        # the expected outputs are some of the op's, not its first ones (AddLayerNorm's binding returns x and y of
        # y, mean, rstd, x): each pairs with its own output description
        outs = [outs[out_names.index(n)] for n in expected]
    column = None
    widths = {len(t) for t in ins + outs if isinstance(t, list) and t}
    bf16 = "bfloat16" in input_dtypes

    def expected_dtype(value: Any) -> str:
        arr = np.asarray(value[0] if isinstance(value, list) and value else value)
        return "bfloat16" if bf16 and arr.dtype == np.float32 else str(arr.dtype)

    matching = [k for k in range(max(widths, default=0))
                if all(not isinstance(types, list) or not types or k >= len(types) or given is None
                       or _type_name(types[k]) == given for types, given in zip(ins, input_dtypes))]
    # several columns for these inputs (a cast: one per output type): the one whose outputs the reference's are;
    # a float32 expectation of a bfloat16 case is read as bfloat16 first, then (no such column: a cast of
    # bfloat16 to float32) as the float32 it is
    raw = [str(np.asarray(v[0] if isinstance(v, list) and v else v).dtype) for v in expected.values()]
    for wanted in ([expected_dtype(v) for v in expected.values()], raw):
        column = next((k for k in matching
                       if all(not isinstance(types, list) or k >= len(types) or _type_name(types[k]) == want
                              for types, want in zip(outs, wanted))), None)
        if column is not None:
            break
    if column is None and matching:
        column = matching[0]
    found: list[str] = []
    for i, (name, value) in enumerate(expected.items()):
        types = outs[i] if i < len(outs) and isinstance(outs[i], list) else []
        paired = None
        if types:
            paired = _type_name(types[column if column is not None and column < len(types) else 0]) \
                if (column is not None or len(set(types)) == 1) else None
        if paired is None:
            paired = expected_dtype(value)
        found.append(paired)
    return found


def static_check(compiled: Compiled, shapes: Any) -> list[Finding]:
    """`ascendc-check --shape ...` on the compiled answer: the findings the case's shapes add."""
    from passes.verify import check_program

    diags = check_program(compiled.program, compiled.chip, shapes=shapes)
    seen = {(f.code, f.file, f.line, f.message) for f in compiled.diagnostics}
    return [f for f in (Finding.of(d) for d in diags) if (f.code, f.file, f.line, f.message) not in seen]
