"""`ascendir data build`, `ascendir train init-model` and `ascendir train sft|dpo|grpo CONFIG` as a user types
them: the same commands a GPU run uses, here on CPU with a tiny model."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main

KERNEL = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "kernels" / "tpipe" / "add_custom.cpp"


def test_data_build_writes_the_documentation_source(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    result = CliRunner().invoke(main, ["data", "build", str(out), "--sources", "docs"])
    assert result.exit_code == 0, result.output
    assert "sft/train" in result.output and (out / "README.md").is_file()
    stats = json.loads((out / "stats.json").read_text())
    assert stats["counts"]["records"]["sft/train"] > 300 and stats["counts"]["records"]["sft/test"] == 0


def test_data_build_rejects_unknown_names(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["data", "build", str(tmp_path), "--operators", "drop-freee"])
    assert result.exit_code == 2 and "unknown mutation operator 'drop-freee'" in result.output
    result = CliRunner().invoke(main, ["data", "build", str(tmp_path), "--sources", "docs", "--tasks", "nope"])
    assert result.exit_code == 2 and "unknown bundled task(s) nope" in result.output


def test_init_model_then_sft_from_a_config(tmp_path: Path) -> None:
    model = tmp_path / "model"
    result = CliRunner().invoke(main, ["train", "init-model", str(model), "--arch", "qwen3_moe", "--hidden", "32",
                                       "--vocab", "600", "--texts", str(KERNEL)])
    assert result.exit_code == 0, result.output
    assert "qwen3_moe" in result.output and (model / "config.json").is_file()
    assert json.loads((model / "config.json").read_text())["num_local_experts"] == 4
    rows = [{"messages": [{"role": "user", "content": "Add x and y."},
                          {"role": "assistant", "content": "AscendC::Add(z, x, y, n);"}]}] * 4
    (tmp_path / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "sft.toml"
    config.write_text('model = "model"\ndata = "train.jsonl"\noutput_dir = "run"\n[args]\nmax_steps = 2\n'
                      'learning_rate = 1e-2\nsave_strategy = "no"\n')
    result = CliRunner().invoke(main, ["train", "sft", str(config)])
    assert result.exit_code == 0, result.output
    start = result.output.index('{\n "kind"')  # after trl's own log lines
    summary = json.JSONDecoder().raw_decode(result.output[start:])[0]
    assert summary["kind"] == "sft" and summary["steps"] == 2 and summary["steps_per_s"] > 0
    assert (tmp_path / "run" / "final" / "config.json").is_file() and (tmp_path / "run" / "metrics.jsonl").is_file()
    result = CliRunner().invoke(main, ["train", "dpo", str(config)])
    assert result.exit_code == 2 and "not 'dpo'" not in result.output  # the file names no kind: dpo is asked for
    assert "lacks prompt, chosen, rejected" in result.output
