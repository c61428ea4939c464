"""`ascendir bench`: evaluate kernels on a task suite (extract -> compile -> correctness -> performance).

    ascendir bench                                   the bundled suite's reference solutions, every stage
    ascendir bench --answers DIR [--results R.jsonl] a folder of answers (naming: bench/harness/answers.py)
    ascendir bench --suite npukernelbench --root /path/to/NPUKernelBench [--answers DIR]
    ascendir bench --suite multikernelbench --root /path/to/MultiKernelBench --answers DIR [--fit-shapes]
                   [--replay-binding]
    ascendir bench --list                            the tasks
    ascendir bench --task NAME --show [--case ID]    what a model is shown for a task

A MultiKernelBench answer's ModelNew is read with `ast` (never run): where its forward hands the op its module's
weights or settings, the op gets them from the seeded reference Model (bench/harness/model_task.py).

Exit codes: 0 when the run finished (with --answers, whatever the answers scored; without, when no reference
solution failed), 1 when a reference solution failed a stage, 2 on usage errors (a --results file written with
other options among them).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

SUITE_NAMES = ("bundled", "npukernelbench", "multikernelbench")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--suite", type=click.Choice(SUITE_NAMES), default="bundled", show_default=True, help="The task suite.")
@click.option("--root", type=click.Path(exists=True, file_okay=False), default=None,
              help="The benchmark checkout (npukernelbench, multikernelbench), or a folder of bundled-format tasks.")
@click.option("--answers", type=click.Path(exists=True, file_okay=False), default=None,
              help="A folder of answers: DIR/<task>/<sample>.<ext>, DIR/<task>.<ext> or DIR/<task>__<sample>.<ext>; "
                   "<task>@<case> for an answer written for one case. Default: the suite's reference solutions.")
@click.option("--list", "list_tasks", is_flag=True, help="List the suite's tasks and exit.")
@click.option("--task", "task_names", multiple=True, metavar="NAME", help="Only these tasks (repeatable).")
@click.option("--level", "levels", multiple=True, type=int, help="Only tasks of these levels (repeatable).")
@click.option("--category", "categories", multiple=True, help="Only tasks of these categories (repeatable).")
@click.option("--show", is_flag=True, help="With --task: print what a model is shown for it and exit.")
@click.option("--case", "case_id", default=None, help="With --show: the test case shown (default the first).")
@click.option("--executor", type=click.Choice(("pool", "serial", "ray")), default="pool", show_default=True,
              help="Where answers are evaluated: a local process pool, this process, or Ray.")
@click.option("--address", default=None, help="With --executor ray: the cluster address (default: a local instance).")
@click.option("--workers", type=int, default=None, help="Worker processes (default: the CPUs).")
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="A JSONL file verdicts are appended to as they finish; a run given the same file resumes: "
                   "answers already there are not run again. The file records the options that change verdicts; "
                   "a run with other options refuses it (exit 2).")
@click.option("--fresh", is_flag=True, help="With --results: start the file anew instead of resuming.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              help="Write a report folder: summary.json, verdicts.jsonl, summary.md and plots.")
@click.option("--time-budget", type=float, default=600.0, show_default=True, help="Seconds per answer, all stages.")
@click.option("--instruction-budget", type=int, default=None, help="Simulated instructions per run (default: the "
              "simulator's).")
@click.option("--draws", type=int, default=2, show_default=True, help="Input draws (seeds) per case.")
@click.option("--max-elements", type=int, default=None,
              help="Cases drawing more input elements are not evaluated (memory and time on this machine). "
                   "Default: the suite's (2^25; npukernelbench 2^27).")
@click.option("--fit-shapes", is_flag=True,
              help="multikernelbench: a reference program whose case draws more input elements than --max-elements "
                   "is run with its module-level size constants halved until it fits (alignment kept); every result "
                   "of such a case says it was reduced and to what. Default: such cases are not evaluated.")
@click.option("--static-shapes/--no-static-shapes", "static_shapes", default=None,
              help="Check each case statically with its shapes (ascendc-check --shape) besides simulating it. "
                   "Default: on for --answers; off for the reference solutions, which bench/tasks/validate.py "
                   "checks with every case's shapes.")
@click.option("--failures", type=int, default=20, show_default=True, help="How many failed answers to list.")
@click.option("--replay-binding", is_flag=True,
              help="multikernelbench: replay each answer's op binding (python_bind_src) around its kernel: the op gets "
                   "the tensors the binding makes of ModelNew's arguments (broadcasts, reshapes) and its outputs "
                   "the shapes the binding gives them. Default: the op gets ModelNew's arguments directly.")
@click.option("--chip", default=None, help="Run every task on this chip instead of its suite's (bundled and "
              "multikernelbench 910B2, npukernelbench 910_93: see bench/README.md); it sets the vector cores a "
              "kernel-only answer is launched on and what GetCoreNumAiv() returns to a host.")
def main(suite: str, root: str | None, answers: str | None, list_tasks: bool, task_names: tuple[str, ...],
         levels: tuple[int, ...], categories: tuple[str, ...], show: bool, case_id: str | None, executor: str,
         address: str | None, workers: int | None, results_path: str | None, fresh: bool, report_dir: str | None,
         time_budget: float, instruction_budget: int | None, draws: int, max_elements: int | None,
         fit_shapes: bool, static_shapes: bool | None, failures: int, replay_binding: bool, chip: str | None) -> None:
    """Evaluate kernels on a task suite: compile, correctness and speed on the simulator, pass@k, reports."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from bench.harness import EvalOptions
    from bench.suites import find_task, load_suite

    try:
        if fit_shapes:
            from bench.suites.model import Task

            tasks = load_suite(suite, root, max_elements if max_elements is not None else Task.max_elements)
        else:
            tasks = load_suite(suite, root)
    except (ValueError, FileNotFoundError) as exc:
        raise click.UsageError(str(exc)) from None
    if task_names:
        try:
            tasks = [find_task(tasks, n) for n in task_names]
        except KeyError as exc:
            raise click.UsageError(str(exc).strip("'\"")) from None
    tasks = [t for t in tasks if (not levels or t.level in levels) and (not categories or t.category in categories)]
    if chip is not None:
        from dataclasses import replace

        from cli.check import check_chip

        check_chip(chip)
        tasks = [replace(t, chip=chip) for t in tasks]
    if show:
        if len(tasks) != 1:
            raise click.UsageError("--show needs exactly one --task")
        try:
            case = tasks[0].case(case_id) if case_id is not None else None
        except KeyError as exc:
            raise click.UsageError(str(exc).strip("'\"")) from None
        click.echo(tasks[0].shown(case))
        return
    if list_tasks:
        _print_tasks(tasks)
        return
    if not tasks:
        raise click.UsageError(f"no tasks in the {suite} suite match" if task_names or levels or categories
                               else f"the {suite} suite has no tasks")
    options = EvalOptions(draws=draws, time_budget_s=time_budget, instruction_budget=instruction_budget,
                          max_elements=max_elements,
                          static_shapes=static_shapes if static_shapes is not None else answers is not None,
                          replay_binding=replay_binding)
    # what a results file records besides the options: a verdict depends on the tasks' programs and the chip
    setting = {"suite": suite, "root": os.path.abspath(root) if root else None, "chip": chip,
               "fit_shapes": fit_shapes}
    sys.exit(_run(suite, tasks, answers, executor, address, workers, results_path, fresh, report_dir, options,
                  setting, failures))


