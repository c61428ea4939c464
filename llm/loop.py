"""`ascendir loop`: generate -> evaluate -> preference pairs -> train -> evaluate again -> report.

    ascendir loop --model MODEL --tasks relu,abs --k 4 --out runs/loop1 [--url http://host:8000/v1]

Round 0 generates k samples per task with the model (a local transformers model, or an OpenAI-compatible
server serving it), writes them as answer files and evaluates them with the benchmark harness. Pairs come from
the verdicts: per task, a sample higher on the verdict ladder is chosen over one lower (within a rung, fewer
error diagnostics ranks higher); a task none of whose samples compiles gets its reference solution, with the
plan derived from its IR, as the chosen answer against its samples. DPO trains the local model on the pairs;
round 1 generates and evaluates again with the trained model. The report gives pass@k (compile, correct) per
level before and after, as a table, report.json and a plot.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from llm.train.reward import LADDER, rung


@dataclass
class LoopOptions:
    model: str  # the local model trained (and used for generation unless `url` is given for round 0)
    out: str
    tasks: tuple[str, ...] = ()
    suite: str = "bundled"
    root: str | None = None
    level: int | None = None
    k: int = 4
    style: str = "npukernelbench"
    shot: bool = True  # one-shot example in the prompt
    url: str | None = None  # an OpenAI-compatible server serving `model` (round 0 only)
    served_model: str | None = None  # the model name on that server
    temperature: float = 0.8
    max_new_tokens: int = 2048
    steps: int = 20
    learning_rate: float = 5e-6
    batch_size: int = 2
    max_length: int = 4096
    lora: bool = False
    train_args: dict[str, Any] = field(default_factory=dict)
    seed: int = 0


@dataclass
class RoundResult:
    name: str
    model: str
    verdicts: list[Any]
    summary: dict[str, Any]  # level -> metrics


def _tasks(opts: LoopOptions) -> list[Any]:
    from bench.suites import find_task, load_suite

    tasks = load_suite(opts.suite, opts.root)
    if opts.tasks:
        tasks = [find_task(tasks, name) for name in opts.tasks]
    if opts.level is not None:
        tasks = [t for t in tasks if t.level == opts.level]
    if not tasks:
        raise ValueError("no tasks selected")
    return tasks


def generate_and_evaluate(name: str, backend: Any, model: str, tasks: Sequence[Any], opts: LoopOptions,
                          folder: Path) -> RoundResult:
    """k samples per task into folder/samples.jsonl (resumable), their answer files, the harness's verdicts."""
    from bench.harness import Answer, evaluate
    from llm.backends import GenerationParams, SampleStore, generate_samples, sample_key
    from llm.prompts import kernel_prompt

    folder.mkdir(parents=True, exist_ok=True)
    prompts = {t.name: kernel_prompt(t, opts.style, shot=opts.shot) for t in tasks}
    store = SampleStore(folder / "samples.jsonl")
    params = GenerationParams(opts.k, opts.temperature, 0.95, opts.max_new_tokens, opts.seed)
    generate_samples(backend, list(prompts.values()), opts.k, params, store, batch=4)
    latest = store.latest()
    verdicts = []
    with (folder / "verdicts.jsonl").open("w", encoding="utf-8") as fh:
        for task in tasks:
            answers = []
            for i in range(opts.k):
                record = latest.get(sample_key(prompts[task.name], i))
                path = folder / "answers" / task.name / f"{i}.md"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(record["text"] if record else "", encoding="utf-8")
                answers.append(Answer(task.name, str(i), str(path)))
            for v in evaluate(task, answers):
                verdicts.append(v)
                fh.write(json.dumps(v.to_json()) + "\n")
    return RoundResult(name, model, verdicts, per_level(verdicts, opts.k))


def per_level(verdicts: Sequence[Any], k: int) -> dict[str, Any]:
    """pass@k (compile, correct) and the funnel, per level and over all."""
    from bench.harness.metrics import level_name, summarize

    ks = tuple(x for x in (1, 5, 10) if x <= k) or (1,)
    groups: dict[str, list[Any]] = defaultdict(list)
    for v in verdicts:
        groups[level_name(v.level)].append(v)
        groups["all"].append(v)
    out = {}
    for level, vs in sorted(groups.items()):
        s = summarize(vs, ks)
        out[level] = {"answers": len(vs), "pass_at_k": s.pass_at, "funnel": s.funnel["all"].rates(),
                      "rungs": _rung_counts(vs)}
    return out


def _rung_counts(verdicts: Sequence[Any]) -> dict[str, int]:
    counts = dict.fromkeys(LADDER, 0)
    for v in verdicts:
        counts[rung(v)] += 1
    return counts


def _rank(verdict: Any) -> tuple[float, int]:
    errors = sum(1 for f in verdict.diagnostics if f.severity == "error")
    return LADDER[rung(verdict)], -errors


