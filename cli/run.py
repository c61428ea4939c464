"""`ascendir run`: simulate a kernel on the Rust NPU simulator and write its outputs.

    ascendir run tests/corpus/clean/projects/add_custom --input x=8,2048:float16 --input y=8,2048:float16
    ascendir run kernel.cpp --input x=x.npy --block-dim 8 --tiling totalLength=16384 --tiling tileNum=8 \
        --output z=8,2048:float16 --output-dir out/
    ascendir run answer.md --input 2048,1536:float16 --print-program
    ascendir run examples/00_basic_matmul/basic_matmul.cpp -I include -I examples/common --args "256 512 128"

A host program (a lone source whose main allocates device memory and launches a kernel its headers define, as
catlass's examples do) is run from its main: `--args` are its program arguments, its device buffers the tensors
(passes/sim/host_run.py).

Exit codes: 0 the run found nothing, 1 findings (errors), 2 usage errors or inputs that cannot be read.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _parse_named(text: str) -> tuple[str | None, str]:
    name, sep, rest = text.partition("=")
    if sep and name and "," not in name and ":" not in name:
        return name.strip(), rest.strip()
    return None, text.strip()


def read_input(text: str, rng: Any) -> tuple[str | None, Any, str | None]:
    """`x=file.npy`, `x=8,2048:float16` (seeded random data) or either without a name; the dtype's name where the
    array cannot say it (bfloat16 data is a uint16 array of its bit patterns), else None."""
    import numpy as np

    from cli.shapes import parse_tensor_spec
    from passes.sim.random_inputs import random_input

    name, value = _parse_named(text)
    if value.endswith(".npy"):
        try:
            return name, np.load(value, allow_pickle=False), None
        except (OSError, ValueError) as exc:
            raise click.BadParameter(f"{value}: {exc}", param_hint="--input") from None
    try:
        _, shape, dtype = parse_tensor_spec(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--input") from None
    return name, random_input(shape, dtype, rng), "bfloat16" if dtype == "bfloat16" else None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("kernel", type=click.Path())
@click.option("--input", "inputs", multiple=True, metavar="[NAME=]FILE.npy|8,2048:float16",
              help="An input tensor, in op order or by name: a .npy file, or a shape and dtype for seeded random "
                   "data.")
@click.option("--attr", "attrs", multiple=True, metavar="VALUE", help="An op attribute, in op order.")
@click.option("--output", "outputs", multiple=True, metavar="NAME=8,2048:float16",
              help="An output's shape and dtype (otherwise from the binding, InferShape or the host).")
@click.option("--inplace", "inplace", multiple=True, metavar="NAME",
              help="An input the kernel updates in place (repeatable), returned as an output of its name (and "
                   "written by --output-dir); a write into any other input is ASC963.")
@click.option("--block-dim", type=int, default=None, help="blockDim, for a kernel with no host code.")
@click.option("--tiling", "tiling", multiple=True, metavar="FIELD=VALUE",
              help="A tiling field's value, for a kernel with no host code.")
@click.option("--tiling-key", type=int, default=None, help="The tiling key, for a kernel with no host code.")
@click.option("--tiling-data", "tiling_data", type=click.Path(), default=None, metavar="FILE",
              help="The bytes of the tiling parameter's memory, for a kernel with no host code that reads its tiling "
                   "as raw words: a .npy array (its bytes, in order) or any other file read as raw bytes.")
@click.option("--workspace", "workspace", type=int, default=None, metavar="BYTES",
              help="The bytes of the kernel's workspace parameter, for a launch whose host allocates it (a .asc "
                   "file's main is not evaluated).")
@click.option("-D", "--define", "defines", multiple=True, metavar="NAME[=VALUE]",
              help="Define a macro, as the kernel's build would (-D SCENARIO_NUM=1).")
@click.option("-U", "--undefine", "undefines", multiple=True, metavar="NAME",
              help="Undefine a macro the build defines (-U __DAV_C220_VEC__ -D __DAV_C220_CUBE__: a kernel's cube "
                   "pass).")
@click.option("-I", "--include-dir", "include_dirs", multiple=True, metavar="DIR",
              help="Search DIR for included headers, after the including file's folder, in the order given.")
@click.option("--source", "sources", multiple=True, metavar="FILE",
              help="Another source of a host program's executable, compiled and linked with KERNEL (catlass "
                   "19_mla's mla_tiling.cpp, listed beside mla.cpp in its CMakeLists).")
@click.option("--args", "program_args", default=None, metavar="'ARG ...'",
              help="A host program's arguments (argv[1:], split as a shell would): catlass's examples take "
                   "'m n k'.")
@click.option("--chip", default=None, help="Target chip (default 910B2).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="How to print.")
@click.option("--input-format", default="auto", help="How to read KERNEL (auto, cpp, project, npukernelbench, "
                                                     "multikernelbench).")
@click.option("--output-dir", type=click.Path(), default=None, help="Write each output as DIR/<name>.npy.")
@click.option("--budget", type=int, default=None, help="Instruction budget over all cores.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random inputs.")
@click.option("--print-program", is_flag=True, help="Print the simulator program before running it.")
@click.option("--trace", "trace_path", type=click.Path(), default=None,
              help="Write the run's timeline as a Chrome trace (open it in Perfetto or chrome://tracing).")
def main(kernel: str, inputs: tuple[str, ...], attrs: tuple[str, ...], outputs: tuple[str, ...],
         inplace: tuple[str, ...], block_dim: int | None, tiling: tuple[str, ...], tiling_key: int | None,
         chip: str | None, fmt: str, input_format: str, output_dir: str | None, budget: int | None, seed: int,
         print_program: bool, trace_path: str | None, defines: tuple[str, ...] = (),
         workspace: int | None = None, undefines: tuple[str, ...] = (), include_dirs: tuple[str, ...] = (),
         program_args: str | None = None, sources: tuple[str, ...] = (), tiling_data: str | None = None) -> None:
    """Run KERNEL on the NPU simulator: outputs, and what the run found (out-of-bounds accesses, races,
    deadlocks, ...)."""
    try:
        code = _run(kernel, inputs, attrs, outputs, block_dim, tiling, tiling_key, chip, fmt, input_format,
                    output_dir, budget, seed, print_program, trace_path, inplace, defines, workspace, undefines,
                    include_dirs, program_args, sources, tiling_data)
    except click.ClickException:
        raise
    except Exception as exc:  # a bug of ours must not print a traceback at the user
        from passes.sim.launch import SimError

        if isinstance(exc, SimError):
            raise click.UsageError(str(exc)) from None
        click.echo(f"ascendir run: internal error: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_ERROR
    sys.exit(code)


def _run(kernel: str, inputs: tuple[str, ...], attrs: tuple[str, ...], outputs: tuple[str, ...],
         block_dim: int | None, tiling: tuple[str, ...], tiling_key: int | None, chip: str | None, fmt: str,
         input_format: str, output_dir: str | None, budget: int | None, seed: int, print_program: bool,
         trace_path: str | None = None, inplace: tuple[str, ...] = (), defines: tuple[str, ...] = (),
         workspace: int | None = None, undefines: tuple[str, ...] = (), include_dirs: tuple[str, ...] = (),
         program_args: str | None = None, sources: tuple[str, ...] = (), tiling_data: str | None = None) -> int:
    import shlex

    import numpy as np

    from cli.check import check_chip, parse_defines
    from cli.shapes import parse_attr_value, parse_tensor_spec
    from frontend.diagnostics import render_text
    from passes.sim.launch import DEFAULT_BUDGET, load_source, run_loaded

    if not os.path.exists(kernel):
        raise click.BadParameter(f"{kernel}: no such file or folder", param_hint="KERNEL")
    if chip is not None:
        check_chip(chip)
    rng = np.random.default_rng(seed)
    named: dict[str, Any] = {}
    positional: list[Any] = []
    # told to the launch, which otherwise takes a bfloat16 input's uint16 bit patterns for uint16 data
    named_dtypes: dict[str, str] = {}
    positional_dtypes: list[str | None] = []
    for text in inputs:
        name, arr, dtype = read_input(text, rng)
        if name is None:
            positional.append(arr)
            positional_dtypes.append(dtype)
        else:
            named[name] = arr
            if dtype is not None:
                named_dtypes[name] = dtype
    if named and positional:
        raise click.UsageError("give every --input by name, or none")
    out_specs: dict[str, Any] = {}
    for text in outputs:
        try:
            name, shape, dtype = parse_tensor_spec(text)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--output") from None
        if name is None:
            raise click.BadParameter(f"'{text}' names no output (NAME=8,2048:float16)", param_hint="--output")
        out_specs[name] = (shape, dtype)
    fields: dict[str, Any] = {}
    for text in tiling:
        field, sep, value = text.partition("=")
        if not sep or not field:
            raise click.BadParameter(f"'{text}' is not FIELD=VALUE", param_hint="--tiling")
        fields[field.strip()] = parse_attr_value(value)
    tiling_bytes = _read_tiling_data(tiling_data) if tiling_data is not None else None
    macros = parse_defines(defines, undefines)  # -U undefines a default define too: the chip's __DAV_C220_VEC__
    for folder in include_dirs:
        if not os.path.isdir(folder):
            raise click.BadParameter(f"{folder}: no such folder", param_hint="-I")
    from passes.sim.host_run import is_host_program, read_bundle, run_host_program

    program, chip = load_source(read_bundle(kernel, input_format, include_dirs, sources), input_format, chip,
                                macros or None)

    used_inputs: dict[str, Any] = {}  # a host program's input buffers, drawn at random where not given
    if is_host_program(program.bundle.units):
        if tiling_bytes is not None:
            raise click.UsageError("--tiling-data is for a kernel with no host code; a host program's main writes the "
                                   "tiling memory")
        try:
            words = shlex.split(program_args or "")
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--args") from None
        result = run_host_program(program, chip, named or positional, words, block_dim=block_dim,
                                  budget=budget or DEFAULT_BUDGET, trace=trace_path is not None, seed=seed,
                                  used_inputs=used_inputs)
    elif program_args is not None:
        raise click.UsageError("--args gives a host program's arguments; this input is a kernel, not one")
    else:
        result = run_loaded(program, chip, named or positional, [parse_attr_value(a) for a in attrs],
                            block_dim=block_dim, tiling=fields or None, tiling_key=tiling_key,
                            outputs=out_specs or None, budget=budget or DEFAULT_BUDGET, trace=trace_path is not None,
                            inplace=inplace, dtypes=named_dtypes if named else positional_dtypes,
                            workspace=workspace, tiling_data=tiling_bytes)
    if print_program and result.program:
        click.echo(result.program.rstrip("\n"))
    if trace_path is not None and result.trace_json is not None:
        from passes.sim.timing import write_trace

        write_trace(result, trace_path)
    written: dict[str, str] = {}
    if output_dir is not None:
        os.makedirs(output_dir, exist_ok=True)
        for name, arr in result.outputs.items():
            path = os.path.join(output_dir, f"{name}.npy")
            np.save(path, arr)
            written[name] = path
        for name, arr in used_inputs.items():  # what the outputs were computed from, to compare with a reference
            np.save(os.path.join(output_dir, f"{name}.npy"), arr)
    if fmt == "json":
        click.echo(json.dumps({
            "findings": [d.to_dict() for d in result.findings],
            "outputs": {n: {"shape": list(a.shape), "dtype": str(a.dtype), "path": written.get(n)}
                        for n, a in result.outputs.items()},
            "instructions": result.instructions, "block_dim": result.block_dim, "completed": result.completed,
            "cycles": result.cycles, "microseconds": result.microseconds, "bound": result.bound,
            "pipes": result.pipes, "trace": trace_path if result.trace_json is not None else None,
        }, indent=2))
    else:
        for d in result.findings:
            click.echo(render_text(d, program.line), err=True)
        # an --inplace input comes back as an output of its name (an op may declare none: apply_adam_w_v2)
        outs = ", ".join(f"{n} {tuple(a.shape)} {a.dtype}" + (" (in place)" if n in inplace else "")
                         + (f" -> {written[n]}" if n in written else "") for n, a in result.outputs.items())
        state = "ran" if result.completed else "stopped after"
        click.echo(f"{state} {result.instructions:,} instructions on {result.block_dim} core"
                   f"{'s' * (result.block_dim != 1)}; outputs: {outs or 'none'}; "
                   f"{len(result.errors)} error{'s' * (len(result.errors) != 1)}", err=True)
        if result.cycles is not None:
            from passes.sim.timing import summary

            click.echo(f"time: {summary(result)}", err=True)
        if trace_path is not None and result.trace_json is not None:
            click.echo(f"trace: {trace_path}", err=True)
    return EXIT_FINDINGS if result.errors or not result.completed else EXIT_CLEAN


def _read_tiling_data(path: str) -> bytes:
    """--tiling-data: a .npy array's bytes in C order (np.array([cols, cores, ...], np.uint32)), else the file's."""
    import numpy as np

    try:
        if path.endswith(".npy"):
            return np.ascontiguousarray(np.load(path, allow_pickle=False)).tobytes()
        with open(path, "rb") as f:
            return f.read()
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="--tiling-data") from None


if __name__ == "__main__":
    main()
