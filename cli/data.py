"""`ascendir data build OUT`: the training dataset (documentation, code, seeded bugs, real repairs), verified,
deduplicated, split by task, with a dataset card. Imports nothing of the training stack."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Build the AscendC training dataset."""


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


@main.command()
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--sources", default="docs,code,mutants,repairs", show_default=True,
              help="Comma-separated sources to build.")
@click.option("--tasks", default="", help="Bundled tasks to use (comma-separated; default: all with a solution).")
@click.option("--operators", default="", help="Mutation operators to use (default: all).")
@click.option("--per-operator", default=2, show_default=True, help="Mutants per operator and file.")
@click.option("--repairs", "repairs_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="kernelhive-failures records.jsonl (default: ../shared/data/kernelhive-failures/records.jsonl).")
@click.option("--multikernelbench", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="A MultiKernelBench checkout: the repair pairs then carry their task's prompt.")
@click.option("--no-simulator", is_flag=True, help="Judge mutants with the static checks only.")
@click.option("--max-cases", default=4, show_default=True, help="Code-centric records per task (one per case).")
@click.option("--test-share", default=0.15, show_default=True, help="Share of task records in the test split.")
@click.option("--near-duplicate", default=0.9, show_default=True,
              help="Jaccard similarity of kernels above which two tasks go to the same split.")
@click.option("--seed", default=0, show_default=True)
@click.option("--jobs", default=1, show_default=True, help="Worker processes for the code and mutant sources.")
def build(out: Path, sources: str, tasks: str, operators: str, per_operator: int, repairs_path: Path | None,
          multikernelbench: Path | None, no_simulator: bool, max_cases: int, test_share: float,
          near_duplicate: float, seed: int, jobs: int) -> None:
    """Build the dataset into OUT (its files are overwritten)."""
    from llm.data.build import BuildOptions, build as run_build

    options = BuildOptions(str(out), _names(sources), _names(tasks), per_operator, _names(operators),
                           str(repairs_path) if repairs_path else None,
                           str(multikernelbench) if multikernelbench else None, not no_simulator, max_cases,
                           test_share, near_duplicate, seed, jobs)
    if options.operators:
        from passes.mutate import operator

        for name in options.operators:
            try:
                operator(name)
            except KeyError as exc:
                raise click.BadParameter(str(exc.args[0]), param_hint="--operators") from None
    try:
        report = run_build(options, log=lambda line: click.echo(line, err=True))
    except (ValueError, FileNotFoundError) as exc:
        click.echo(f"ascendir data build: {exc}", err=True)
        sys.exit(2)
    records = report.counts["records"]
    click.echo(f"wrote {out}: " + ", ".join(f"{k} {v}" for k, v in sorted(records.items())))
    click.echo(f"card: {out / 'README.md'}")
