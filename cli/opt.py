"""`ascendir-opt`: lowers AscendC (or reads AscendIR text) and runs a pass pipeline, like mlir-opt / xdsl-opt.

    ascendir-opt kernel.cpp                          # lower and print the IR
    ascendir-opt kernel.cpp --passes cse,canonicalize --print-debuginfo
    ascendir-opt module.mlir --passes mem2reg        # IR text in, IR text out (round-trips)
    ascendir-opt kernel.cpp --passes to-sim          # the simulator program of the kernel, instead of the IR

Exit codes: 0 when the IR is printed with at most warnings (an ASC103 gap is one), 1 when the input has errors
(diagnostics on stderr; the IR is still printed), 2 for usage errors, an unreadable input, internal errors and
IR that does not verify (every op that breaks its dialect's rules is listed, with its location).
"""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from cli.shapes import parse_attr_value, parse_tensor_spec

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
IR_SUFFIXES = (".mlir", ".ir")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("path", type=click.Path())
@click.option("--passes", default="", help="Comma-separated pass pipeline (see --list-passes).")
@click.option("--print-ir/--no-print-ir", default=True, help="Print the IR after the pipeline (default: on).")
@click.option("--print-debuginfo", is_flag=True, help="Print source locations (loc(...)) on every op.")
@click.option("--list-passes", is_flag=True, help="List the passes and exit.")
@click.option("--input-format", default="auto", help="How to read an AscendC input (auto, cpp, project, ...).")
@click.option("--chip", default=None,
              help="Target chip (default: as ascendc-check picks it, 910B2, or 950PR for arch35 sources).")
@click.option("--dtype", "dtypes", multiple=True, metavar="DTYPE_X=half", help="Bind a DTYPE_<NAME> macro.")
@click.option("-D", "--define", "defines", multiple=True, metavar="NAME[=VALUE]", help="Define a macro.")
@click.option("--shape", "shapes", multiple=True, metavar="[NAME=]8,2048:float16",
              help="An input tensor, in op order: run the host TilingFunc for these shapes and fold its values.")
