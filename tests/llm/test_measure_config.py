"""llm.train.measure writes its run configs into a temporary folder; a config resolves relative paths against
its own folder, so the `--data` and model paths it writes must not depend on the directory the command ran in
(`--data .gpu/data` was read as <tmp>/.gpu/data: 'no such dataset file')."""

from pathlib import Path

from llm.train.config import load_config
from llm.train.measure import _config


def test_relative_data_and_model_paths_resolve_from_the_working_directory(tmp_path, monkeypatch):
    work = tmp_path / "cwd"
    (work / "ds" / "sft").mkdir(parents=True)
    (work / "ds" / "sft" / "train.jsonl").write_text('{"messages": []}\n')
    (work / "model").mkdir()
    configs = tmp_path / "elsewhere"
    configs.mkdir()
    monkeypatch.chdir(work)

    path = _config(configs, "sft", Path("model"), Path("ds/sft/train.jsonl"), {"max_steps": 1})
    config = load_config(path)

    assert config.data_file("train") == work / "ds" / "sft" / "train.jsonl"
    assert config.data_file("train").is_file()
    assert Path(config.model) == work / "model"
    assert Path(config.output_dir) == configs / "sft"