def preference_pairs(tasks: Sequence[Any], result: RoundResult, opts: LoopOptions) -> list[dict[str, Any]]:
    """DPO pairs from one round's verdicts (see the module's docstring)."""
    from llm.data.reasoning import reasoning
    from llm.prompts import kernel_prompt
    from llm.prompts.shots import render_solution

    by_task: dict[str, list[Any]] = defaultdict(list)
    for v in result.verdicts:
        by_task[v.task].append(v)
    pairs = []
    for task in tasks:
        prompt = kernel_prompt(task, opts.style, shot=opts.shot).messages
        ranked = sorted(by_task.get(task.name, []), key=_rank, reverse=True)
        texts = {v.sample: Path(v.answer).read_text(encoding="utf-8") for v in ranked}
        for better in ranked:
            for worse in ranked:
                if _rank(better)[0] > _rank(worse)[0]:
                    pairs.append(_pair(prompt, texts[better.sample], texts[worse.sample], task.name, "samples"))
        if task.solution and not any(v.compiled for v in ranked):
            form = "multikernelbench" if opts.style == "multikernelbench" else "project"
            plan = reasoning(task, task.cases[0])[0] if task.cases else ""
            reference = f"{plan}\n\n{render_solution(task, form)}"
            pairs += [_pair(prompt, reference, texts[v.sample], task.name, "reference") for v in ranked]
    return pairs


def _pair(prompt: list[dict[str, str]], chosen: str, rejected: str, task: str, origin: str) -> dict[str, Any]:
    return {"prompt": prompt, "chosen": [{"role": "assistant", "content": chosen}],
            "rejected": [{"role": "assistant", "content": rejected}], "task": task, "origin": origin}


def train_on_pairs(pairs: list[dict[str, Any]], opts: LoopOptions, folder: Path) -> str:
    """DPO on the pairs from the model; returns the trained model's folder (merged when LoRA is used)."""
    from llm.train.config import LoraSettings, TrainConfig
    from llm.train.run import train

    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "pairs.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
    args = {"max_steps": opts.steps, "learning_rate": opts.learning_rate, "per_device_train_batch_size":
            opts.batch_size, "max_length": opts.max_length, "save_strategy": "no", **opts.train_args}
    config = TrainConfig("dpo", opts.model, str(data), str(folder / "dpo"), resume=False,
                         lora=LoraSettings() if opts.lora else None, args=args)
    summary = train(config)
    (folder / "train_summary.json").write_text(json.dumps(summary.to_json(), indent=1), encoding="utf-8")
    if not opts.lora:
        return summary.final_model
    from peft import AutoPeftModelForCausalLM
    from transformers import AutoTokenizer

    merged = folder / "merged"
    AutoPeftModelForCausalLM.from_pretrained(summary.final_model).merge_and_unload().save_pretrained(merged)
    AutoTokenizer.from_pretrained(summary.final_model).save_pretrained(merged)
    return str(merged)


def run_loop(opts: LoopOptions, log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """The whole loop; writes OUT/round0, OUT/train, OUT/round1, OUT/report.json and OUT/passk.png."""
    from llm.backends import make_backend

    out = Path(opts.out)
    tasks = _tasks(opts)
    if opts.url:
        backend = make_backend("openai", opts.served_model or opts.model, url=opts.url)
    else:
        backend = make_backend("transformers", opts.model)
    log(f"round 0: {len(tasks)} tasks x {opts.k} samples from {opts.model}")
    before = generate_and_evaluate("before", backend, opts.model, tasks, opts, out / "round0")
    pairs = preference_pairs(tasks, before, opts)
    log(f"training: {len(pairs)} preference pairs, {opts.steps} DPO steps")
    if not pairs:
        raise ValueError("no preference pairs: every sample has the same verdict and no task has a reference "
                         "solution")
    trained = train_on_pairs(pairs, opts, out / "train")
    log(f"round 1: samples from {trained}")
    after = generate_and_evaluate("after", make_backend("transformers", trained), trained, tasks, opts,
                                  out / "round1")
    report = {"tasks": [t.name for t in tasks], "k": opts.k, "pairs": len(pairs), "model": opts.model,
              "trained": trained, "before": before.summary, "after": after.summary}
    (out / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    plot = _plot(report, out / "passk.png")
    if plot:
        report["plot"] = plot
    return report


def table_rows(report: dict[str, Any]) -> list[list[str]]:
    """(level, metric, before, after) rows of the report."""
    rows = []
    for level in sorted(set(report["before"]) | set(report["after"])):
        for label in ("compile", "correct"):
            metrics = sorted(set(report["before"].get(level, {}).get("pass_at_k", {}).get(label, {}))
                             | set(report["after"].get(level, {}).get("pass_at_k", {}).get(label, {})))
            for m in metrics:
                b = report["before"].get(level, {}).get("pass_at_k", {}).get(label, {}).get(m)
                a = report["after"].get(level, {}).get("pass_at_k", {}).get(label, {}).get(m)
                rows.append([level, f"{label} {m}", "-" if b is None else f"{b:.3f}", "-" if a is None else f"{a:.3f}"])
    return rows


def _plot(report: dict[str, Any], path: Path) -> str | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = table_rows(report)
    labels = [f"{r[0]} {r[1]}" for r in rows]
    before = [float(r[2]) if r[2] != "-" else 0.0 for r in rows]
    after = [float(r[3]) if r[3] != "-" else 0.0 for r in rows]
    fig, ax = plt.subplots(figsize=(max(4, len(rows) * 0.9), 3.5))
    xs = range(len(rows))
    ax.bar([x - 0.2 for x in xs], before, 0.4, label="before")
    ax.bar([x + 0.2 for x in xs], after, 0.4, label="after")
    ax.set_xticks(list(xs), labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("pass@k")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return str(path)
