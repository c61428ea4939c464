"""`ascendc-check`: the AscendC linter. Reads, parses, lowers to AscendIR and runs the rule catalog.

    ascendc-check PATH...            check files, folders, op projects, benchmark answers
    ascendc-check rule ASC501        print a rule's page
    ascendc-check rules              list every rule

Exit codes: 0 clean, 1 findings (errors), 2 usage error, unreadable input or internal error.
Defaults come from a `[tool.ascendc-check]` table in the nearest pyproject.toml (select, ignore, chip, include,
compile-commands; paths in it are relative to its folder).
"""

from __future__ import annotations

import gc
import json
import os
import sys
from typing import TYPE_CHECKING, Any, Sequence

import click

from frontend import cache as _cache

# Before the imports that define dataclasses (the frontend, xdsl, the rules): their generated methods come
# compiled from the cache folder instead of being compiled again in every process (see frontend/cache.py).
_cache.install_dataclass_code_cache()

from frontend.readers import FORMATS as INPUT_FORMATS

if TYPE_CHECKING:
    from passes.verify.concrete_inputs import ConcreteInputs

OUTPUT_FORMATS = ("text", "json", "sarif")
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def parse_defines(defines: Sequence[str], undefines: Sequence[str]) -> dict[str, str | None]:
    """`-D NAME[=VALUE]` and `-U NAME` (ascendc-check, ascendir run) as the macro changes the preprocessor takes:
    NAME -> its value ("1" when none is given), or None to undefine it (a default define too)."""
    out: dict[str, str | None] = {}
    for item in defines:
        name, sep, value = item.partition("=")
        if not name:
            raise click.BadParameter(f"'-D {item}' names no macro", param_hint="-D")
        out[name] = value if sep else "1"
    for name in undefines:
        out[name] = None
    return out


def _codes(values: Sequence[str]) -> list[str]:
    return [c.strip() for v in values for c in v.split(",") if c.strip()]


def load_config(start: str) -> dict[str, Any]:
    """The `[tool.ascendc-check]` table of the nearest pyproject.toml above `start` (empty if none)."""
    return find_config(start)[0]


def find_config(start: str) -> tuple[dict[str, Any], str]:
    """The `[tool.ascendc-check]` table of the nearest pyproject.toml above `start` and the folder of that file
    (the table's paths are relative to it); an empty table and the working folder if there is none."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    here = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        candidate = os.path.join(here, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                with open(candidate, "rb") as fh:
                    data = tomllib.load(fh)
            except (OSError, ValueError) as exc:
                raise click.UsageError(f"{candidate}: {exc}") from None
            table = data.get("tool", {}).get("ascendc-check", {})
            return (table if isinstance(table, dict) else {}), here
        parent = os.path.dirname(here)
        if parent == here:
            return {}, os.getcwd()
        here = parent


def _config_paths(config: dict[str, Any], key: str, folder: str) -> list[str]:
    """A path or list of paths of the config table, made absolute against the pyproject.toml's folder."""
    value = config.get(key, [])
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise click.UsageError(f"[tool.ascendc-check] {key} must be a path or a list of paths")
    return [os.path.normpath(os.path.join(folder, v)) for v in values]


def _compile_settings(include_dirs: Sequence[str], system_dirs: Sequence[str], defines: dict[str, str | None],
                      database: str | None, config: dict[str, Any], folder: str) -> tuple[Any, Any]:
    """The compile flags every source gets (-I and -isystem, then the table's include folders, -D/-U) and the
    compilation database to read (-p / --compile-commands, else the table's compile-commands), or None."""
    from frontend.includes import CompileDatabaseError, CompileFlags, read_compile_commands

    configured = _config_paths(config, "include", folder)
    for path in configured:
        if not os.path.isdir(path):
            raise click.UsageError(f"[tool.ascendc-check] include: '{path}' is not a folder")
    flags = CompileFlags(tuple(dict.fromkeys(os.path.abspath(d) for d in [*include_dirs, *configured])),
                         tuple(dict.fromkeys(os.path.abspath(d) for d in system_dirs)),
                         defines=tuple(defines.items()))
    if database is None and "compile-commands" in config:
        paths = _config_paths(config, "compile-commands", folder)
        if len(paths) != 1:
            raise click.UsageError("[tool.ascendc-check] compile-commands must name one build folder or file")
        database = paths[0]
    if database is None:
        return flags, None
    try:
        return flags, read_compile_commands(database)
    except CompileDatabaseError as exc:
        raise click.UsageError(str(exc)) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice([*INPUT_FORMATS, *OUTPUT_FORMATS]), default=None,
              help="Input format (auto, cpp, project, npukernelbench, multikernelbench) or output format "
                   "(text, json, sarif).")
