"""One kernel entry lowered to its `ascendc.kernel` op: its parameters (GM pointers), its body, its kind (aiv, aic,
mix) and, for a template kernel, the template arguments it is checked for (its first launch's, the template tiling
key's instance, or its defaults). What cannot be lowered is reported and the entry left out (None), with the record
the module keeps of it (NOT_LOWERED_ATTR)."""

from __future__ import annotations

import os

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr
from xdsl.ir import Block, Region

from ascendir.dialects import ascendc as asc
from ascendir.lower import absent_inputs, ctypes as C, gm_statics, tpl_tiling_key
from ascendir.lower.diagnostics import NOT_MODELLED, Reporter, span_of
from ascendir.lower.function import Frame, FunctionLowerer, KernelTooLarge, Unsupported
from ascendir.lower.values import Val
from frontend import ast as A
from frontend.diagnostics import Note, Span, error, warning


INTERNAL_ERROR = "ASC000"
# A kernel lowered from a source written for another chip than its program's carries that chip's name.
TARGET_CHIP_ATTR = "ascendc.target_chip"
# on a kernel template instantiated from the template tiling key (ASCENDC_TPL_ARGS_DECL, lower/tpl_tiling_key.py):
# the key its template arguments were decoded from
TPL_KEY_ATTR = "ascendc.tpl_tiling_key"
# on the module: the kernel entries (or their tiling keys' kernels) a lowering left out, too large or failed, each
# {kernel, file, line, col, key (-1: none), reason, run (1: lowered for the run's key with MAX_RUN_KEY_OPS)}: a
# launch of such an entry reports it (passes/sim/launch_kernel.py) rather than running another entry of the op
# (another chip's)
NOT_LOWERED_ATTR = "ascendc.not_lowered"


def not_lowered_record(fn: A.FunctionDecl, key: int | None, reason: str, run: bool) -> DictionaryAttr:
    """The NOT_LOWERED_ATTR record of a kernel entry (of one tiling key's kernel of it) a lowering left out."""
    return DictionaryAttr({"kernel": StringAttr(fn.name.parts[-1].name),
                           "file": StringAttr(os.path.normpath(str(fn.span.file)) if fn.span is not None else ""),
                           "line": IntegerAttr(fn.span.line if fn.span is not None else 0, 64),
                           "col": IntegerAttr(fn.span.col if fn.span is not None else 0, 64),
                           "key": IntegerAttr(-1 if key is None else key, 64), "reason": StringAttr(reason),
                           "run": IntegerAttr(int(run), 64)})


def lower_entry(lowerer: FunctionLowerer, fn: A.FunctionDecl, template: list[A.TemplateParam] | None,
                reporter: Reporter, target: str | None) -> asc.KernelOp | None:
    """One lowering of a kernel entry: its KernelOp, or None when it could not be lowered (reported). Raises
    KernelTooLarge, which the caller answers."""
    try:
        kernel = lower_kernel(lowerer, fn, template)
    except Unsupported as exc:  # outside any statement (a kernel parameter, a template argument)
        reporter.failed(exc)
        return None
    except RecursionError as exc:
        # the whole entry is left out: said where the lowering was when Python's recursion limit ran out (a
        # template instantiating itself, a chain of 10000 '+'), not at the kernel's signature
        reporter.add(warning(NOT_MODELLED, "expressions or templates nested too deeply to follow here; the kernel "
                             f"'{fn.name.parts[-1].name}' is left out", deepest_span(exc) or span_of(fn)))
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


def deepest_span(exc: BaseException) -> Span | None:
    """The place of the innermost source node the failing call stack was working on: of each frame from the
    outermost in, the last local that is a node with a place (the frames are the lowering's recursive visitors,
    whose locals are the statements and expressions they lower)."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        for value in tb.tb_frame.f_locals.values():
            if isinstance(value, A.Node) and value.span is not None:
                span = span_of(value)
                found = span if span.line else found
        tb = tb.tb_next
    return found


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
