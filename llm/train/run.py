"""`ascendir train sft|dpo|grpo CONFIG`: trl's trainers on a local model, with LoRA as an option, checkpoints
that a second run resumes from, and metrics in output_dir/metrics.jsonl.

Multi-GPU: the same entry point runs under `accelerate launch -m cli.main train sft CONFIG` (trl's trainers
are accelerate-aware); on one CPU it runs as it is.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from llm.train.config import TrainConfig

# what each kind reads from the dataset's records
COLUMNS = {"sft": ("messages",), "dpo": ("prompt", "chosen", "rejected"), "grpo": ("prompt", "task")}


@dataclass
class TrainSummary:
    kind: str
    steps: int
    resumed_from: str | None
    seconds: float
    steps_per_s: float
    tokens_per_s: float | None
    first: dict[str, float] = field(default_factory=dict)  # loss / reward of the first logged step
    last: dict[str, float] = field(default_factory=dict)
    peak_memory_bytes: int | None = None
    final_model: str = ""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def read_jsonl(path: Path, columns: tuple[str, ...]) -> list[dict[str, Any]]:
    """The records of a dataset file, checked for the columns the trainer needs."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such dataset file (build one with `ascendir data build`)")
    rows = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not JSON: {exc.msg}") from None
            missing = [c for c in columns if c not in row]
            if missing:
                raise ValueError(f"{path}:{number}: the record lacks {', '.join(missing)} (a {columns} dataset?)")
            rows.append({c: row[c] for c in (*columns, "case") if c in row})
    if not rows:
        raise ValueError(f"{path}: the dataset is empty")
    return rows


class _MetricsLog:
    """A trainer callback writing every logged dict, with the step and wall time, to metrics.jsonl."""

    def __init__(self, path: Path) -> None:
        from transformers import TrainerCallback

        self.path = path
        self.started = time.monotonic()
        outer = self

        class Callback(TrainerCallback):  # type: ignore[misc]
            def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None,
                       **kwargs: Any) -> None:
                if logs and state.is_world_process_zero:
                    row = {"step": state.global_step, "time_s": round(time.monotonic() - outer.started, 3), **logs}
                    with outer.path.open("a", encoding="utf-8") as fh:
                        fh.write(json.dumps(row) + "\n")

        self.callback = Callback()


def _trl_args(config: TrainConfig, has_cuda: bool, bf16_ok: bool, tokenizer: Any) -> Any:
    from trl import DPOConfig, GRPOConfig, SFTConfig

    defaults: dict[str, Any] = {
        "output_dir": config.output_dir, "report_to": [], "bf16": has_cuda and bf16_ok,
        "gradient_checkpointing": False, "save_strategy": "steps", "save_steps": 50, "save_total_limit": 3,
        "logging_steps": 1, "use_cpu": not has_cuda, "seed": 0, "dataloader_num_workers": 0,
        "per_device_train_batch_size": 2, "learning_rate": 1e-5,
    }
    if config.kind == "sft":
        defaults["assistant_only_loss"] = "{% generation %}" in (tokenizer.chat_template or "")
        cls: Any = SFTConfig
    elif config.kind == "dpo":
        cls = DPOConfig
    else:
        defaults.update(num_generations=4, max_completion_length=512, per_device_train_batch_size=4)
        cls = GRPOConfig
    return cls(**{**defaults, **config.args})


def _newest_checkpoint(folder: Path) -> str | None:
    checkpoints = [p for p in folder.glob("checkpoint-*") if p.is_dir() and p.name.split("-")[-1].isdigit()]
    return str(max(checkpoints, key=lambda p: int(p.name.split("-")[-1]))) if checkpoints else None


