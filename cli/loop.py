"""`ascendir loop`: the closed loop (generate, evaluate, pairs, train, evaluate again, report)."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch is imported

import sys  # noqa: E402

import click  # noqa: E402


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--model", required=True, help="The local model directory to sample from and train.")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="The run's folder.")
@click.option("--tasks", default="", help="Task names (comma-separated; default: the whole suite or level).")
@click.option("--suite", default="bundled", show_default=True)
@click.option("--root", default=None, help="The suite's checkout (npukernelbench, multikernelbench).")
@click.option("--level", type=int, default=None)
@click.option("--k", default=4, show_default=True, help="Samples per task.")
@click.option("--style", type=click.Choice(["npukernelbench", "multikernelbench"]), default="npukernelbench",
              show_default=True)
@click.option("--no-shot", is_flag=True, help="Prompts without the one-shot example (shorter).")
@click.option("--url", default=None, help="An OpenAI-compatible server serving the model, for round 0.")
@click.option("--served-model", default=None, help="The model's name on that server.")
@click.option("--temperature", default=0.8, show_default=True)
@click.option("--max-new-tokens", default=2048, show_default=True)
@click.option("--steps", default=20, show_default=True, help="DPO steps.")
@click.option("--learning-rate", default=5e-6, show_default=True)
@click.option("--batch-size", default=2, show_default=True)
@click.option("--max-length", default=4096, show_default=True)
@click.option("--lora", is_flag=True, help="Train a LoRA adapter (merged for round 1).")
@click.option("--seed", default=0, show_default=True)
def main(model: str, out: str, tasks: str, suite: str, root: str | None, level: int | None, k: int, style: str,
         no_shot: bool, url: str | None, served_model: str | None, temperature: float, max_new_tokens: int, steps: int,
         learning_rate: float, batch_size: int, max_length: int, lora: bool, seed: int) -> None:
    """Generate k samples per task, evaluate them, train on preference pairs, evaluate again."""
    from rich.console import Console
    from rich.table import Table

    from llm.backends import BackendError
    from llm.loop import LoopOptions, run_loop, table_rows

    names = tuple(n.strip() for n in tasks.split(",") if n.strip())
    opts = LoopOptions(model, out, names, suite, root, level, k, style, not no_shot, url, served_model, temperature,
                       max_new_tokens, steps, learning_rate, batch_size, max_length, lora, seed=seed)
    try:
        report = run_loop(opts, log=lambda line: click.echo(line, err=True))
    except (ValueError, KeyError, FileNotFoundError, OSError, BackendError) as exc:
        click.echo(f"ascendir loop: {exc}", err=True)
        sys.exit(2)
    table = Table(title=f"pass@k before and after training ({len(report['tasks'])} tasks, k={k}, "
                        f"{report['pairs']} pairs)")
    for column in ("level", "metric", "before", "after"):
        table.add_column(column, justify="left" if column in ("level", "metric") else "right")
    for row in table_rows(report):
        table.add_row(*row)
    Console().print(table)
    click.echo(f"report: {out}/report.json" + (f", plot: {report['plot']}" if report.get("plot") else ""))
