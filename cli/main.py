"""`ascendir`: the umbrella command (checking, the benchmark; training commands join it later)."""

from __future__ import annotations

import click

from cli.bench import main as bench_main
from cli.check import main as check_main
from cli.data import main as data_main
from cli.loop import main as loop_main
from cli.run import main as run_main
from cli.train import main as train_main


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """AscendIR: a hardware-free toolchain for AscendC."""


main.add_command(check_main, name="check")
main.add_command(run_main, name="run")
main.add_command(bench_main, name="bench")
main.add_command(data_main, name="data")
main.add_command(train_main, name="train")
main.add_command(loop_main, name="loop")


@main.command()
def version() -> None:
    """Print the versions of the Python package and the Rust simulator core."""
    from importlib.metadata import PackageNotFoundError, version as dist_version

    try:
        py = dist_version("ascendir")
    except PackageNotFoundError:
        py = "not installed"
    try:
        import rust_sim

        sim = rust_sim.version()
    except ImportError as exc:
        sim = f"unavailable ({exc})"
    click.echo(f"ascendir {py}\nrust_sim {sim}")


if __name__ == "__main__":
    main()
