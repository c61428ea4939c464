"""Training throughput of a model built from a config: SFT, DPO and GRPO steps per second, tokens per second
and peak GPU memory, on the dataset's own records. Prints a table and writes JSON.

    .venv/bin/python -m llm.train.measure [--arch qwen3] [--hidden 64] [--layers 2] [--steps 20]
                                          [--data DATASET] [--kinds sft,dpo,grpo] [--json OUT]

On CPU (this machine) it runs the tiny default model; on a GPU the same command with a larger `--hidden` and
`--layers` measures the model the issue asks about. `--data` is an `ascendir data build` folder (default: a
documentation-only dataset built on the spot, which needs no task evaluation); GRPO samples `--completion`
tokens per completion and scores them with the benchmark's verdict.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402


def _config(folder: Path, kind: str, model: Path, data: Path, args: dict[str, object]) -> Path:
    """A run config in `folder`. Paths are written absolute: a config resolves a relative path against its
    own folder (a temporary one here), not against the directory `--data` was given in."""
    lines = [f'kind = "{kind}"', f'model = "{model.resolve()}"', f'data = "{data.resolve()}"',
             f'output_dir = "{(folder / kind).resolve()}"',
             "resume = false", "[args]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in args.items()]
    path = folder / f"{kind}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="qwen3", choices=["qwen3", "qwen3_moe"])
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--vocab", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--max-length", type=int, default=1024)
    ap.add_argument("--completion", type=int, default=64, help="GRPO completion tokens")
    ap.add_argument("--data", type=Path, default=None, help="an `ascendir data build` folder")
    ap.add_argument("--kinds", default="sft,dpo,grpo")
    ap.add_argument("--json", type=Path, default=Path("llm-train-measure.json"))
    args = ap.parse_args()

    from rich.console import Console
    from rich.table import Table

    from llm.train.config import load_config
    from llm.train.run import train
    from llm.train.tiny import TinySpec, build, save

    work = Path(tempfile.mkdtemp(prefix="ascendir-measure-"))
    spec = TinySpec(args.arch, args.hidden, args.layers, args.heads, max(1, args.heads // 2), args.hidden * 2,
                    vocab=args.vocab)
    model, tokenizer = build(spec)
    params = sum(p.numel() for p in model.parameters())
    model_dir = save(model, tokenizer, work / "model")
    data = args.data
    if data is None:
        from llm.data.build import BuildOptions, build as build_data

        data = work / "data"
        build_data(BuildOptions(str(data), ("docs",)))
    common = {"max_steps": args.steps, "per_device_train_batch_size": args.batch, "learning_rate": 1e-4,
              "save_strategy": "no", "logging_steps": 1}
    results = []
    for kind in [k.strip() for k in args.kinds.split(",") if k.strip()]:
        folder = {"sft": "sft", "dpo": "dpo", "grpo": "grpo"}[kind]
        train_file = data / folder / "train.jsonl"
        if not train_file.is_file() or not train_file.read_text().strip():
            print(f"measure: {train_file} is empty; {kind} skipped (build the dataset with that source)",
                  file=sys.stderr)
            continue
        extra: dict[str, object] = {"max_length": args.max_length} if kind != "grpo" else {
            "max_completion_length": args.completion, "num_generations": max(2, args.batch),
            "per_device_train_batch_size": max(2, args.batch)}
        config = load_config(_config(work, kind, model_dir, train_file, {**common, **extra}))
        summary = train(config)
        results.append(summary.to_json())
    table = Table(title=f"{args.arch} hidden {args.hidden} x {args.layers} layers, {params:,} parameters")
    for column in ("kind", "steps", "steps/s", "tokens/s", "peak memory", "first", "last"):
        table.add_column(column, justify="left" if column == "kind" else "right")
    for r in results:
        peak = f"{r['peak_memory_bytes'] / 2**30:.2f} GiB" if r["peak_memory_bytes"] else "- (CPU)"
        table.add_row(r["kind"], str(r["steps"]), f"{r['steps_per_s']:.2f}",
                      f"{r['tokens_per_s']:.0f}" if r["tokens_per_s"] else "-", peak,
                      json.dumps({k: round(v, 3) for k, v in r["first"].items()}),
                      json.dumps({k: round(v, 3) for k, v in r["last"].items()}))
    Console().print(table)
    report = {"arch": args.arch, "hidden": args.hidden, "layers": args.layers, "parameters": params,
              "data": str(data), "results": results}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
