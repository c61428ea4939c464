"""AST to IR: every kernel of a program becomes one `ascendc.kernel` op in a builtin module.

    result = lower_program(frontend.pipeline.load("op_project/"), LoweringOptions(chip="910B2"))
    result.module      # ModuleOp holding the kernels
    result.diagnostics # ASC100-ASC105: unknown APIs, no matching overload, undeclared names, ...

The lowering never raises on user input: what it cannot model becomes a diagnostic, and the kernel is
still produced (with the unmodelled statement left out), so the verifier can check the rest.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Block, Region

from ascendir.catalog import arch_catalogued
from ascendir.chips import folder_arch, load_chip
from ascendir.dialects import ascendc as asc
from ascendir.lower import absent_inputs, ctypes as C, gm_statics, host_program, tpl_tiling_key
from ascendir.lower.catalog_view import CatalogView
from ascendir.lower.diagnostics import NOT_MODELLED, Reporter, span_of
from ascendir.lower.function import (
    MAX_KERNEL_OPS,
    Frame,
    FunctionLowerer,
    KernelTooLarge,
    Unsupported,
    forget_ast_facts,
)
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
from ascendir.lower.values import Val
from frontend import ast as A
from frontend.diagnostics import Diagnostic, Note, error, warning
from frontend.pipeline import Program
from frontend.readers import in_op_host

INTERNAL_ERROR = "ASC000"
MISSING_INCLUDE = "ASC002"


# A kernel lowered from a source written for another chip than its program's carries that chip's name.
TARGET_CHIP_ATTR = "ascendc.target_chip"
# on a kernel lowered once per tiling key (too large to lower whole): the key this KernelOp is for
TILING_KEY_ATTR = "ascendc.tiling_key"
# the ops lowered over all the keys of one such kernel
MAX_SPLIT_OPS = MAX_KERNEL_OPS
# A run lowers for the one tiling key its host chose (LoweringOptions.tiling_key: `ascendir run`, the simulator's
# launch), and that key's kernel is the only one that executes: a kernel too large for MAX_KERNEL_OPS (a bound on
# ascendc-check's time per kernel, which stays) is lowered again for the run with this budget of its own. ops-nn
# mat_mul_v3's MatmulBaseUnAlignedKernel instance (key 0 of 50x100 @ 100x70 half) inlines to more than 40,000.
MAX_RUN_KEY_OPS = 4 * MAX_KERNEL_OPS
# on the module: the kernel entries (or their tiling keys' kernels) a lowering left out, too large or failed, each
# {kernel, file, line, col, key (-1: none), reason, run (1: lowered for the run's key with MAX_RUN_KEY_OPS)}: a
# launch of such an entry reports it (passes/sim/launch_kernel.py) rather than running another entry of the op
# (another chip's)
NOT_LOWERED_ATTR = "ascendc.not_lowered"
# on a kernel template instantiated from the template tiling key (ASCENDC_TPL_ARGS_DECL, lower/tpl_tiling_key.py):
# the key its template arguments were decoded from
TPL_KEY_ATTR = "ascendc.tpl_tiling_key"


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


_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc")


def _included_by_kernel_sources(program: Program) -> set[str]:
    """The kernel headers of an op project that a kernel source file includes. They are units of their
    own too (op_kernel/*.h), but collected a second time a header's class would replace the one the
    source's out-of-class method definitions (`void K<T>::Init(...) {...}`) were attached to."""
    found: set[str] = set()
    for u in program.units:
        if u.unit.role == "kernel" and u.preprocessed is not None \
                and not u.unit.path.lower().endswith(_HEADER_SUFFIXES):
            found.update(os.path.normpath(p) for p in u.preprocessed.includes)
    return found


_INCLUDE_DIRECTIVE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*["<]([^">]+)[">]', re.M)


def _named_by_kernel_includes(program: Program) -> set[str]:
    """The basenames of the headers a kernel source's `#include` directives name, taken or not by the
    preprocessor. A header named only in a branch dropped for the chip (`#if __CCE_AICORE__ == 200` around
    `#include "layer_norm_v4_transpose_310p.h"`) is not compiled for it: the build compiles an op_kernel
    header only through the sources that include it. (Names a taken include could not find are left out: there
    the header's own lowering is all the checking it gets.)"""
    names: set[str] = set()
    for u in program.units:
        if u.unit.role == "kernel" and not u.unit.path.lower().endswith(_HEADER_SUFFIXES):
            missing = {os.path.basename(m) for m in (u.preprocessed.missing_includes if u.preprocessed else [])}
            names.update(os.path.basename(n) for n in _INCLUDE_DIRECTIVE.findall(u.unit.text)
                         if os.path.basename(n) not in missing)
    return names


def _libraries(program: Program) -> set[str]:
    """The vendor libraries (Scope.libraries) that the program's kernel sources include."""
    included = {os.path.normpath(h).replace(os.sep, "/") for u in program.units
                if u.unit.role in ("kernel", "header") and u.preprocessed is not None
                for h in u.preprocessed.vendor_includes}
    return {"matmul"} if any(h.startswith("lib/matmul") for h in included) else set()


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
    included = _included_by_kernel_sources(program)
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
        if group == "kernel" and u.unit.path.lower().endswith(_HEADER_SUFFIXES):
            if named is None:
                named = _named_by_kernel_includes(program)
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
    scopes = [_with_others(scope, others, program)]
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
        scopes = [_with_others(collect([by_role["kernel"][i], *(by_role["kernel"][j] for j in rest if folder_arch(
            kernel_paths[j]) in (None, archs[i]))]), others, program) for i in own]
    dtypes = dict(options.dtypes) or dtype_bindings(program)
    catalog = CatalogView.get()
    module = ModuleOp([])
    kernels: list[asc.KernelOp] = []
    not_lowered: list[DictionaryAttr] = []
    for scope in scopes:
        opts = LoweringOptions(options.chip, dtypes,
                               options.tiling_struct or _tiling_struct(scope, host_scope, context),
                               options.tiling_key, options.absent_inputs)
        main = host_program.find_main(scope) if options.host_args is not None else None
        if main is not None:
            kernel = _lower_host_program(FunctionLowerer(scope, reporter, catalog, opts), main, options, reporter,
                                         _uses_namespace_std(by_role["kernel"]))
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
                kernel = _lower_entry(make_lowerer(), fn, template, reporter, target)
                lowered = [kernel] if kernel is not None else []
                if kernel is None:
                    why = next((d.message for d in reporter.diagnostics[seen:] if d.is_error), "see the findings")
                    not_lowered.append(_not_lowered(fn, opts.tiling_key, f"its lowering failed ({why})",
                                                    opts.tiling_key is not None))
            except KernelTooLarge as exc:
                lowered = _lower_per_tiling_key(make_lowerer, fn, template, reporter, target, exc, not_lowered)
            for kernel in lowered:
                _give_unique_symbol(kernel, {k.sym_name.data for k in kernels})
                module.body.block.add_op(kernel)
                kernels.append(kernel)
    if not_lowered:
        module.attributes[NOT_LOWERED_ATTR] = ArrayAttr(not_lowered)
    return LoweringResult(module, reporter.diagnostics, kernels)


def _not_lowered(fn: A.FunctionDecl, key: int | None, reason: str, run: bool) -> DictionaryAttr:
    """The NOT_LOWERED_ATTR record of a kernel entry (of one tiling key's kernel of it) a lowering left out."""
    return DictionaryAttr({"kernel": StringAttr(fn.name.parts[-1].name),
                           "file": StringAttr(os.path.normpath(str(fn.span.file)) if fn.span is not None else ""),
                           "line": IntegerAttr(fn.span.line if fn.span is not None else 0, 64),
                           "col": IntegerAttr(fn.span.col if fn.span is not None else 0, 64),
                           "key": IntegerAttr(-1 if key is None else key, 64), "reason": StringAttr(reason),
                           "run": IntegerAttr(int(run), 64)})


def _with_others(scope: Scope, others: Iterable[Scope], program: Program) -> Scope:
    """A kernel scope completed with what the build gives a kernel from elsewhere: the vendor libraries its
    sources include, tiling layouts of host headers the kernel never includes (the build generates the glue), and
    the template tiling key's declarations (the kernel build defines ASCENDC_TPL_ARGS_DECL to nothing, the host
    sources that include the same header keep them)."""
    scope.libraries = _libraries(program)
    for other in others:
        for name, ts in other.tiling_structs.items():
            if name not in scope.classes:
                # (a class of the kernel's own of that name is the one the kernel means: ops-nn
                # transpose_batch_mat_mul's kernel template HardwareInfo<ArchTag> beside its host's HardwareInfo)
                scope.tiling_structs.setdefault(name, ts)
        scope.tpl_declarations += other.tpl_declarations
        for where, units in other.tpl_units.items():
            scope.tpl_units.setdefault(where, set()).update(units)
    return scope


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


def _uses_namespace_std(units: list[A.TranslationUnit]) -> bool:
    """Whether a source or header has `using namespace std;` at namespace scope (catlass's 19_mla: its options
    struct's `string dataType`)."""
    def found(decls: list[A.Node]) -> bool:
        return any(isinstance(d, A.UsingDirective) and [p.name for p in d.namespace.parts] == ["std"]
                   or isinstance(d, A.NamespaceDecl) and found(d.decls) for d in decls)

    return any(found(u.decls) for u in units)


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


def _lower_entry(lowerer: FunctionLowerer, fn: A.FunctionDecl, template: list[A.TemplateParam] | None,
                 reporter: Reporter, target: str | None) -> asc.KernelOp | None:
    """One lowering of a kernel entry: its KernelOp, or None when it could not be lowered (reported). Raises
    KernelTooLarge, which the caller answers."""
    try:
        kernel = lower_kernel(lowerer, fn, template)
    except Unsupported as exc:  # outside any statement (a kernel parameter, a template argument)
        reporter.failed(exc)
        return None
    except RecursionError:
        reporter.unsupported("expressions or templates nested too deeply to follow", fn)
        return None
    except KernelTooLarge:
        raise
    except Exception as exc:  # a bug of ours must not become a traceback for the user
        if os.environ.get("ASCENDIR_DEBUG"):
            raise
        reporter.add(error(INTERNAL_ERROR, f"internal error while lowering '{fn.name.parts[-1].name}': "
                           f"{type(exc).__name__}: {exc}", span_of(fn),
                           Note("please report this with the input file", kind="help")))
        return None
    if target is not None:
        kernel.attributes[TARGET_CHIP_ATTR] = StringAttr(target)
    return kernel


def _lower_per_tiling_key(make_lowerer: Callable[[], FunctionLowerer], fn: A.FunctionDecl,
                          template: list[A.TemplateParam] | None, reporter: Reporter, target: str | None,
                          too_large: KernelTooLarge, not_lowered: list[DictionaryAttr]) -> list[asc.KernelOp]:
    """A kernel too large to lower whole, lowered once per tiling key it tests (TILING_KEY_IS): a launch runs
    one key's branch, and vendor kernels that dispatch to dozens of templates are large only taken together.
    Each key's KernelOp carries the key (TILING_KEY_ATTR) and is checked as a kernel of its own. The keys are
    lowered in source order while the ops of all of them stay within MAX_SPLIT_OPS (the checking time of one
    kernel at the size limit); the keys left over, and a kernel without TILING_KEY_IS, are reported as not
    checked. A run's key (LoweringOptions.tiling_key) is lowered first with MAX_RUN_KEY_OPS of its own, and a
    kernel without TILING_KEY_IS (a template instance for the key, or one body) is lowered again with it; what
    is still left out is recorded in `not_lowered` (NOT_LOWERED_ATTR)."""
    name = fn.name.parts[-1].name
    first = make_lowerer()
    keys = _tiling_keys(first, fn)
    preferred = getattr(first.options, "tiling_key", None)
    if preferred in keys:
        keys.remove(preferred)
        keys.insert(0, preferred)
    if not keys:
        if isinstance(preferred, int):
            kernel = _lower_run_key(make_lowerer, fn, template, reporter, target, None, preferred, not_lowered)
            return [kernel] if kernel is not None else []
        not_lowered.append(_not_lowered(fn, None, str(too_large), False))
        reporter.add(warning(NOT_MODELLED, f"kernel '{name}' is too large to check: {too_large}", span_of(fn)))
        return []
    kernels: list[asc.KernelOp] = []
    left_over: list[int] = []
    budget = MAX_SPLIT_OPS
    for key in keys:
        if key == preferred:  # the run's key: a budget of its own
            kernel = _lower_run_key(make_lowerer, fn, template, reporter, target, key, key, not_lowered)
            if kernel is not None:
                kernels.append(kernel)
            continue
        if budget <= 0:
            left_over.append(key)
            continue
        lowerer = make_lowerer()
        lowerer.tiling_key = key
        lowerer.max_ops = budget
        try:
            kernel = _lower_entry(lowerer, fn, template, reporter, target)
        except KernelTooLarge:
            left_over.append(key)
            budget = 0  # spent on this key
            continue
        budget -= lowerer.op_count
        if kernel is not None:
            kernel.attributes[TILING_KEY_ATTR] = IntegerAttr(key, 64)
            kernels.append(kernel)
    if left_over:
        not_lowered.extend(_not_lowered(fn, k, f"its kernel did not fit beside the other keys' ({too_large} "
                                               "whole)", False) for k in left_over)
        shown = ", ".join(str(k) for k in left_over[:8]) + (", ..." if len(left_over) > 8 else "")
        reporter.add(warning(NOT_MODELLED, f"kernel '{name}' is too large to check whole ({too_large}); it was "
                                           f"checked once per tiling key, but not for "
                                           f"{len(left_over)} of its {len(keys)} keys ({shown})", span_of(fn)))
    return kernels


def _lower_run_key(make_lowerer: Callable[[], FunctionLowerer], fn: A.FunctionDecl,
                   template: list[A.TemplateParam] | None, reporter: Reporter, target: str | None,
                   branch: int | None, key: int, not_lowered: list[DictionaryAttr]) -> asc.KernelOp | None:
    """The kernel of the run's tiling key `key` with MAX_RUN_KEY_OPS: its TILING_KEY_IS branch (`branch`), or the
    whole kernel (a template instance for the key) when `branch` is None. Left out (too large, failed): an
    error at the kernel naming the key and why, and its NOT_LOWERED_ATTR record."""
    name = fn.name.parts[-1].name
    lowerer = make_lowerer()
    lowerer.tiling_key = branch
    lowerer.max_ops = MAX_RUN_KEY_OPS
    seen = len(reporter.diagnostics)
    try:
        kernel = _lower_entry(lowerer, fn, template, reporter, target)
    except KernelTooLarge as exc:
        why = str(exc)
    else:
        if kernel is not None:
            if branch is not None:
                kernel.attributes[TILING_KEY_ATTR] = IntegerAttr(branch, 64)
            return kernel
        why = "its lowering failed: " + next((d.message for d in reporter.diagnostics[seen:] if d.is_error),
                                             "see the findings")
    not_lowered.append(_not_lowered(fn, key, why, True))
    reporter.add(error(NOT_MODELLED, f"kernel '{name}' was not lowered for the run's tiling key {key}: {why}",
                       span_of(fn)))
    return None


def _tiling_keys(lowerer: FunctionLowerer, fn: A.FunctionDecl) -> list[int]:
    """The constant keys of the TILING_KEY_IS tests in a kernel entry's body, in source order."""
    keys: dict[int, None] = {}
    lowerer.frames.append(Frame(fn.name.parts[-1].name, [{}], None, {}, set()))
    try:
        for node in fn.body.walk() if fn.body is not None else ():
            if (isinstance(node, A.Call) and node.callee_name == "TILING_KEY_IS" and node.args):
                try:
                    key = lowerer.const_eval(node.args[0])
                except Exception:  # a key that does not fold is not one to lower for
                    continue
                if isinstance(key, int) and not isinstance(key, bool):
                    keys.setdefault(key)
    finally:
        lowerer.frames.pop()
    return list(keys)


def _tiling_struct(scope: Scope, host: Scope, context: Scope | None = None) -> str | None:
    """The struct GET_TILING_DATA reads: REGISTER_TILING_DEFAULT's, else the one registered for the kernel's
    operator type (REGISTER_TILING_DATA_CLASS(OpType, S), OpType the entry's name in CamelCase, as the build
    matches them), else the first registered, else the one tiling struct defined."""
    if scope.default_tiling:
        return scope.default_tiling
    entries = {fn.name.parts[-1].name.replace("_", "").lower() for fn, _ in scope.kernels}
    registries = [host.registered_tiling, scope.registered_tiling, *([context.registered_tiling] if context else [])]
    for registry in registries:
        own = [struct for op, struct in registry.items() if op.replace("_", "").lower() in entries]
        if own:
            return own[0]
    registered = next((list(r.values()) for r in registries if r), [])
    # a struct registered only to be a TILING_DATA_FIELD_DEF_STRUCT of another is not what the kernel reads
    nested = {f[1].base.parts[-1].name for ts in (*host.tiling_structs.values(), *scope.tiling_structs.values())
              for f in ts.fields if f[3] == "struct" and isinstance(f[1].base, A.QualifiedName)}
    outer = [name for name in registered if name not in nested]
    if outer or registered:
        return (outer or registered)[0]
    defs = [n for n, ts in {**host.tiling_structs, **scope.tiling_structs}.items()
            if n.endswith("TilingData") or n.endswith("Tiling")]
    return defs[0] if len(defs) == 1 else None


def lower_kernel(lw: FunctionLowerer, fn: A.FunctionDecl, template: list[A.TemplateParam] | None) -> asc.KernelOp:
    name = fn.name.parts[-1].name
    types: dict[str, object] = {}
    tpl_key: int | None = None
    if template:
        types, tpl_key = _kernel_template_bindings(lw, fn, template)
    frame = Frame(name, [{}], None, types, lw.written_names(fn.body) if fn.body else set())
    lw.frames.append(frame)
    param_types = []
    for p in fn.params:
        # (`const TransDataTo5HDParams& params`: asc-devkit's API tests launch kernels with parameter structs)
        t = lw.param_type(p)
        if isinstance(t, C.Pointer) and not t.gm and "&" not in p.type.pointers:
            t = C.Pointer(t.pointee, gm=True)  # kernel pointer arguments live in GM
        param_types.append(t)
    block = Block(arg_types=[C.ir_type(t) for t in param_types])
    lw.builder = Builder(InsertPoint.at_end(block))
    lw.kernel_block = block
    absent_inputs.mark(lw, param_types, block.args)  # (the launch's absent optional inputs are nullptr)
    for p, t, arg in zip(fn.params, param_types, block.args):
        if p.name is None:
            continue
        arg.name_hint = p.name
        value = Val(t, arg)
        if p.name in frame.assigned:
            lw.bind(p.name, lw.new_cell(t, p.name, p, value))
        else:
            lw.bind(p.name, value)
    assert fn.body is not None
    lw.begin_function_body(fn.body.body, fn)
    lw.lower_stmts(fn.body.body, top="function")
    lw.run_destructors(frame.scopes[0], fn.body)
    lw.frames.pop()
    lw.builder.insert(asc.ReturnOp.create())
    block.last_op.location = lw.loc(fn.body)  # type: ignore[union-attr]
    kernel_type = lw.kernel_type if lw.kernel_type != "default" else _kernel_type_from_specifiers(fn)
    # (namespace-scope __gm__ arrays the body used are parameters after the declared ones: gm_statics)
    kernel = asc.KernelOp(name, [a.type for a in block.args], Region(block), kernel_type)
    kernel.location = lw.loc(fn)
    statics = gm_statics.kernel_attribute(lw, block)
    if statics is not None:
        kernel.attributes[gm_statics.ATTR] = statics
    if tpl_key is not None:
        kernel.attributes[TPL_KEY_ATTR] = IntegerAttr(tpl_key, 64)
    return kernel


def _kernel_type_from_specifiers(fn: A.FunctionDecl) -> str:
    """CANN 9 `.asc` kernels say where they run in their declaration: __vector__, __cube__, __mix__(c, v)."""
    for spec in fn.specifiers:
        text = spec.replace(" ", "")
        if text == "__vector__":
            return "aiv"
        if text == "__cube__":
            return "aic"
        if text.startswith("__mix__("):
            ratio = text[len("__mix__("):-1].replace(",", "_")
            kind = f"mix_aic_{ratio}" if ratio in ("1_1", "1_2", "1_0") else "mix_aiv_1_0" if ratio == "0_1" else "default"
            return kind
    return "default"


def _kernel_template_bindings(lw: FunctionLowerer, fn: A.FunctionDecl,
                              params: list[A.TemplateParam]) -> tuple[dict[str, object], int | None]:
    """A template kernel is checked for the arguments of its first launch, else, an ops-repository kernel whose
    template parameters an ASCENDC_TPL_ARGS_DECL declares, for those the tiling key encodes (the instance the
    runtime launches for the key the host chose; with no key yet, key 0: each parameter's first declared value),
    else its defaults. The key the arguments were decoded from comes second (None: not decoded)."""
    name = fn.name.parts[-1].name
    targs: list[A.TemplateArg] | None = None
    caller: A.FunctionDecl | None = None
    for launch, launcher in lw.scope.launches:
        k = launch.kernel
        if isinstance(k, A.Name) and k.qname.parts[-1].name == name and k.qname.parts[-1].template_args:
            targs, caller = k.qname.parts[-1].template_args, launcher
            break
    if targs is None and lw.scope.tpl_declarations:
        decoded = _tpl_bindings(lw, fn, params)
        if decoded is not None:
            return decoded
    types: dict[str, object] = {}
    lw.frames.append(Frame(name, [{}], None, {}, set()))
    try:
        if caller is not None and caller.body is not None:
            _bind_caller_constants(lw, caller.body)
        missing = False
        for i, p in enumerate(params):
            if p.name is None:
                continue
            if targs and i < len(targs):
                types[p.name] = lw._template_arg_value(targs[i])
            elif p.default is not None:
                types[p.name] = lw._default_template_value(p)
            else:
                missing = True
                types[p.name] = C.Scalar("half") if p.kind == "type" else 1
        if missing and targs is None:
            lw.report.no_instantiation(name, fn)
    finally:
        lw.frames.pop()
    return types, None


def _tpl_bindings(lw: FunctionLowerer, fn: A.FunctionDecl,
                  params: list[A.TemplateParam]) -> tuple[dict[str, object], int] | None:
    """The template arguments of the kernel instance for the tiling key (tpl_tiling_key.kernel_bindings); None
    when no declaration is the kernel's. A key that gives no declared combination (a key another kernel of the
    op folder handles: the 910B entry's TILING_KEY_IS keys beside a 950 template entry) is a warning, and the
    instance of key 0 is checked."""
    name = fn.name.parts[-1].name
    try:
        # (in a frame of its own: a value named by a namespace-scope constant, `constexpr uint32_t MODE_A = 3;`,
        # is folded by the lowering, which looks names up from a frame; there is none before the kernel's)
        with lw._template_frame(name, [], []):
            decls = tpl_tiling_key.declarations(lw.scope.tpl_declarations, lw.const_eval)
    except Unsupported as exc:
        lw.report.failed(exc)
        return None
    decl = tpl_tiling_key.for_kernel(decls, name, len(params), fn.span.file if fn.span is not None else None)
    if decl is None:
        return None
    key = lw.options.tiling_key if isinstance(getattr(lw.options, "tiling_key", None), int) else 0
    try:
        return tpl_tiling_key.kernel_bindings(decl, key, params, fn), key
    except Unsupported as exc:
        if key == 0:
            raise
        lw.report.add(warning(NOT_MODELLED, f"kernel '{name}' has no instance for tiling key {key}: {exc.args[0]}; "
                                            "it was checked for key 0", span_of(fn)))
        return tpl_tiling_key.kernel_bindings(decl, 0, params, fn), 0


def _bind_caller_constants(lw: FunctionLowerer, body: A.Compound) -> None:
    """`constexpr uint32_t rows = 8; k<rows><<<...>>>()`: the launching function's constants, for the
    template arguments of the launch."""
    for st in body.body:
        if isinstance(st, A.VarDecl) and ("constexpr" in st.specifiers or "const" in st.specifiers):
            for d in st.declarators:
                if d.init is not None and not isinstance(d.init, A.InitList):
                    try:
                        value = lw.const_eval(d.init)
                    except Unsupported:
                        continue
                    if isinstance(value, int | float) and not isinstance(value, bool):
                        t = lw.resolve_type(d.type)
                        lw.bind(d.name, Val(t if isinstance(t, C.Scalar) else C.I64, const=value))


__all__ = ["LoweringOptions", "LoweringResult", "StringAttr", "Unsupported", "dtype_bindings", "lower_program"]