@click.option("--input-format", type=click.Choice(INPUT_FORMATS), default=None, help="How to read each input.")
@click.option("--output-format", type=click.Choice(OUTPUT_FORMATS), default=None, help="How to print diagnostics.")
@click.option("--chip", default=None,
              help="Target chip: 910B1-4, 910_93, 310P, 910, 950PR (default 910B2; sources in arch35 folders, "
                   "and those including headers from one, 950PR).")
@click.option("--select", "select", multiple=True, metavar="CODES", help="Only these rule codes or prefixes (ASC5).")
@click.option("--ignore", "ignore", multiple=True, metavar="CODES", help="Skip these rule codes or prefixes.")
@click.option("--dump-ast", is_flag=True, help="Print the AST of every source instead of diagnostics.")
@click.option("-D", "--define", "defines", multiple=True, metavar="NAME[=VALUE]", help="Define a macro.")
@click.option("-U", "--undefine", "undefines", multiple=True, metavar="NAME", help="Undefine a macro.")
@click.option("-I", "--include-dir", "include_dirs", multiple=True, metavar="DIR",
              type=click.Path(exists=True, file_okay=False),
              help="Search DIR for included headers, after the including file's folder, in the order given.")
@click.option("-isystem", "--isystem", "system_dirs", multiple=True, metavar="DIR",
              type=click.Path(exists=True, file_okay=False),
              help="Search DIR for headers after the -I folders (also for <...> includes); no warnings from them.")
@click.option("-p", "--build-path", "build_path", default=None, metavar="BUILD_DIR",
              help="Take each source's -I, -isystem, -D, -U and -include from BUILD_DIR/compile_commands.json "
                   "(what CMake writes with CMAKE_EXPORT_COMPILE_COMMANDS).")
@click.option("--compile-commands", "compile_commands", default=None, metavar="FILE",
              help="The compile_commands.json to read, named directly (as -p names its folder).")
@click.option("--no-spans", is_flag=True, help="With --dump-ast: leave source positions out.")
@click.option("--shape", "shapes", multiple=True, metavar="[NAME=]8,2048:float16",
              help="A concrete input tensor (op order, or by input name): the host tiling function runs on the "
                   "shapes and the rules see its values. Named after an output, it gives that output's shape "
                   "(otherwise the binding's allocation or InferShape's).")
@click.option("--attr", "attrs", multiple=True, metavar="VALUE", help="An op attribute, in op order (with --shape).")
@click.option("--test-case", "test_case", type=click.Path(), default=None, metavar="FILE",
              help="Shapes from a test case file: a MultiKernelBench reference program (get_inputs, read "
                   "without running it) or a JSON list of inputs.")
@click.option("--verify-ir/--no-verify-ir", "verify_ir", default=None,
              help="Verify the lowered IR against its dialects before the rules run; a failure is an internal "
                   "error (ASC000). Default: on, unless ASCENDIR_VERIFY_IR=0.")
