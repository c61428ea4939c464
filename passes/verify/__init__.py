"""The verifier: runs the rule catalog over a lowered program and collects every finding.

    diagnostics = verify(program, lowering_result.module, chip="910B2", select=None, ignore=())

Rules live in one module per family (queue_protocol.py, capacity.py, alignment.py, api_misuse.py,
tiling.py, sync.py, project.py, host_code.py); importing this package registers them all in RULES. A
rule that raises is a bug of ours: it becomes one ASC000 diagnostic naming the rule, the others still run.
Inline `// ascendc-check: ignore[ASC501]` on the line (or the line above) silences that code there;
`// ascendc-check: ignore` silences every code.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp

from frontend.diagnostics import Diagnostic, Note, Span, error, sort_key
from frontend.pipeline import Program, collected_once
from frontend.readers import in_op_host
from passes.verify import (  # noqa: F401  (each module registers its rules)
    alignment,
    api_arch,
    api_misuse,
    binding,
    capacity,
    coverage,
    host_code,
    infer_shape,
    matmul_coverage,
    matmul_mix_blocks,
    project,
    queue_protocol,
    redefinition,
    sync,
    tiling,
)
from passes.verify.key_guard import merge_key_notes
from passes.verify.rules import FAMILIES, RULES, CheckContext, Rule, rule, span_of_op

if TYPE_CHECKING:
    from ascendir.chips import Chip
    from ascendir.host_eval import TensorSpec, TilingInputs, TilingResult
    from frontend.readers import Bundle, SourceUnit

__all__ = ["FAMILIES", "RULES", "Rule", "rule", "verify", "check_program", "load_for_check", "selected_rules",
           "apply_inline_ignores", "ir_failures", "ir_verification_default"]

_IGNORE_RE = re.compile(r"//\s*ascendc-check:\s*ignore(?:\[(?P<codes>[A-Z0-9,\s]+)\])?")


def selected_rules(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> list[Rule]:
    """Rules chosen by code or code prefix (`ASC5` selects the API-misuse family), as ruff does."""
    chosen = [r for r in RULES.values() if select is None or any(r.code.startswith(s) for s in select)]
    ignored = tuple(ignore)
    return [r for r in chosen if not any(r.code.startswith(i) for i in ignored)]


def verify(program: Program | None, module: ModuleOp, chip: str = "910B2", select: Iterable[str] | None = None,
           ignore: Sequence[str] = (), tiling: TilingResult | None = None,
           dtypes_defaulted: bool = True) -> list[Diagnostic]:
    from ascendir.catalog import arch_catalogued, load_catalog
    from ascendir.chips import load_chip
    from passes.verify.ir import forget_walks

    forget_walks()
    ctx = CheckContext(module, program, load_chip(chip), load_catalog(), tiling=tiling,
                       dtypes_defaulted=dtypes_defaulted)
    catalogued = arch_catalogued(ctx.chip.npu_arch)
    for r in selected_rules(select, ignore):
        if r.catalogued_archs_only and not catalogued:
            continue
        ctx.rule = r
        before = len(ctx.diagnostics)
        try:
            r.check(ctx)
        except Exception as exc:  # one broken rule must not hide the others' findings
            del ctx.diagnostics[before:]
            ctx.diagnostics.append(error("ASC000", f"internal error in rule {r.code} ({r.name}): "
                                                   f"{type(exc).__name__}: {exc}", None,
                                         Note("please report this with the input file", kind="help")))
    ctx.diagnostics += _given_up(module, ctx.chip, select, ignore)
    diags = apply_inline_ignores(ctx.diagnostics, program)
    # one source line instantiated twice (two tiling-key branches, a template used with two types) gives the
    # same finding twice: report it once
    seen: dict[tuple[str, object, str], int] = {}
    unique: list[Diagnostic] = []
    for d in diags:
        key = (d.code, d.span, d.message)
        if key not in seen:
            seen[key] = len(unique)
            unique.append(d)
        else:  # the keys of both branches stay noted (passes/verify/key_guard.py)
            unique[seen[key]] = merge_key_notes(unique[seen[key]], d)
    return sorted(unique, key=sort_key)


def _given_up(module: ModuleOp, chip: Chip, select: Iterable[str] | None, ignore: Sequence[str]) -> list[Diagnostic]:
    """An ASC103 warning for each kernel the queue and capacity analysis gave up on (over its step budget),
    where this run computed it: those rules were silent there, not satisfied."""
    from ascendir.lower.diagnostics import NOT_MODELLED
    from frontend.diagnostics import warning
    from passes.verify.buffer_state import STEP_BUDGET, computed_analysis

    analysis = computed_analysis(module, chip)
    if analysis is None or not wanted(NOT_MODELLED, select, ignore):
        return []
    return [warning(NOT_MODELLED, f"the queue and capacity analysis gave up on kernel '{kernel.source_name}' "
                                  f"after {STEP_BUDGET:,} steps, also with all its paths merged into one (its "
                                  "loops nest too deep); "
                                  "the ASC2xx and ASC3xx rules that follow buffers along paths were not checked "
                                  "there", span_of_op(kernel))
            for kernel in analysis.gave_up]


def check_program(program: Program, chip: str = "910B2", select: Iterable[str] | None = None,
                  ignore: Sequence[str] = (), shapes: TilingInputs | None = None,
                  verify_ir: bool | None = None) -> list[Diagnostic]:
    """Everything ascendc-check reports for one program: frontend, lowering and rule diagnostics.

    `verify_ir` (default: `ir_verification_default()`) verifies every module the check lowers against its
    dialects' rules before the rules walk it; each op that breaks them is an ASC000 internal error at its
    source location, whichever dtype guess's lowering made it (see `ir_failures`).

    With `shapes` (the op's input tensors and attributes), the host tiling function runs on them and its
    values (tiling fields, blockDim, tiling key) are folded into the kernel before the rules run, so that
    capacity, alignment and coverage rules see numbers instead of unknowns.

    Without them, DTYPE_<NAME> macros that no op json binds are float (the lowering's DEFAULT_DTYPE), a
    guess: the build instantiates the kernel once per listed dtype, and code for 16-bit types behind a tiling
    key the host picks for half inputs only (ops-nn's GroupNormSiluSmallB16<DTYPE_X, DTYPE_X>) is wrong with
    float. When that run finds something (more than notes about the check itself: an include out of reach,
    code not modelled), the program is checked again with half for them, and only what holds for both is
    reported; if an overload or API finding still holds, once more with int32_t (an op's
    index or count inputs: gather_v3's DTYPE_INDICES feeds Adds with an int scalar), and of those findings
    only what holds for that too. A kernel with overload or API errors under all three guesses, at different
    places (a float tensor in a half kernel breaks one call as half and another as float), builds for none of
    them: the float run's errors are reported, with a note naming the others. Where an op's OpDef lists
    types for a macro and the guess is not among them (zero points of int32 or bf16), each run takes the
    listed type nearest its guess instead (`ascendir.lower.guessed_dtypes`): an instantiation the build never
    makes proves nothing.
    """
    from ascendir.lower import dtype_bindings, guessed_dtypes, unbound_dtype_macros

    select = list(select) if select is not None else None
    diags = list(program.diagnostics)
    if any(d.code == "ASC010" for d in diags):
        return diags
    # verification failures of every lowering: outside the dtype guesses' agreement, since a lowering bug
    # under one guess alone is still one
    broken: list[Diagnostic] | None = [] if (ir_verification_default() if verify_ir is None else verify_ir) else None
    dtypes = (dtype_bindings(program, [t.dtype for t in shapes.inputs if t is not None]) if shapes is not None
              else guessed_dtypes(program.bundle, "float"))
    found = _lower_and_verify(program, chip, dtypes, select, ignore, shapes, broken=broken)
    guessed = (unbound_dtype_macros(program) if shapes is None and any(d.code not in _CHECKER_NOTES for d in found)
               else set())
    if guessed:
        with_float = found
        half_lines: set[tuple[str, int]] = set()
        half = _lower_and_verify(program, chip, _guesses(program, guessed, "half"), select, ignore, None, False,
                                 half_lines, broken)
        half_places = {(d.code, d.span) for d in half}
        found = _holding_for_both(with_float, half, half_places, half_lines, _FloatTested(program))
        float_errors, half_errors = _type_errors(with_float), _type_errors(half)
        if any(d.code.startswith(_TYPE_CLASS_CODES) for d in found) or (float_errors and half_errors):
            int_lines: set[tuple[str, int]] = set()
            integer = _lower_and_verify(program, chip, _guesses(program, guessed, "int32_t"), select, ignore, None,
                                        False, int_lines, broken)
            places = {(d.code, d.span) for d in integer}
            # a finding only the float instantiation reaches stands; one the half run shares must hold for
            # int32_t too, unless the int32_t run does not reach it either
            found = [d for d in found if not d.code.startswith(_TYPE_CLASS_CODES) or (d.code, d.span) in places
                     or ((d.code, d.span) not in half_places and not _reached(d, int_lines))]
            int_errors = _type_errors(integer)
            if not _type_errors(found) and int_errors and half_errors:
                # wrong with every guess, though not at one place: the kernel has no element type it builds for
                found += [_failing_every_guess(d, sorted(guessed), half_errors[0], int_errors[0]) for d in float_errors]
    unique_broken = list({(d.span, d.message): d for d in broken or ()}.values())
    return sorted(diags + found + unique_broken, key=sort_key)


def ir_verification_default() -> bool:
    """Whether check_program verifies the modules it lowers when not told: on, unless the environment sets
    ASCENDIR_VERIFY_IR=0 (ascendc-check's --no-verify-ir)."""
    return os.environ.get("ASCENDIR_VERIFY_IR", "1") != "0"


# Failures listed per lowering: past a few, more of the same lowering bug says nothing new.
MAX_IR_FAILURES = 5


def ir_failures(module: ModuleOp, dtypes: Mapping[str, str] | None = None) -> list[Diagnostic]:
    """An ASC000 internal error for each op of `module` that does not verify (ascendir.verify), at its source
    location, with the verifier's whole message; `dtypes`, the guessed DTYPE_<NAME> bindings of the lowering,
    are named in a note."""
    from ascendir.verify import verify_ir

    failures = verify_ir(module)
    out = []
    for f in failures[:MAX_IR_FAILURES]:
        loc = f.location
        span = Span.point(loc.filename.data, loc.line.data, loc.column.data) if loc is not None else None
        notes = [Note("the checks of this kernel ran on IR that breaks its own rules: their findings may be wrong"),
                 Note("please report this with the input file", kind="help")]
        if dtypes:
            notes.insert(1, Note("lowered with " + ", ".join(f"{k} = {v}" for k, v in sorted(dtypes.items()))))
        out.append(error("ASC000", f"internal error: the IR lowered here does not verify: '{f.op.name}': "
                                   f"{f.message}", span, *notes))
    if len(failures) > MAX_IR_FAILURES:
        out[-1] = replace(out[-1], notes=out[-1].notes + (
            Note(f"{len(failures) - MAX_IR_FAILURES} more ops of this lowering do not verify"),))
    return out


def _guesses(program: Program, macros: set[str], guess: str) -> dict[str, str]:
    """The guessed DTYPE macros bound to `guess`, or to the type nearest it that the OpDef lists for them."""
    from ascendir.lower import guessed_dtypes

    return {**dict.fromkeys(macros, guess), **guessed_dtypes(program.bundle, guess)}


def _type_errors(found: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in found if d.is_error and d.code.startswith(_TYPE_CLASS_CODES)]


def _failing_every_guess(d: Diagnostic, macros: list[str], with_half: Diagnostic,
                         with_int: Diagnostic) -> Diagnostic:
    def where(other: Diagnostic) -> str:
        return f"line {other.span.line}" if other.span is not None else "elsewhere"

    names = ", ".join(macros)
    return replace(d, notes=d.notes + (Note(
        f"{names} {'is' if len(macros) == 1 else 'are'} bound by no op json and checked as float here; as half "
        f"the kernel fails at {where(with_half)} [{with_half.code}] and as int32_t at {where(with_int)} "
        f"[{with_int.code}]: it builds for none of them"),))


def _lower_and_verify(program: Program, chip: str, dtypes: dict[str, str], select: list[str] | None,
                      ignore: Sequence[str], shapes: TilingInputs | None,
                      dtypes_defaulted: bool = True, lowered_lines: set[tuple[str, int]] | None = None,
                      broken: list[Diagnostic] | None = None) -> list[Diagnostic]:
    """One lowering and rule run. `dtypes_defaulted`: the unbound DTYPE_<NAME> macros are float by default,
    and the element-type rules leave float tensors alone (the op json may list other types); False for the
    runs that bind them to half or int32_t, which judge every tensor. `lowered_lines` collects the (file,
    line) of every lowered op: the code this instantiation reaches. `broken`, when given, collects the
    module's verification failures (`ir_failures`), after the tiling values are folded in."""
    with collected_once():
        return _lower_and_verify_once(program, chip, dtypes, select, ignore, shapes, dtypes_defaulted,
                                      lowered_lines, broken)


def _lower_and_verify_once(program: Program, chip: str, dtypes: dict[str, str], select: list[str] | None,
                           ignore: Sequence[str], shapes: TilingInputs | None, dtypes_defaulted: bool,
                           lowered_lines: set[tuple[str, int]] | None,
                           broken: list[Diagnostic] | None) -> list[Diagnostic]:
    from ascendir.lower import LoweringOptions, lower_program

    lowered = lower_program(program, LoweringOptions(chip=chip, dtypes=dtypes))
    if lowered_lines is not None:
        lowered_lines.update((span.file, span.line) for op in lowered.module.walk()
                             if (span := span_of_op(op)) is not None)
    found = [d for d in apply_inline_ignores(lowered.diagnostics, program) if wanted(d.code, select, ignore)]
    tiling = (run_tiling(program, lowered.module, shapes, chip, fold_incomplete=False) if shapes is not None
              else None)
    if tiling is not None and tiling.gaps:
        found += _host_gaps(tiling, program, select, ignore)
        if tiling.succeeded:
            tiling = None  # its values were not folded (run_tiling): the kernel is checked as without shapes
    if broken is not None:
        broken += ir_failures(lowered.module, dtypes if not dtypes_defaulted else None)
    if selected_rules(select, ignore):
        found += verify(program, lowered.module, chip, select, ignore, tiling=tiling,
                        dtypes_defaulted=dtypes_defaulted)
    return found


def _host_gaps(tiling: TilingResult, program: Program, select: Sequence[str] | None,
               ignore: Sequence[str]) -> list[Diagnostic]:
    """The statements the host lowering left out of the tiling function (its ASC103 warnings), shown when the
    function runs for given shapes: they are why the checks for those shapes were not run (a successful run
    is not trusted) or why a failure is only a warning (ASC602)."""
    out = []
    for i, d in enumerate(tiling.gaps):
        if not wanted(d.code, select, ignore):
            continue
        if i == 0:
            consequence = ("the tiling values it computes for the given shapes may not be the device's, so the "
                           "checks that need them (capacity, alignment and coverage for these shapes) were not run"
                           if tiling.succeeded else "a failure of the tiling function for these shapes may be ours")
            d = replace(d, notes=d.notes + (Note(f"this is in the host tiling function: {consequence}"),))
        out.append(d)
    return apply_inline_ignores(out, program)


# Findings that an integer element type can undo where float and half both have them: overload resolution
# and the API rules (scalar types, supported dtypes, casts). Only these send a program through a third
# lowering with int32_t for the guessed DTYPE_<NAME> macros.
_TYPE_CLASS_CODES = ("ASC101", "ASC106", "ASC5")

# Notes about the check rather than the kernel (an include out of reach, code not modelled): they alone do not
# make the dtype guesses run again (a vendor kernel that is checked with a gap would otherwise be lowered and
# checked twice, to learn whether the gap is there as half as well).
_CHECKER_NOTES = frozenset({"ASC002", "ASC103"})

# Capacity findings: their bytes grow with sizeof(T), and where on a path the sum first overflows moves.
_CAPACITY_CODES = ("ASC301", "ASC302", "ASC303", "ASC304")


def _holding_for_both(with_float: list[Diagnostic], with_half: list[Diagnostic],
                      half_places: set[tuple[str, Span | None]], half_lines: set[tuple[str, int]],
                      float_tested: _FloatTested) -> list[Diagnostic]:
    """The findings of the float run that the half run has too (same code and place), or that lie in code the
    half run does not reach in a file that tests a type for float (`if constexpr (std::is_same_v<T, float>)`:
    the author wrote code for a float instantiation, and no other guess can clear it); for capacity, the half
    run's own (a wider type only needs more bytes, so they hold for float as well). Code for a 32-bit T
    behind `sizeof(T) == 4` in a class that only ever gets 16-bit types says nothing about float."""
    return ([d for d in with_float if d.code not in _CAPACITY_CODES and ((d.code, d.span) in half_places or (
                not _reached(d, half_lines) and d.span is not None and float_tested(d.span.file)))]
            + [d for d in with_half if d.code in _CAPACITY_CODES])


# `std::is_same_v<T, float>`, `AscendC::IsSameType<T, float32_t>::value`, either order
_FLOAT_TEST = re.compile(r"\b(?:is_same(?:_v)?|IsSameType|IsSame)\s*<\s*(?:[A-Za-z_]\w*\s*,\s*(?:float|float32_t)|"
                         r"(?:float|float32_t)\s*,\s*[A-Za-z_]\w*)\s*>")


class _FloatTested:
    """Whether a source file of the program tests a type for float (read once per file)."""

    def __init__(self, program: Program) -> None:
        self.texts = {u.unit.file: u.unit.text for u in program.units}
        self.answers: dict[str, bool] = {}

    def __call__(self, file: str) -> bool:
        if file not in self.answers:
            text = self.texts.get(file)
            if text is None:
                try:
                    with open(file, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                except OSError:
                    text = ""
            self.answers[file] = _FLOAT_TEST.search(text) is not None
        return self.answers[file]


def _reached(d: Diagnostic, lowered_lines: set[tuple[str, int]]) -> bool:
    """Whether another instantiation lowered the code at `d` (a finding with no place counts as reached)."""
    return d.span is None or (d.span.file, d.span.line) in lowered_lines


def load_for_check(bundle: Bundle, chip: str | None = None,
                   defines: Mapping[str, str | None] | None = None) -> tuple[Program, str]:
    """Preprocess and parse `bundle` for checking on `chip`, and that chip. With no chip given, the chip its
    kernel sources were written for when their folders say so (ops-nn's arch35 kernels are Ascend 950
    code: ascendir.chips.chip_for_source), else the default; in a project whose kernel sources target
    different chips, each of them is preprocessed for its own (ParsedUnit.target) and the rest of the
    program for the default. The chip's architecture macros (`__NPU_ARCH__`, `__CCE_AICORE__`) are
    defined, and `defines` (the user's -D/-U) come on top."""
    from ascendir.chips import DEFAULT_CHIP, chip_for_source, load_chip
    from frontend.kernel_pass import cube_only, cube_pass, with_included
    from frontend.opdef import dtype_macro_defines
    from frontend.pipeline import load_bundle

    dtypes = {**dtype_macro_defines(bundle), **orig_dtype_defines(bundle)}

    texts = {os.path.normpath(u.path): u.text for u in bundle.units}
    texts.update((os.path.normpath(k), v) for k, v in bundle.virtual_files.items())

    def read(path: str) -> str | None:
        if path in texts:
            return texts[path]
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError:
            return None

    cube: dict[str, bool] = {}

    def macros(name: str, kernel: bool = False) -> dict[str, str | None]:
        target = load_chip(name)
        if kernel:
            passes = target.kernel_defines
            if name not in cube:  # the sources built for this chip, and the headers they include, declare AIC_ONLY
                cube[name] = cube_only(with_included(
                    ((u.path, u.text) for u in kernel_side if targets.get(u.path, name) == name), read))
            if cube[name]:
                passes = cube_pass(passes, target.vector_pass_macro)  # built for the AIC alone
            return {**passes, **dtypes, **(defines or {})}
        return {**target.device_defines, **(defines or {})}

    kernel_side = [u for u in bundle.units if _kernel_side(u)]
    targets: dict[str, str] = {}
    if chip is not None:
        return load_bundle(bundle, macros(chip), unit_targets={
            u.path: (None, macros(chip, kernel=True)) for u in kernel_side}), chip

    targets = {u.path: chip_for_source(u.path, u.text, read=read) for u in kernel_side or bundle.units}
    chip = next(iter(targets.values())) if len(set(targets.values())) == 1 else DEFAULT_CHIP
    per_unit = {u.path: (targets[u.path] if targets[u.path] != chip else None, macros(targets[u.path], kernel=True))
                for u in kernel_side}
    return load_bundle(bundle, macros(chip), unit_targets=per_unit), chip


# op json spellings of the ge::DataType names
_JSON_DTYPE_NAMES = {"BFLOAT16": "BF16", "FP16": "FLOAT16", "HALF": "FLOAT16", "FP32": "FLOAT", "FLOAT32": "FLOAT"}


def orig_dtype_defines(bundle: Bundle) -> dict[str, str | None]:
    """ORIG_DTYPE_<NAME> as the build defines it for a kernel compile, for each input and output whose
    DTYPE_<NAME> the lowering binds (ascendir.lower.dtype_bindings): the ge::DataType code of its type in the
    first dtype combination, so that `#if ORIG_DTYPE_X == DT_FLOAT16` picks the code for that type. Unbound
    ones stay undefined, so the float guess takes the `#else` of such a test; except where the OpDef lists
    types without float for them: those get the code of the float guess's stand-in (`guessed_dtypes`), or a
    kernel that includes its code per listed type (`#if ... DT_FLOAT16 / #elif ... DT_BF16`, no `#else`) would
    be checked with none of it."""
    from ascendir.lower import GE_DTYPES, guessed_dtypes
    from frontend.opdef import bound_descriptions
    from frontend.vendor import DT_CODES

    out: dict[str, str | None] = {}
    for macro, ctype in guessed_dtypes(bundle, "float").items():
        # the ge::DataType whose code kernel_type.h defines for this element type (DT_BF16 for bfloat16_t)
        code = next((DT_CODES[f"DT_{ge.upper()}"] for ge, c in GE_DTYPES.items()
                     if c == ctype and f"DT_{ge.upper()}" in DT_CODES), None)
        if macro.startswith("ORIG_DTYPE_") and code is not None:
            out[macro] = str(code)
    for op in bound_descriptions(bundle)[:1]:
        for key in ("input_desc", "output_desc"):
            for desc in op.get(key) or []:  # type: ignore[attr-defined]
                types = desc.get("type") or desc.get("types") if isinstance(desc, dict) else None
                first = types[0] if isinstance(types, list) and types else types
                name = str(desc.get("name", "")).upper() if isinstance(desc, dict) else ""
                ge = str(first).upper().removeprefix("DT_")
                code = DT_CODES.get("DT_" + _JSON_DTYPE_NAMES.get(ge, ge)) if first else None
                if name and code is not None:
                    out.setdefault(f"ORIG_DTYPE_{name}", str(code))
    return out


def _kernel_side(unit: SourceUnit) -> bool:
    """Whether the device compiler builds `unit`: a kernel source, or a header outside op_host."""
    if unit.role == "kernel":
        return True
    return unit.role == "header" and not in_op_host(unit.path)


def run_tiling(program: Program, module: ModuleOp | None, shapes: TilingInputs, chip: str, *,
               fold_incomplete: bool = True) -> TilingResult:
    """Runs the program's host tiling function on `shapes` and, when it succeeds, folds what it set into
    `module` (fold-tiling); output shapes not given are then those `inferred_outputs` finds. The chip of
    `shapes` defaults to the one being checked. Input dtypes the op json does not list are rejected before
    anything runs (the framework would not launch the op). A kernel-only NPUKernelBench answer runs no host
    function: it is launched on all vector cores with no tiling data (passes/verify/kernel_only.py).
    `fold_incomplete=False` leaves the module alone when the host lowering left statements out
    (`result.gaps`), as the checker does; the simulator runs with the values anyway. With no module, nothing is
    folded (the simulator's launch folds into its own copy: passes/sim/lowering_cache.py)."""

    from ascendir.context import make_context
    from ascendir.host_eval import TilingResult
    from ascendir.lower import dtype_column
    from ascendir.lower.host import evaluate_program_tiling
    from passes.fold_tiling import FoldTilingPass
    from passes.verify import kernel_only

    if shapes.chip == "910B2" and chip != "910B2":
        shapes = replace(shapes, chip=chip)
    given = [t.dtype for t in shapes.inputs if t is not None]
    supported, combos = dtype_column(program, given)
    if not supported:
        return TilingResult(None, None, None, {}, {}, [
            f"the op json supports no inputs of dtypes ({', '.join(given)}); its combinations are {combos}"],
            inputs=shapes)
    # a kernel-only answer has no host: it is launched as NPUKernelBench's fixed host launches it
    result = kernel_only.launch(program, shapes, chip) or evaluate_program_tiling(program, shapes)
    if result.succeeded and not shapes.outputs:
        shapes = replace(shapes, outputs=inferred_outputs(program, shapes))
    result.inputs = shapes
    # values computed after a statement the host lowering left out (result.gaps) may not be the device's:
    # the checker does not fold them (it would check the kernel for a tiling that never runs)
    if module is not None and result.succeeded and (fold_incomplete or not result.gaps):
        FoldTilingPass(result.fields, result.tiling_key, result.block_dim).apply(make_context(), module)
    return result


def inferred_outputs(program: Program, shapes: TilingInputs) -> list[TensorSpec | None]:
    """The op's output tensors for `shapes`: those the Python binding allocates when the program has one that
    calls the op (MultiKernelBench style, where the binding's tensors are the outputs and InferShape never
    runs), else those the host InferShape computes, with the dtypes the op json pairs with the inputs'.
    Empty when neither says; None for an output whose shape is not known."""
    from ascendir.host_eval import TensorSpec
    from ascendir.lower import output_dtypes
    from ascendir.lower.host import evaluate_program_infer_shape

    allocated = binding_outputs(program)
    if allocated is not None:
        return [shapes.inputs[i] if i is not None and i < len(shapes.inputs) else None for i in allocated]
    inferred = evaluate_program_infer_shape(program, shapes)
    if not inferred.succeeded or not inferred.complete:
        return []
    dtypes = output_dtypes(program, [t.dtype for t in shapes.inputs if t is not None])
    return [TensorSpec(shape, dtype) if shape is not None and dtype is not None else None
            for shape, dtype in zip(inferred.outputs, dtypes, strict=False)]


def binding_outputs(program: Program) -> list[int | None] | None:
    """For each output of the op json, the op input whose shape and dtype the Python binding gives it
    (`at::Tensor y = at::empty_like(x);` with x passed to EXEC_NPU_CMD as that input), None where it allocates
    the output otherwise; None without a binding that calls the op."""
    from frontend import ast as A
    from ascendir.binding_args import binding_initialisers, op_binding_call

    found_call = op_binding_call(program)
    if found_call is None:
        return None
    fn, call = found_call
    op_json = (program.bundle.op_json or [{}])[0]
    inputs, outputs = len(op_json.get("input_desc") or []), len(op_json.get("output_desc") or [])
    args = [_bound_name(a) for a in call.args[1:]]
    if len(args) < inputs + outputs:
        return [None] * outputs
    inits = binding_initialisers(fn)
    found: list[int | None] = []
    for name in args[len(args) - outputs:]:
        init = inits.get(name) if name is not None else None
        like = init.args[0] if isinstance(init, A.Call) and init.callee_name == "empty_like" and \
            len(init.args) == 1 else None
        source = _bound_name(like)
        found.append(args.index(source) if source is not None and source in args[:inputs] else None)
    return found


def _bound_name(node: object) -> str | None:
    """The variable an EXEC_NPU_CMD or empty_like argument names (`x`, `x.contiguous()`), or None."""
    from frontend import ast as A

    if isinstance(node, A.Call) and not node.args and isinstance(node.callee, A.Member) and \
            node.callee.member == "contiguous":
        node = node.callee.obj
    return node.name if isinstance(node, A.Name) and len(node.qname.parts) == 1 else None


def wanted(code: str, select: Sequence[str] | None, ignore: Sequence[str]) -> bool:
    """--select/--ignore apply to rule and lowering codes alike; frontend diagnostics always show."""
    if code < "ASC100":
        return True
    if select is not None and not any(code.startswith(s) for s in select):
        return False
    return not any(code.startswith(i) for i in ignore)


def apply_inline_ignores(diags: Iterable[Diagnostic], program: Program | None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for d in diags:
        if program is not None and d.span is not None and _ignored(d, program):
            continue
        out.append(d)
    return out


def _ignored(d: Diagnostic, program: Program) -> bool:
    assert d.span is not None
    for line_no in (d.span.line, d.span.line - 1):
        line = program.line(d.span.file, line_no)
        if not line:
            continue
        m = _IGNORE_RE.search(line)
        if m is None:
            continue
        codes = m.group("codes")
        if codes is None or d.code in {c.strip() for c in codes.split(",")}:
            return True
    return False
