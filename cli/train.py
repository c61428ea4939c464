"""`ascendir train sft|dpo|grpo CONFIG` and `ascendir train init-model OUT`: training over trl, and a small
model built from a config (Qwen3 or Qwen3-MoE) for CPU smoke runs and throughput measurements."""

from __future__ import annotations

import os

# torch must see this before it is imported: with two threads on small machines small ops run ~100x slower
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import click  # noqa: E402


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Train a kernel-writing model (SFT, DPO, GRPO) from a TOML config."""


def _run(kind: str, config: Path) -> None:
    from llm.train.config import ConfigError, load_config

    try:
        cfg = load_config(config, kind)
    except ConfigError as exc:
        click.echo(f"ascendir train: {exc}", err=True)
        sys.exit(2)
    from llm.train.run import train

    try:
        summary = train(cfg)
    except (FileNotFoundError, ValueError, OSError) as exc:
        click.echo(f"ascendir train {kind}: {exc}", err=True)
        sys.exit(2)
    click.echo(json.dumps(summary.to_json(), indent=1))


@main.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
def sft(config: Path) -> None:
    """Supervised fine-tuning on the dataset's chat messages."""
    _run("sft", config)


@main.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
def dpo(config: Path) -> None:
    """Direct preference optimisation on prompt / chosen / rejected pairs."""
    _run("dpo", config)


@main.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
def grpo(config: Path) -> None:
    """GRPO with the benchmark's verdict as the reward."""
    _run("grpo", config)


@main.command("init-model")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--arch", type=click.Choice(["qwen3", "qwen3_moe"]), default="qwen3", show_default=True)
@click.option("--hidden", default=64, show_default=True)
@click.option("--layers", default=2, show_default=True)
@click.option("--heads", default=4, show_default=True)
@click.option("--kv-heads", default=2, show_default=True)
@click.option("--intermediate", default=128, show_default=True)
@click.option("--experts", default=4, show_default=True, help="MoE only.")
@click.option("--vocab", default=1024, show_default=True, help="The tokenizer's vocabulary size.")
@click.option("--texts", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="Files or folders the tokenizer is trained on (default: the bundled AscendC corpus).")
@click.option("--seed", default=0, show_default=True)
def init_model(out: Path, arch: str, hidden: int, layers: int, heads: int, kv_heads: int, intermediate: int,
               experts: int, vocab: int, texts: tuple[Path, ...], seed: int) -> None:
    """Build a model from a config (random weights) with a tokenizer trained here, and save it to OUT."""
    from llm.train.tiny import TinySpec, build, save

    corpus = None
    if texts:
        corpus = []
        for path in texts:
            files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
            corpus += [f.read_text(encoding="utf-8", errors="replace") for f in files]
    spec = TinySpec(arch, hidden, layers, heads, kv_heads, intermediate, experts, min(2, experts), vocab)
    model, tokenizer = build(spec, corpus, seed)
    save(model, tokenizer, out)
    params = sum(p.numel() for p in model.parameters())
    click.echo(f"wrote {out}: {arch}, {params:,} parameters, vocabulary {len(tokenizer)}")