@click.option("--attr", "attrs", multiple=True, metavar="VALUE", help="An op attribute, in op order (with --shape).")
def main(path: str, passes: str, print_ir: bool, print_debuginfo: bool, list_passes: bool, input_format: str,
         chip: str | None, dtypes: tuple[str, ...], defines: tuple[str, ...], shapes: tuple[str, ...],
         attrs: tuple[str, ...]) -> None:
    """Lower PATH to AscendIR (or parse it, for .mlir files) and run a pass pipeline over it."""
    from passes.registry import PASSES, UnknownPassError, parse_pipeline

    if list_passes:
        for name in sorted(PASSES):
            click.echo(name)
        sys.exit(EXIT_CLEAN)
    try:
        pipeline = parse_pipeline(passes)
    except UnknownPassError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        tensors = [parse_tensor_spec(text) for text in shapes]
        values = [parse_attr_value(text) for text in attrs]
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    try:
        code = run(path, pipeline, print_ir, print_debuginfo, input_format, chip, _pairs(dtypes), _pairs(defines),
                   tensors, values)
    except click.ClickException:
        raise
    except Exception as exc:  # a bug of ours must not print a traceback at the user
        click.echo(f"ascendir-opt: internal error: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_ERROR
    sys.exit(code)


def _pairs(items: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not name:
            raise click.BadParameter(f"'{item}' names nothing")
        out[name] = value if sep else "1"
    return out


def run(path: str, pipeline: list, print_ir: bool, print_debuginfo: bool, input_format: str, chip: str | None,
        dtypes: dict[str, str], defines: dict[str, str], tensors: list | None = None, attrs: list | None = None) -> int:
    from xdsl.dialects.builtin import StringAttr
    from xdsl.utils.exceptions import ParseError

    from ascendir.context import make_context
    from ascendir.text import parse_ir
    from ascendir.text import print_ir as print_module
    from frontend.diagnostics import render_text

    ctx = make_context()
    errors = 0
    if path.endswith(IR_SUFFIXES):
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            click.echo(f"ascendir-opt: cannot read {path}: {exc.strerror}", err=True)
            return EXIT_ERROR
        try:
            module = parse_ir(text, path)
        except ParseError as exc:
            click.echo(str(exc), err=True)
            return EXIT_FINDINGS
    else:
        from ascendir.chips import UnknownChipError, load_chip
        from ascendir.lower import LoweringOptions, guessed_dtypes, lower_program
        from frontend.readers import read_input
        from passes.verify import load_for_check

        if chip is not None:
            try:
                load_chip(chip)
            except UnknownChipError as exc:
                raise click.BadParameter(str(exc).strip("'\""), param_hint="--chip") from None
        # read as ascendc-check reads it: the chip's architecture macros, the kernel sources' vector pass, and
        # the DTYPE_<NAME> guesses of an op without an op json
        program, chip = load_for_check(read_input(path, input_format), chip, defines or None)
        diags = list(program.diagnostics)
        result = lower_program(program, LoweringOptions(chip=chip, dtypes=dtypes or guessed_dtypes(program.bundle,
                                                                                                   "float")))
        diags += result.diagnostics
        for d in diags:
            click.echo(render_text(d, program.line), err=True)
        errors = sum(1 for d in diags if d.is_error)
        if any(d.code in ("ASC000", "ASC010") for d in diags):
            return EXIT_ERROR
        module = result.module
        if tensors:
            tiling_pass = _evaluate_tiling(program, tensors, attrs or [], chip, dtypes)
            if tiling_pass is None:
                return EXIT_FINDINGS
            pipeline = [tiling_pass, *pipeline]
    if not _verifies(module, "the IR lowered from the input" if not path.endswith(IR_SUFFIXES) else "the input"):
        return EXIT_ERROR
    from passes.sim import PROGRAM_ATTR, NotModelled, ToSimPass

    for p in pipeline:
        if isinstance(p, ToSimPass) and chip is not None:
            p = replace(p, chip=chip)  # the chip the input was lowered for (or --chip), not the pass's default
        try:
            p.apply(ctx, module)
        except NotModelled as exc:  # no program is left (no kernel, a parameter type the program cannot hold)
            click.echo(f"ascendir-opt: no simulator program: {exc}", err=True)
            return EXIT_FINDINGS
        if not _verifies(module, f"the IR after pass '{p.name}'"):
            return EXIT_ERROR
    program = module.attributes.get(PROGRAM_ATTR)
    if print_ir and isinstance(program, StringAttr):
        click.echo(program.data.rstrip("\n"))  # to-sim ran: its program is what the pipeline made
    elif print_ir:
        click.echo(print_module(module, debuginfo=print_debuginfo).rstrip("\n"))
    return EXIT_FINDINGS if errors else EXIT_CLEAN


def _verifies(module: object, what: str) -> bool:
    """Whether `module` verifies; if not, every op that does not is printed with its location and the
    verifier's whole message."""
    from ascendir.verify import verify_ir

    failures = verify_ir(module)  # type: ignore[arg-type]
    if failures:
        click.echo(f"ascendir-opt: {what} does not verify ({len(failures)} op{'s' * (len(failures) != 1)}):",
                   err=True)
        for f in failures:
            click.echo(f"  {f}", err=True)
    return not failures


def _evaluate_tiling(program: object, tensors: list, attrs: list, chip: str, dtypes: dict[str, str]) -> object | None:
    """Runs the host TilingFunc for the given shapes; returns the fold-tiling pass for its values."""
    from ascendir.host_eval import TensorSpec, TilingInputs
    from ascendir.lower.host import evaluate_program_tiling
    from passes.fold_tiling import FoldTilingPass

    inputs = TilingInputs([TensorSpec(shape, dtype) for _, shape, dtype in tensors], attrs=attrs, chip=chip)
    result = evaluate_program_tiling(program, inputs)  # type: ignore[arg-type]
    for message in result.diagnostics:
        click.echo(f"ascendir-opt: tiling: {message}", err=True)
    if result.status is None:
        return None
    fields = ", ".join(f"{k}={v}" for k, v in result.fields.items())
    click.echo(f"// tiling: blockDim={result.block_dim} tilingKey={result.tiling_key} {fields}", err=True)
    return FoldTilingPass(result.fields, result.tiling_key, result.block_dim)


if __name__ == "__main__":
    main()