def _run(suite: str, tasks: list, answers: str | None, executor: str, address: str | None, workers: int | None,
         results_path: str | None, fresh: bool, report_dir: str | None, options: Any, setting: dict[str, Any],
         failures: int) -> int:
    from rich.console import Console

    from bench.harness import collect_answers, reference_answers
    from bench.harness.executors import make_executor
    from bench.harness.metrics import summarize
    from bench.harness.results import OptionsDiffer, ResultStore
    from bench.harness.run import make_jobs, run_jobs, verdict_options
    from bench.report import print_summary, write_report

    console = Console(stderr=False)
    if answers is not None:
        found, unmatched = collect_answers(answers, tasks)
        for name in unmatched:
            console.print(f"[yellow]skipped[/yellow] {name}")
        title = f"{suite}: answers in {answers}"
    else:
        found = reference_answers(tasks)
        missing = len(tasks) - len(found)
        if missing:
            console.print(f"{missing} task{'s' * (missing != 1)} without a reference solution left out")
        title = f"{suite}: reference solutions"
    if not found:
        raise click.UsageError("no answers to evaluate")
    jobs = make_jobs(tasks, found, options)
    if results_path and fresh and os.path.exists(results_path):
        os.remove(results_path)
    try:
        store = ResultStore(results_path, verdict_options(options, **setting)) if results_path else None
    except OptionsDiffer as exc:
        # (a file that does not record its options cannot be resumed by any run: only the other two ways are offered)
        resume = "Run with that file's options to resume it, or s" if exc.recorded else "S"
        raise click.UsageError(f"{exc}. {resume}tart it anew with --fresh (its verdicts are dropped), or give "
                               "another --results file.") from None
    if store is not None and len(store):
        console.print(f"resuming from {results_path}: {sum(1 for j in jobs if j.key in store)} of {len(jobs)} "
                      "answers already evaluated")
    try:
        ex = make_executor(executor, workers, address)
    except RuntimeError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        verdicts = run_jobs(jobs, store, ex, progress=console.is_terminal, description=f"{len(jobs)} answers")
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/yellow]" + (f"; finished verdicts are in {results_path}: run again to "
                                                        "resume" if results_path else ""))
        return 130
    finally:
        ex.close()
        if store is not None:
            store.close()
    summary = summarize(verdicts)
    print_summary(summary, verdicts, title, console, failures)
    if report_dir:
        paths = write_report(report_dir, summary, verdicts, title)
        console.print(f"report: {', '.join(str(p) for p in paths)}")
    if answers is None and any(v.failure and v.failure != "not-evaluated" for v in verdicts):
        return 1
    return 0


def _print_tasks(tasks: list) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(tasks)} tasks", title_justify="left")
    for col in ("task", "level", "category", "cases", "kernel", "solution"):
        table.add_column(col)
    for t in tasks:
        table.add_row(t.name, str(t.level if t.level is not None else "-"), t.category, str(len(t.cases)),
                      t.kernel_name, "yes" if t.solution else "-")
    Console().print(table)


if __name__ == "__main__":
    main()