def main(paths: tuple[str, ...], fmt: str | None, input_format: str | None, output_format: str | None,
         chip: str | None, select: tuple[str, ...], ignore: tuple[str, ...], dump_ast: bool,
         defines: tuple[str, ...], undefines: tuple[str, ...], no_spans: bool, shapes: tuple[str, ...],
         attrs: tuple[str, ...], test_case: str | None, verify_ir: bool | None, include_dirs: tuple[str, ...] = (),
         system_dirs: tuple[str, ...] = (), build_path: str | None = None, compile_commands: str | None = None
         ) -> None:
    """Check AscendC kernels, op projects and benchmark answers."""
    if not paths:
        raise click.UsageError("give at least one file or folder to check (or: rule CODE, rules)")
    if paths[0] in ("rule", "rules") and not os.path.exists(paths[0]):
        sys.exit(_rule_pages(paths[0], paths[1:]))
    if fmt in OUTPUT_FORMATS:
        output_format = output_format or fmt
    elif fmt is not None:
        input_format = input_format or fmt
    config, config_folder = find_config(paths[0])
    chip = chip or (str(config["chip"]) if "chip" in config else None)  # None: per input (load_for_check)
    chosen = _codes(select) or _codes(config.get("select", [])) or None
    skipped = _codes(ignore) + _codes(config.get("ignore", []))
    if chip is not None:
        check_chip(chip)
    concrete = _concrete_inputs(shapes, attrs, test_case)
    if build_path is not None and compile_commands is not None:
        raise click.UsageError("give either -p or --compile-commands, not both")
    macros = parse_defines(defines, undefines)
    settings = _compile_settings(include_dirs, system_dirs, macros, build_path or compile_commands, config,
                                 config_folder)
    try:
        code = run(paths, input_format or "auto", output_format or "text", dump_ast, macros, not no_spans, chip,
                   chosen, skipped, concrete, verify_ir, settings=settings)
    except click.ClickException:
        raise
    except Exception as exc:  # last line of defence: a bug must not print a traceback at the user
        click.echo(f"ascendc-check: internal error: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_ERROR
    sys.exit(code)


def _concrete_inputs(shapes: Sequence[str], attrs: Sequence[str], test_case: str | None) -> ConcreteInputs | None:
    """--shape/--attr, or --test-case: the tensors and attributes the host tiling function will see."""
    from cli.shapes import parse_attr_value, parse_tensor_spec
    from passes.verify.concrete_inputs import ConcreteInputs

    if test_case is not None and shapes:
        raise click.UsageError("give either --shape or --test-case, not both")
    if test_case is not None:
        from ascendir.testcase import read_test_case

        case = read_test_case(test_case)
        problems = [p for p in case.diagnostics if p.severity == "error"]
        for p in case.diagnostics:
            click.echo(f"{test_case}:{p.line}:{p.col}: {p.severity}: {p.message}", err=True)
        if problems or not case.inputs:
            raise click.BadParameter(f"{test_case}: no input shapes could be read", param_hint="--test-case")
        tensors = [(None, tuple(t.shape), t.dtype) for t in case.inputs]
        values = [v for v in [*case.init_args, *case.scalars] if isinstance(v, (int, float, bool, str, list))]
        return ConcreteInputs(tensors, values)
    if not shapes:
        if attrs:
            raise click.UsageError("--attr needs --shape")
        return None
    try:
        return ConcreteInputs([parse_tensor_spec(text) for text in shapes], [parse_attr_value(t) for t in attrs])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--shape") from None


def check_chip(chip: str) -> None:
    from ascendir.chips import UnknownChipError, load_chip

    try:
        load_chip(chip)
    except UnknownChipError as exc:
        raise click.BadParameter(str(exc).strip("'\""), param_hint="--chip") from None


def _rule_pages(command: str, args: Sequence[str]) -> int:
    from ascendir.lower.diagnostics import PAGES
    from passes.sim.rules import SIM_RULES
    from passes.verify import FAMILIES, RULES

    if command == "rules":
        for p in sorted(PAGES.values(), key=lambda p: p.code):
            click.echo(f"{p.code}  {p.name:<34} {'lowering':<20} {p.summary}")
        for r in sorted(RULES.values(), key=lambda r: r.code):
            click.echo(f"{r.code}  {r.name:<34} {FAMILIES[r.family]:<20} {r.summary}")
        for s in sorted(SIM_RULES.values(), key=lambda s: s.code):  # found by running: ascendir run
            click.echo(f"{s.code}  {s.name:<34} {'simulator':<20} {s.summary}")
        return EXIT_CLEAN
    if len(args) != 1:
        raise click.UsageError("usage: ascendc-check rule CODE")
    found = RULES.get(args[0].upper()) or PAGES.get(args[0].upper()) or SIM_RULES.get(args[0].upper())
    if found is None:
        known = ", ".join(sorted([*PAGES, *RULES, *SIM_RULES]))
        raise click.UsageError(f"no rule {args[0]}; known rules: {known}")
    click.echo(found.page())
    return EXIT_CLEAN


def run(paths: Sequence[str], input_format: str, output_format: str, dump_ast: bool,
        defines: dict[str, str | None], with_spans: bool = True, chip: str | None = None,
        select: Sequence[str] | None = None, ignore: Sequence[str] = (), concrete: ConcreteInputs | None = None,
        verify_ir: bool | None = None, settings: tuple[Any, Any] | None = None) -> int:
    # Until the inputs are parsed, nearly everything allocated lives as long as the process (modules, the
    # dialects, the parser tables, the ASTs) and there is little cyclic garbage: collecting would only scan
    # the same objects again and again (about a tenth of a cold start). Then freeze them all, so that later
    # collections skip them too (a few ms per checked kernel).
    gc_enabled = gc.isenabled()
    gc.disable()
    try:
        from frontend import ast as A
        from frontend.diagnostics import render_json, render_text
        from frontend.pipeline import INTERNAL_ERROR
        from frontend.readers import UNREADABLE, collect_inputs
        from passes.verify import check_program, load_for_check

        if not dump_ast:
            import ascendir.lower  # noqa: F401  (check_program lowers every program: import it with the rest)
        bundles = collect_inputs(paths, input_format)
        if settings is not None:
            for bundle in bundles:
                _attach_settings(bundle, *settings)
        loaded = [load_for_check(bundle, chip, defines) for bundle in bundles]
    finally:
        gc.freeze()
        if gc_enabled:
            gc.enable()
    all_diags = []
    unreadable = False
    programs = [program for program, _ in loaded]
    for program, target in loaded:
        if dump_ast:
            diags = list(program.diagnostics)
        else:
            try:
                shapes = concrete.for_program(program, target) if concrete is not None else None
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--shape") from None
            diags = check_program(program, target, select, ignore, shapes=shapes, verify_ir=verify_ir)
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
    elif output_format == "sarif":
        click.echo(json.dumps(_sarif(all_diags), indent=2))
    errors = sum(1 for d in all_diags if d.is_error)
    if output_format == "text" and not dump_ast:
        files = sum(len(p.units) for p in programs)
        summary = (f"{errors} error{'s' * (errors != 1)} in {len(programs)} input{'s' * (len(programs) != 1)} "
                   f"({files} source files)")
        click.echo(summary if all_diags else f"no problems found in {len(programs)} inputs ({files} source files)",
                   err=True)
    if unreadable:
        return EXIT_ERROR
    return EXIT_FINDINGS if errors else EXIT_CLEAN


def _attach_settings(bundle: Any, flags: Any, database: Any) -> None:
    """Give `bundle` the command line's compile flags and, for each of its sources that is a file of its own (not
    text embedded in an answer), the flags the compilation database has for it."""
    bundle.flags = flags
    if database is not None:
        for unit in bundle.units:
            if not unit.embedded:
                found = database.flags_for(unit.path)
                if found is not None:
                    bundle.unit_flags[unit.path] = found


def _sarif(diags: Sequence[Any]) -> dict[str, Any]:
    """SARIF 2.1.0, one run, the rules that fired as reportingDescriptors."""
    from passes.verify import RULES

    codes = sorted({d.code for d in diags})
    rules = []
    for code in codes:
        r = RULES.get(code)
        rules.append({"id": code, "name": r.name if r else code,
                      "shortDescription": {"text": r.summary if r else code},
                      "helpUri": f"ascendc-check rule {code}"})
    results = []
    for d in diags:
        result: dict[str, Any] = {"ruleId": d.code, "level": {"error": "error", "warning": "warning"}.get(
            d.severity.value, "note"), "message": {"text": d.message}}
        if d.span is not None:
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": d.span.file},
                "region": {"startLine": d.span.line, "startColumn": d.span.col,
                           "endLine": d.span.end_line, "endColumn": d.span.end_col}}}]
        results.append(result)
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "ascendc-check", "rules": rules}}, "results": results}]}


if __name__ == "__main__":
    main()
