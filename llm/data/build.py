"""`ascendir data build OUT`: the four sources, verified, deduplicated, split by task, with a card.

    OUT/sft/{train,test}.jsonl    chat messages (documentation, code, repair examples)
    OUT/dpo/{train,test}.jsonl    prompt / chosen / rejected (seeded bugs and real failures)
    OUT/grpo/{train,test}.jsonl   one prompt per bundled task (the reward is the benchmark's verdict)
    OUT/README.md, OUT/stats.json the dataset card and its numbers
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from llm.data.mutants import MutantStats
from llm.data.records import SOURCES, Record, task_key


@dataclass
class BuildOptions:
    out: str
    sources: tuple[str, ...] = SOURCES
    tasks: tuple[str, ...] = ()  # bundled task names (default: every task with a solution)
    per_operator: int = 2  # mutants per operator and file
    operators: tuple[str, ...] = ()  # mutation operators (default: all)
    repairs: str | None = None  # kernelhive-failures records.jsonl (default ../shared/data/...)
    multikernelbench: str | None = None  # a MultiKernelBench checkout, for the repair pairs' task prompts
    simulate: bool = True  # use the simulator tier where the harness has one
    max_cases: int = 4
    test_share: float = 0.15
    near_duplicate: float = 0.9
    seed: int = 0
    jobs: int = 1


@dataclass
class BuildReport:
    out: str
    counts: dict[str, Any]
    mutants: MutantStats
    seconds: dict[str, float] = field(default_factory=dict)
    skipped: dict[str, Any] = field(default_factory=dict)
    duplicates: int = 0


def _bundled_tasks(names: Sequence[str]) -> list[Any]:
    from bench.suites import load_suite

    tasks = [t for t in load_suite("bundled") if t.solution]
    if names:
        known = {t.name for t in tasks}
        unknown = sorted(set(names) - known)
        if unknown:
            raise ValueError(f"unknown bundled task(s) {', '.join(unknown)}")
        tasks = [t for t in tasks if t.name in names]
    return tasks


def _mutant_job(job: tuple[str, int, tuple[str, ...], bool]) -> tuple[list[Record], MutantStats]:
    from bench.suites import load_suite
    from llm.data.mutants import task_records

    name, per_operator, operators, simulate = job
    task = next(t for t in load_suite("bundled") if t.name == name)
    return task_records(task, per_operator, set(operators) or None, simulate)


def _code_job(job: tuple[str, int, bool]) -> list[Record]:
    from bench.suites import load_suite
    from llm.data.code import records

    name, max_cases, simulate = job
    task = next(t for t in load_suite("bundled") if t.name == name)
    return list(records(task, max_cases, simulate))


def _map(fn: Callable[[Any], Any], jobs: list[Any], workers: int) -> Iterator[Any]:
    """fn over the jobs in order, in `workers` processes; results as they come (in order)."""
    if workers <= 1 or len(jobs) <= 1:
        yield from (fn(j) for j in jobs)
        return
    from multiprocessing import get_context

    with get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(fn, jobs, chunksize=1)


def build(options: BuildOptions, log: Callable[[str], None] = lambda s: None) -> BuildReport:
    """Builds the dataset into `options.out` (created or overwritten)."""
    from llm.data import docs
    from llm.data.card import write_card
    from llm.data.split import deduplicate, split_groups

    unknown = sorted(set(options.sources) - set(SOURCES))
    if unknown:
        raise ValueError(f"unknown source(s) {', '.join(unknown)} (sources: {', '.join(SOURCES)})")
    out = Path(options.out)
    # the bundled tasks feed the code and mutant sources and the GRPO prompts; a documentation-only build (or one
    # of the real repairs) does not read them
    tasks = _bundled_tasks(options.tasks) if {"code", "mutants"} & set(options.sources) or options.tasks else []
    records: list[Record] = []
    stats = MutantStats()
    seconds: dict[str, float] = {}
    skipped: dict[str, Any] = {}
    if "docs" in options.sources:
        started = time.monotonic()
        found = list(docs.records())
        bad = [why for r in found if (why := docs.check(r))]
        if bad:
            raise RuntimeError(f"documentation records do not match their data: {bad[:3]}")
        records += found
        seconds["docs"] = time.monotonic() - started
        log(f"docs: {len(found)} records")
    if "code" in options.sources:
        started = time.monotonic()
        found = [r for rs in _map(_code_job, [(t.name, options.max_cases, options.simulate) for t in tasks],
                                          options.jobs) for r in rs]
        with_code = {r.task for r in found}
        skipped["code"] = sorted(t.name for t in tasks if t.name not in with_code)
        records += found
        seconds["code"] = time.monotonic() - started
        log(f"code: {len(found)} records from {len(with_code)} tasks")
    if "mutants" in options.sources:
        started = time.monotonic()
        jobs = [(t.name, options.per_operator, options.operators, options.simulate) for t in tasks]
        for k, (found, task_stats) in enumerate(_map(_mutant_job, jobs, options.jobs), 1):
            records += found
            stats.merge(task_stats)
            log(f"mutants: {jobs[k - 1][0]}: {sum(task_stats.tried.values())} tried, "
                f"{sum(sum(c.values()) for c in task_stats.flagged.values())} flagged ({k}/{len(jobs)} tasks)")
        seconds["mutants"] = time.monotonic() - started
        log(f"mutants: {sum(stats.tried.values())} tried, "
            f"{sum(sum(c.values()) for c in stats.flagged.values())} flagged")
    if "repairs" in options.sources:
        from llm.data import repairs

        started = time.monotonic()
        path = options.repairs or repairs.DEFAULT_PATH
        found, left_out = repairs.records(path, options.multikernelbench)
        records += found
        skipped["repairs"] = dict(left_out)
        seconds["repairs"] = time.monotonic() - started
        log(f"repairs: {len(found)} records")
    records, duplicates = deduplicate(records)
    split = split_groups(records, options.test_share, options.near_duplicate, options.seed)
    _write(out, records, split.assignment, tasks)
    info = {"options": {k: v for k, v in asdict(options).items() if k not in ("out", "jobs")},
            "mutants": stats.to_json(), "components": split.components, "near_duplicate_edges": split.edges,
            "duplicates": duplicates, "skipped": skipped, "seconds": {k: round(v, 1) for k, v in seconds.items()}}
    counts = write_card(out, info)
    return BuildReport(str(out), counts, stats, seconds, skipped, duplicates)


def _write(out: Path, records: list[Record], assignment: dict[str, str], tasks: list[Any]) -> None:
    from llm.prompts import kernel_prompt

    files: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        config = "sft" if r.kind == "sft" else "dpo"
        files.setdefault((config, assignment.get(r.group, "train")), []).append(r.to_json())
    for task in tasks:
        prompt = kernel_prompt(task, "npukernelbench", shot=False)
        split = assignment.get(task_key(task.name), "train")
        files.setdefault(("grpo", split), []).append({"prompt": prompt.messages, "task": task.name,
                                                      "suite": task.suite, "group": task_key(task.name),
                                                      "category": task.category, "level": task.level or 0})
    for config in ("sft", "dpo", "grpo"):
        (out / config).mkdir(parents=True, exist_ok=True)
        for split in ("train", "test"):
            rows = files.get((config, split), [])
            with (out / config / f"{split}.jsonl").open("w", encoding="utf-8") as fh:
                fh.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def source_counts(out: Path) -> Counter[str]:
    """Records per source over every file (for reports)."""
    from llm.data.card import read_split_files

    found: Counter[str] = Counter()
    for config, splits in read_split_files(out).items():
        if config == "grpo":
            continue
        for rows in splits.values():
            found.update(r["source"] for r in rows)
    return found
