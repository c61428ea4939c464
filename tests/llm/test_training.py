"""SFT, DPO and GRPO steps over trl on the tiny models: the loss or the reward moves, checkpoints resume, LoRA
trains an adapter, and the GRPO reward is the benchmark's verdict ladder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm.data.code import simulator_available as simulated
from llm.train.config import ConfigError, load_config
from llm.train.reward import LADDER, VerdictReward
from llm.train.run import train


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def config(folder: Path, kind: str, model: Path, data: Path, args: str, extra: str = "") -> Path:
    path = folder / f"{kind}.toml"
    path.write_text(f'kind = "{kind}"\nmodel = "{model}"\ndata = "{data}"\noutput_dir = "out-{kind}"\n{extra}\n'
                    f"[args]\n{args}\n")
    return path


ANSWER = "```cpp\nint x;\n```"
PROMPTS = [f"Write the kernel of {name}. Answer in a cpp block." for name in ("relu", "abs")]


@pytest.fixture(scope="module")
def sft_model(tiny_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model after a few SFT steps on short answers: it writes a fenced block some of the time."""
    folder = tmp_path_factory.mktemp("sft")
    rows = [{"messages": [{"role": "user", "content": p}, {"role": "assistant", "content": ANSWER}]}
            for p in PROMPTS for _ in range(4)]
    data = write_jsonl(folder / "sft.jsonl", rows)
    summary = train(load_config(config(folder, "sft", tiny_dir, data,
                                       'max_steps = 20\nlearning_rate = 1e-2\nsave_strategy = "no"\nmax_length = 128')))
    assert summary.steps == 20 and summary.last["loss"] < summary.first["loss"] / 3
    metrics = [json.loads(line) for line in (folder / "out-sft" / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics if "loss" in m] == list(range(1, 21))
    return Path(summary.final_model)


def test_sft_lowers_the_loss(sft_model: Path) -> None:
    assert (sft_model / "config.json").is_file() and (sft_model / "tokenizer.json").is_file()


def test_training_resumes_from_its_checkpoint(tiny_moe_dir: Path, tmp_path: Path) -> None:
    rows = [{"messages": [{"role": "user", "content": PROMPTS[0]}, {"role": "assistant", "content": ANSWER}]}] * 4
    data = write_jsonl(tmp_path / "sft.jsonl", rows)
    first = train(load_config(config(tmp_path, "sft", tiny_moe_dir, data, "max_steps = 3\nsave_steps = 3")))
    assert first.resumed_from is None and (tmp_path / "out-sft" / "checkpoint-3").is_dir()
    second = train(load_config(config(tmp_path, "sft", tiny_moe_dir, data, "max_steps = 5\nsave_steps = 3")))
    assert second.resumed_from is not None and second.resumed_from.endswith("checkpoint-3") and second.steps == 5


@pytest.mark.parametrize("lora", [False, True])
def test_dpo_prefers_the_chosen_answer(tiny_dir: Path, tmp_path: Path, lora: bool) -> None:
    rows = [{"prompt": [{"role": "user", "content": f"Fix kernel {i}"}],
             "chosen": [{"role": "assistant", "content": "inQ.FreeTensor(x);"}],
             "rejected": [{"role": "assistant", "content": "inQ.FreeTensor(x);\ninQ.FreeTensor(x);"}]} for i in range(8)]
    data = write_jsonl(tmp_path / "dpo.jsonl", rows)
    extra = "[lora]\nr = 4\nalpha = 8\n" if lora else ""
    summary = train(load_config(config(tmp_path, "dpo", tiny_dir, data,
                                       "max_steps = 4\nlearning_rate = 5e-3\nmax_length = 128", extra)))
    assert summary.last["loss"] < summary.first["loss"] and summary.last["rewards/margins"] > 0
    if lora:
        assert (Path(summary.final_model) / "adapter_config.json").is_file()


def test_grpo_reward_is_the_verdict_and_moves(sft_model: Path, tmp_path: Path) -> None:
    rows = [{"prompt": [{"role": "user", "content": p}], "task": p.split()[4].rstrip(".")} for p in PROMPTS
            for _ in range(4)]
    data = write_jsonl(tmp_path / "grpo.jsonl", rows)
    summary = train(load_config(config(
        tmp_path, "grpo", sft_model, data,
        'max_steps = 6\nlearning_rate = 3e-3\nmax_completion_length = 12\nnum_generations = 8\n'
        'per_device_train_batch_size = 8\ntemperature = 1.0\nsave_strategy = "no"\nbeta = 0.0')))
    metrics = [json.loads(line) for line in (tmp_path / "out-grpo" / "metrics.jsonl").read_text().splitlines()]
    steps = [m for m in metrics if "reward" in m]
    assert len(steps) == 6 and summary.steps == 6
    # the ladder tells completions apart (a fenced block that fails to compile beats text in no format), so the
    # policy gradient is not zero, and the mean reward changes from step to step
    assert any(m["reward_std"] > 0 and m["loss"] != 0 for m in steps)
    assert len({m["reward"] for m in steps}) > 1
    judged = [json.loads(line) for line in (tmp_path / "out-grpo" / "rewards.jsonl").read_text().splitlines()]
    assert {j["rung"] for j in judged} <= set(LADDER) and {"format", "compile"} <= {j["rung"] for j in judged}


def test_the_ladder_orders_the_verdicts(tmp_path: Path) -> None:
    from bench.suites import load_suite

    from llm.prompts.shots import render_solution

    relu = next(t for t in load_suite("bundled") if t.name == "relu")
    reward = VerdictReward([relu], log=tmp_path / "r.jsonl")
    texts = ["no code here", "```cpp\nint x\n```", "reasoning\n" + render_solution(relu, "project")]
    got = reward([None] * 3, [[{"role": "assistant", "content": t}] for t in texts], ["relu"] * 3)
    assert got[:2] == [LADDER["format"], LADDER["compile"]] and got[2] >= LADDER["compiles"]
    if not simulated():  # without the simulator nothing is proven correct: "compiles" is the top rung reached
        assert got[2] == LADDER["compiles"]


def test_a_bad_config_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('kind = "sft"\nmodel = "m"\ndata = "d"\noutput_dir = "o"\nepochs = 3\n')
    with pytest.raises(ConfigError, match="unknown key.*epochs"):
        load_config(path)
    path.write_text('kind = "dpo"\nmodel = "m"\ndata = "d"\noutput_dir = "o"\n')
    with pytest.raises(ConfigError, match="a 'dpo' configuration, not 'sft'"):
        load_config(path, "sft")
