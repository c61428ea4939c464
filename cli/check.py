"""`ascendc-check`: the AscendC linter. Today it runs the frontend (readers, preprocessor, parser).

Exit codes: 0 clean, 1 findings (errors), 2 usage error, unreadable input or internal error.
"""

from __future__ import annotations

import sys
from typing import Sequence

import click

from frontend.readers import FORMATS as INPUT_FORMATS

OUTPUT_FORMATS = ("text", "json")
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _parse_defines(defines: Sequence[str], undefines: Sequence[str]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for item in defines:
        name, _, value = item.partition("=")
        if not name:
            raise click.BadParameter(f"'-D {item}' names no macro", param_hint="-D")
        out[name] = value if _ else "1"
    for name in undefines:
        out[name] = None
    return out


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice([*INPUT_FORMATS, *OUTPUT_FORMATS]), default=None,
              help="Input format (auto, cpp, project, npukernelbench, multikernelbench) or output format (text, json).")
@click.option("--input-format", type=click.Choice(INPUT_FORMATS), default=None, help="How to read each input.")
@click.option("--output-format", type=click.Choice(OUTPUT_FORMATS), default=None, help="How to print diagnostics.")
@click.option("--dump-ast", is_flag=True, help="Print the AST of every source instead of diagnostics.")
@click.option("-D", "--define", "defines", multiple=True, metavar="NAME[=VALUE]", help="Define a macro.")
@click.option("-U", "--undefine", "undefines", multiple=True, metavar="NAME", help="Undefine a macro.")
@click.option("--no-spans", is_flag=True, help="With --dump-ast: leave source positions out.")
def main(paths: tuple[str, ...], fmt: str | None, input_format: str | None, output_format: str | None,
         dump_ast: bool, defines: tuple[str, ...], undefines: tuple[str, ...], no_spans: bool) -> None:
    """Check AscendC kernels, op projects and benchmark answers."""
    if not paths:
        raise click.UsageError("give at least one file or folder to check")
    if fmt in OUTPUT_FORMATS:
        output_format = output_format or fmt
    elif fmt is not None:
        input_format = input_format or fmt
    try:
        code = run(paths, input_format or "auto", output_format or "text", dump_ast,
                   _parse_defines(defines, undefines), not no_spans)
    except click.ClickException:
        raise
    except Exception as exc:  # last line of defence: a bug must not print a traceback at the user
        click.echo(f"ascendc-check: internal error: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_ERROR
    sys.exit(code)


def run(paths: Sequence[str], input_format: str, output_format: str, dump_ast: bool,
        defines: dict[str, str | None], with_spans: bool = True) -> int:
    from frontend import ast as A
    from frontend.diagnostics import render_json, render_text
    from frontend.pipeline import load_all
    from frontend.pipeline import INTERNAL_ERROR
    from frontend.readers import UNREADABLE

    programs = load_all(paths, input_format, defines or None)
    all_diags = []
    unreadable = False
    for program in programs:
        diags = program.diagnostics
        all_diags += diags
        unreadable |= any(d.code in (UNREADABLE, INTERNAL_ERROR) and d.is_error for d in diags)
        if dump_ast:
            for unit in program.units:
                click.echo(f"// {unit.unit.file}" + (f" [{unit.unit.path}]" if unit.unit.embedded else ""))
                click.echo(A.dump(unit.ast, with_spans=with_spans))
        if output_format == "text" and diags:
            for d in diags:
                click.echo(render_text(d, program.line), err=dump_ast)
    if output_format == "json":
        click.echo(render_json(all_diags))
    errors = sum(1 for d in all_diags if d.is_error)
    if output_format == "text" and not dump_ast:
        files = sum(len(p.units) for p in programs)
        summary = f"{errors} error{'s' * (errors != 1)} in {len(programs)} input{'s' * (len(programs) != 1)} ({files} source files)"
        click.echo(summary if all_diags else f"no problems found in {len(programs)} inputs ({files} source files)", err=True)
    if unreadable:
        return EXIT_ERROR
    return EXIT_FINDINGS if errors else EXIT_CLEAN


if __name__ == "__main__":
    main()