def train(config: TrainConfig) -> TrainSummary:
    """Runs the configured training to its end (or resumes it) and saves the final model in output_dir/final."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    has_cuda = torch.cuda.is_available()
    bf16_ok = has_cuda and torch.cuda.is_bf16_supported()
    tokenizer = AutoTokenizer.from_pretrained(config.model)
    if tokenizer.chat_template is None:
        raise ValueError(f"{config.model}: the tokenizer has no chat template; the dataset is chat messages")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    dtype = torch.bfloat16 if bf16_ok else torch.float32
    model = AutoModelForCausalLM.from_pretrained(config.model, dtype=dtype)
    columns = COLUMNS[config.kind]
    train_rows = read_jsonl(config.data_file("train"), columns)
    eval_rows = read_jsonl(config.data_file("test"), columns) if config.eval_data else None
    args = _trl_args(config, has_cuda, bf16_ok, tokenizer)
    peft_config = None
    if config.lora is not None:
        from peft import LoraConfig

        peft_config = LoraConfig(r=config.lora.r, lora_alpha=config.lora.alpha, lora_dropout=config.lora.dropout,
                                 target_modules=config.lora.target_modules, task_type="CAUSAL_LM")
    metrics = _MetricsLog(out / "metrics.jsonl")
    common: dict[str, Any] = {"model": model, "args": args, "processing_class": tokenizer, "peft_config": peft_config,
                              "train_dataset": Dataset.from_list(train_rows), "callbacks": [metrics.callback],
                              "eval_dataset": Dataset.from_list(eval_rows) if eval_rows else None}
    if config.kind == "sft":
        from trl import SFTTrainer

        trainer: Any = SFTTrainer(**common)
    elif config.kind == "dpo":
        from trl import DPOTrainer

        # a model built from a config has no hub id trl could load a reference from: give it one explicitly
        ref = None if peft_config is not None else AutoModelForCausalLM.from_pretrained(config.model, dtype=dtype)
        trainer = DPOTrainer(ref_model=ref, **common)
    else:
        from trl import GRPOTrainer

        from llm.train.reward import VerdictReward

        reward = VerdictReward(_reward_tasks(config), log=out / "rewards.jsonl", draws=config.reward.draws,
                               time_budget_s=config.reward.time_budget_s)
        trainer = GRPOTrainer(reward_funcs=[reward], **common)
    resume = _newest_checkpoint(out) if config.resume else None
    if has_cuda:
        torch.cuda.reset_peak_memory_stats()
    started = time.monotonic()
    result = trainer.train(resume_from_checkpoint=resume)
    seconds = time.monotonic() - started
    final = out / "final"
    trainer.save_model(str(final))
    tokenizer.save_pretrained(str(final))
    return _summary(config.kind, trainer, result, resume, seconds, str(final),
                    torch.cuda.max_memory_allocated() if has_cuda else None)


def _reward_tasks(config: TrainConfig) -> list[Any]:
    from bench.suites import load_suite

    return load_suite(config.reward.suite, config.reward.root or None)


def _summary(kind: str, trainer: Any, result: Any, resume: str | None, seconds: float, final: str,
             peak: int | None) -> TrainSummary:
    logged = [h for h in trainer.state.log_history if "loss" in h or "reward" in h]
    keys = ("loss", "reward", "rewards/margins", "rewards/accuracies")

    def pick(h: dict[str, Any]) -> dict[str, float]:
        return {k: float(h[k]) for k in keys if k in h}

    steps_done = trainer.state.global_step - (int(Path(resume).name.split("-")[-1]) if resume else 0)
    tokens = [h.get("num_tokens") for h in trainer.state.log_history if "num_tokens" in h]
    tokens_per_s = (float(tokens[-1]) - float(tokens[0])) / seconds if len(tokens) > 1 and seconds > 0 else None
    return TrainSummary(kind, trainer.state.global_step, resume, round(seconds, 3),
                        round(steps_done / seconds, 3) if seconds > 0 else 0.0,
                        round(tokens_per_s, 1) if tokens_per_s is not None else None,
                        pick(logged[0]) if logged else {}, pick(logged[-1]) if logged else {}, peak, final)
