"""Training configurations, one TOML file per run:

    kind = "sft"                       # sft | dpo | grpo
    model = "models/qwen3-tiny"        # a local model directory (weights, tokenizer with a chat template)
    data = "dataset/sft/train.jsonl"   # the dataset builder's JSONL (a file, or a folder holding train.jsonl)
    eval_data = "dataset/sft/test.jsonl"   # optional
    output_dir = "runs/sft-1"          # checkpoints, metrics.jsonl, the final model
    resume = true                      # continue from the newest checkpoint in output_dir (default)

    [lora]                             # optional: train a LoRA adapter through peft instead of every weight
    r = 16
    alpha = 32
    dropout = 0.05
    target_modules = ["q_proj", "k_proj", "v_proj", "o_proj"]

    [args]                             # handed to trl's SFTConfig / DPOConfig / GRPOConfig as they are
    learning_rate = 1e-5
    max_steps = 300
    per_device_train_batch_size = 4

    [reward]                           # grpo only: how completions are judged (the benchmark's verdict)
    suite = "bundled"
    root = ""                          # the suite's checkout, for npukernelbench / multikernelbench
    draws = 1

trl's defaults that do not suit a CPU (bf16, gradient checkpointing) are off unless `[args]` says otherwise or
a GPU with bf16 is present; `report_to` is none and metrics go to output_dir/metrics.jsonl.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("sft", "dpo", "grpo")


class ConfigError(ValueError):
    """A training configuration that cannot be used, with the file and the reason."""


@dataclass
class LoraSettings:
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: list[str] = field(default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj"])


@dataclass
class RewardSettings:
    suite: str = "bundled"
    root: str = ""
    draws: int = 1
    time_budget_s: float = 120.0


@dataclass
class TrainConfig:
    kind: str
    model: str
    data: str
    output_dir: str
    eval_data: str | None = None
    resume: bool = True
    lora: LoraSettings | None = None
    args: dict[str, Any] = field(default_factory=dict)
    reward: RewardSettings = field(default_factory=RewardSettings)
    source: str = ""  # the file it was read from

    def data_file(self, which: str = "train") -> Path:
        """The JSONL of the training (or evaluation) data."""
        given = Path(self.data if which == "train" else (self.eval_data or ""))
        return given / f"{which}.jsonl" if given.is_dir() else given


def load_config(path: str | Path, kind: str | None = None) -> TrainConfig:
    """The configuration in `path`; relative paths in it are taken from the file's folder. `kind` (the
    command's) must agree with the file's when the file names one."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read it ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: not valid TOML: {exc}") from None
    known = {"kind", "model", "data", "eval_data", "output_dir", "resume", "lora", "args", "reward"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{file}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    chosen = data.get("kind", kind)
    if kind is not None and chosen != kind:
        raise ConfigError(f"{file}: the file is a '{chosen}' configuration, not '{kind}'")
    if chosen not in KINDS:
        raise ConfigError(f"{file}: kind must be one of {', '.join(KINDS)}")
    for key in ("model", "data", "output_dir"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ConfigError(f"{file}: '{key}' is missing (a path)")

    def here(value: str | None) -> str | None:
        return None if value is None else str((file.parent / value).resolve()) if not Path(value).is_absolute() else value

    lora = None
    if "lora" in data:
        try:
            lora = LoraSettings(**data["lora"])
        except TypeError as exc:
            raise ConfigError(f"{file}: [lora]: {exc}") from None
    try:
        reward = RewardSettings(**data.get("reward", {}))
    except TypeError as exc:
        raise ConfigError(f"{file}: [reward]: {exc}") from None
    if reward.root:
        reward.root = here(reward.root) or ""
    model = data["model"]
    # a model given as a path that exists relative to the config file is taken from there
    if not Path(model).is_absolute() and (file.parent / model).exists():
        model = str((file.parent / model).resolve())
    return TrainConfig(chosen, model, here(data["data"]) or "", here(data["output_dir"]) or "",
                       here(data.get("eval_data")), bool(data.get("resume", True)), lora,
                       dict(data.get("args", {})), reward, str(file))
