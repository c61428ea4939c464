"""AST to IR: every kernel of a program becomes one `ascendc.kernel` op in a builtin module.

    result = lower_program(frontend.pipeline.load("op_project/"), LoweringOptions(chip="910B2"))
    result.module      # ModuleOp holding the kernels
    result.diagnostics # ASC100-ASC105: unknown APIs, no matching overload, undeclared names, ...

The lowering never raises on user input: what it cannot model becomes a diagnostic, and the kernel is
still produced (with the unmodelled statement left out), so the verifier can check the rest.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr

from ascendir.catalog import arch_catalogued
from ascendir.chips import folder_arch, load_chip
from ascendir.dialects import ascendc as asc
from ascendir.lower import host_program, program_scopes
from ascendir.lower.catalog_view import CatalogView
from ascendir.lower.diagnostics import Reporter, span_of
from ascendir.lower.function import FunctionLowerer, KernelTooLarge, Unsupported, forget_ast_facts
from ascendir.lower.kernel_entry import INTERNAL_ERROR, NOT_LOWERED_ATTR, lower_entry, not_lowered_record
from ascendir.lower.op_dtypes import (  # re-exported: callers import them from the package
    GE_DTYPES as GE_DTYPES,
    dtype_bindings as dtype_bindings,
    dtype_column as dtype_column,
    guessed_dtypes as guessed_dtypes,
    numpy_dtype_of_ge as numpy_dtype_of_ge,
    output_dtypes as output_dtypes,
    unbound_dtype_macros as unbound_dtype_macros,
)
from ascendir.lower.scope import Scope, collect
from ascendir.lower.tiling_key_split import TILING_KEY_ATTR, lower_per_tiling_key
from frontend import ast as A
from frontend.diagnostics import Diagnostic, error
from frontend.pipeline import Program
from frontend.readers import in_op_host

MISSING_INCLUDE = "ASC002"


@dataclass
class LoweringOptions:
    chip: str = "910B2"
    # DTYPE_<NAME> -> C type name; filled from the op json when absent
    dtypes: dict[str, str] = field(default_factory=dict)
    # the tiling struct GET_TILING_DATA reads; found from the program when None
    tiling_struct: str | None = None
    # a kernel too large to lower whole is lowered once per tiling key: this key's branch first (the one a launch
    # runs, which must not be among those left over)
    tiling_key: int | None = None
    # positions of the op's inputs the launch gives no tensor (absent optional inputs: nullptr on the device)
    absent_inputs: tuple[int, ...] = ()
    # a host program's arguments (argv[1:]): its main is lowered as the one entry, the kernel it launches called
    # from there (ascendir/lower/host_program.py); None: the program's kernels are the entries
    host_args: tuple[str, ...] | None = None
    # what a host program's earlier lowering and evaluation found (passes/sim/host_run.py): the element count of
    # each std::vector of objects made with a count that was not a constant while lowering, by the place of its
    # declarator ("file:line:col"), and host vectors whose values the run is given, by name, as (name, C element
    # type, values) (ascendir/lower/host_program_vectors.py)
    host_counts: tuple[tuple[str, int], ...] = ()
    host_given: tuple[tuple[str, str, tuple[int | float, ...]], ...] = ()


@dataclass
class LoweringResult:
    module: ModuleOp
    diagnostics: list[Diagnostic]
    kernels: list[asc.KernelOp]


def lower_program(program: Program, options: LoweringOptions | None = None) -> LoweringResult:
    try:
        return _lower_program(program, options)
    finally:
        forget_ast_facts()


def _lower_program(program: Program, options: LoweringOptions | None = None) -> LoweringResult:
    options = options or LoweringOptions()
    missing_includes = any(d.code == MISSING_INCLUDE for u in program.units for d in u.diagnostics)
    program_uncatalogued = not arch_catalogued(load_chip(options.chip).npu_arch)
    reporter = Reporter(names_incomplete=missing_includes, api_uncatalogued=program_uncatalogued)
    # kernels of sources written for another chip than the program's (ParsedUnit.target)
    kernel_targets = {id(d): u.target for u in program.units if u.target is not None
                      for d in u.ast.walk() if isinstance(d, A.FunctionDecl) and d.is_kernel}
    by_role: dict[str, list[A.TranslationUnit]] = {"kernel": [], "host": [], "other": []}
    kernel_paths: list[str] = []  # of by_role["kernel"], in order
    included = program_scopes.included_by_kernel_sources(program)
    named: set[str] | None = None  # read from the kernel sources' text only if a kernel header needs it: the
    # scan of every source line costs 0.3 M instructions per kernel check, and a single-file kernel has no header
    for u in program.units:
        # a header under op_host is host code (ops-nn transpose_batch_mat_mul's op_host/op_tiling/pp_matmul_info.h,
        # whose struct HardwareInfo hid the kernel's class template HardwareInfo<ArchTag> and its constants), as
        # the device build, which never reads op_host, has it (passes.verify._kernel_side)
        group = "kernel" if u.unit.role == "kernel" or (u.unit.role == "header" and not in_op_host(u.unit.path)) \
            else "host" if u.unit.role in ("host", "tiling_header", "header") else "other"
        if group == "kernel" and os.path.normpath(u.unit.path) in included:
            continue  # already part of the source that includes it, with that source's macros
        if group == "kernel" and u.unit.path.lower().endswith(program_scopes.HEADER_SUFFIXES):
            if named is None:
                named = program_scopes.named_by_kernel_includes(program)
            if os.path.basename(u.unit.path) in named:
                continue  # included by a kernel source only under a condition this chip's compile drops
        by_role[group].append(u.ast)
        if group == "kernel":
            kernel_paths.append(os.path.normpath(u.unit.path))
    scope = collect(by_role["kernel"])
    host_scope = collect(by_role["host"])
    # the op_host tiling headers the build gives a kernel file read alone (frontend/op_tiling.py)
    context = collect([u.ast for u in program.context])
    others = (host_scope, collect(by_role["other"]), context)
    scopes = [program_scopes.with_others(scope, others, program)]
    # an op folder whose sources are compiled apart, each with its entry (ops-nn's op.cpp for the 910B and
    # op_apt.cpp for the 950): each entry is lowered with its own source's declarations, which may define a
    # class of the same name differently (dynamic_quant's DynamicQuantNDOpt::DynamicQuantBase in
    # dynamic_quant_base.h and in arch35/dynamic_quant_regbase_base.h)
    entries = {os.path.normpath(str(fn.span.file)) for fn, _ in scope.kernels if fn.body is not None}
    own = [i for i, path in enumerate(kernel_paths) if path in entries]
    if len(own) > 1:
        # a header no source includes goes with the entries of its folder's architecture (arch35/: the 950's)
        targets = {os.path.normpath(u.unit.path): u.target for u in program.units}
        archs = [folder_arch(p) or load_chip(targets.get(p) or options.chip).npu_arch for p in kernel_paths]
        rest = [i for i in range(len(kernel_paths)) if i not in own]
        scopes = [program_scopes.with_others(collect([by_role["kernel"][i], *(by_role["kernel"][j] for j in rest
                                                          if folder_arch(kernel_paths[j]) in (None, archs[i]))]),
                                             others, program) for i in own]
    dtypes = dict(options.dtypes) or dtype_bindings(program)
    catalog = CatalogView.get()
    module = ModuleOp([])
    kernels: list[asc.KernelOp] = []
    not_lowered: list[DictionaryAttr] = []
    for scope in scopes:
        opts = LoweringOptions(options.chip, dtypes,
                               options.tiling_struct or program_scopes.tiling_struct(scope, host_scope, context),
                               options.tiling_key, options.absent_inputs)
        main = host_program.find_main(scope) if options.host_args is not None else None
        if main is not None:
            kernel = _lower_host_program(FunctionLowerer(scope, reporter, catalog, opts), main, options, reporter,
                                         program_scopes.uses_namespace_std(by_role["kernel"]))
            if kernel is not None:
                module.body.block.add_op(kernel)
                kernels.append(kernel)
            continue
        for fn, template in scope.kernels:
            if fn.body is None:
                continue
            target = kernel_targets.get(id(fn))
            reporter.api_uncatalogued = (not arch_catalogued(load_chip(target).npu_arch) if target is not None
                                         else program_uncatalogued)

            def make_lowerer(scope: Scope = scope, opts: LoweringOptions = opts) -> FunctionLowerer:
                return FunctionLowerer(scope, reporter, catalog, opts)

            seen = len(reporter.diagnostics)
            try:
                kernel = lower_entry(make_lowerer(), fn, template, reporter, target)
                lowered = [kernel] if kernel is not None else []
                if kernel is None:
                    # its error, else what it reported without one (nested too deeply: a warning, ASC103), with
                    # its place when that is not the entry's own
                    said = [d for d in reporter.diagnostics[seen:] if d.is_error] or reporter.diagnostics[seen:]
                    why = said[0].message if said else "see the findings"
                    if said and said[0].span is not None and said[0].span.line != getattr(fn.span, "line", None):
                        why = f"{os.path.basename(str(said[0].span.file))}:{said[0].span.line}: {why}"
                    not_lowered.append(not_lowered_record(fn, opts.tiling_key, f"its lowering failed ({why})",
                                                          opts.tiling_key is not None))
            except KernelTooLarge as exc:
                lowered = lower_per_tiling_key(make_lowerer, fn, template, reporter, target, exc, not_lowered)
            for kernel in lowered:
                _give_unique_symbol(kernel, {k.sym_name.data for k in kernels})
                module.body.block.add_op(kernel)
                kernels.append(kernel)
    if not_lowered:
        module.attributes[NOT_LOWERED_ATTR] = ArrayAttr(not_lowered)
    return LoweringResult(module, reporter.diagnostics, kernels)


def _give_unique_symbol(kernel: asc.KernelOp, taken: set[str]) -> None:
    """Renames `kernel` when its symbol is taken in the module, keeping its source name in an attribute: each
    tiling key of a kernel lowered per key is `<name>_tiling_key_<key>`, and a second entry of one name (two
    sources of a project defining it) gets a numeric suffix."""
    name = kernel.sym_name.data
    key = kernel.attributes.get(TILING_KEY_ATTR)
    if isinstance(key, IntegerAttr):
        name = f"{name}_tiling_key_{key.value.data}".replace("-", "m")
    unique, n = name, 1
    while unique in taken:
        n += 1
        unique = f"{name}_{n}"
    if unique != kernel.sym_name.data:
        kernel.attributes[asc.SOURCE_NAME_ATTR] = StringAttr(kernel.sym_name.data)
        kernel.sym_name = StringAttr(unique)


def _lower_host_program(lowerer: FunctionLowerer, main: A.FunctionDecl, options: LoweringOptions,
                        reporter: Reporter, std_visible: bool = False) -> asc.KernelOp | None:
    """A host program's main as its entry (host_program.py), or None when it could not be lowered (reported)."""
    try:
        return host_program.lower_entry(lowerer, main, options.host_args or (),  # type: ignore[return-value]
                                        dict(options.host_counts), {n: (t, v) for n, t, v in options.host_given},
                                        std_visible)
    except Unsupported as exc:
        reporter.failed(exc)
    except RecursionError:
        reporter.unsupported("expressions or templates nested too deeply to follow", main)
    except KernelTooLarge as exc:
        reporter.unsupported(str(exc), exc.node or main)
    except Exception as exc:  # a bug of ours must not become a traceback for the user
        if os.environ.get("ASCENDIR_DEBUG"):
            raise
        reporter.add(error(INTERNAL_ERROR, f"internal error while lowering the host program's main: "
                           f"{type(exc).__name__}: {exc}", span_of(main)))
    return None


__all__ = ["LoweringOptions", "LoweringResult", "StringAttr", "Unsupported", "dtype_bindings", "lower_program"]
