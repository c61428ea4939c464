"""A results file records the options that change verdicts (bench/harness/results.py), and `ascendir bench
--results` refuses to resume one written with other options (exit 2, naming each option that differs and how to
go on) instead of mixing verdicts made under both; with the same options it resumes and runs nothing twice. Before,
a file made with --max-elements 1000 was resumed by a run with --max-elements 2000 silently. Answers that stop at
the extract stage keep this fast: no simulator needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.harness.results import HEADER, OptionsDiffer, ResultStore
from bench.harness.verdict import Verdict
from cli.main import main


def _answers(tmp_path: Path) -> Path:
    folder = tmp_path / "answers"
    folder.mkdir()
    (folder / "sqrt.md").write_text("nothing here")
    (folder / "add.md").write_text("nor here")
    return folder


def _bench(answers: Path, results: Path, *extra: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, ["bench", "--answers", str(answers), "--executor", "serial", "--results",
                                     str(results), *extra])
    return done.exit_code, done.output


def _lines(results: Path) -> list[dict]:
    return [json.loads(line) for line in results.read_text().splitlines()]


def test_other_options_are_refused_and_the_same_resume(tmp_path: Path) -> None:
    answers, results = _answers(tmp_path), tmp_path / "r.jsonl"
    code, out = _bench(answers, results, "--max-elements", "1000")
    assert code == 0, out
    first = _lines(results)
    assert first[0][HEADER]["max_elements"] == 1000 and first[0][HEADER]["suite"] == "bundled"
    assert len(first) == 3  # the options line and the two verdicts

    code, out = _bench(answers, results, "--max-elements", "2000")
    assert code == 2
    flat = " ".join(out.split())
    assert "max_elements: 1000 in the file, 2000 now" in flat and "--fresh" in flat, out
    code, out = _bench(answers, results, "--max-elements", "1000", "--replay-binding", "--chip", "910B3")
    flat = " ".join(out.split())
    assert code == 2 and "replay_binding: false in the file, true now" in flat and "chip: null in the file" in flat
    assert _lines(results) == first  # refused: the file is left as it was

    code, out = _bench(answers, results, "--max-elements", "1000")
    assert code == 0 and "2 of 2 answers already evaluated" in " ".join(out.split()), out
    assert _lines(results) == first  # resumed: nothing ran again

    code, out = _bench(answers, results, "--max-elements", "2000", "--fresh")
    assert code == 0, out
    again = _lines(results)
    assert again[0][HEADER]["max_elements"] == 2000 and len(again) == 3


def test_a_file_without_its_options_is_refused(tmp_path: Path) -> None:
    answers, results = _answers(tmp_path), tmp_path / "old.jsonl"
    code, _ = _bench(answers, results)
    assert code == 0
    results.write_text("".join(line + "\n" for line in results.read_text().splitlines()[1:]))  # an older file
    code, out = _bench(answers, results)
    flat = " ".join(out.split())
    assert code == 2 and "holds 2 verdicts but not the options they were made with" in flat
    # no run can resume it (its options are unknown): only --fresh and another file are offered
    assert "Start it anew with --fresh" in flat and "that file's options" not in flat, out
    results.write_text(results.read_text().splitlines()[0] + "\n")
    code, out = _bench(answers, results)
    assert code == 2 and "holds 1 verdict but not the options it was made with" in " ".join(out.split()), out


def test_the_store_api(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    store = ResultStore(path, {"max_elements": 4, "root": Path("/x")})
    store.add(Verdict("bundled", "sqrt", "0", "a.md", key="k1"))
    store.close()
    assert ResultStore(path, {"max_elements": 4, "root": "/x"}).verdicts.keys() == {"k1"}  # the path as stored
    assert ResultStore(path).verdicts.keys() == {"k1"}  # a caller naming no options reads it as before
    with pytest.raises(OptionsDiffer, match=r"budget: not recorded in the file, 3 now"):
        ResultStore(path, {"max_elements": 4, "root": "/x", "budget": 3})
    # an options line alone (a run stopped before its first verdict): nothing to mix, this run's options replace it
    path.write_text(json.dumps({HEADER: {"max_elements": 4}}) + "\n")
    store = ResultStore(path, {"max_elements": 8})
    store.add(Verdict("bundled", "sqrt", "0", "a.md", key="k2"))
    store.close()
    assert _lines(path)[0] == {HEADER: {"max_elements": 8}} and len(_lines(path)) == 2


def test_advice_offers_resuming_only_for_a_recorded_file() -> None:
    from bench.harness.results import OptionsDiffer

    assert "rerun with that file's options" in OptionsDiffer("differs", recorded=True).advice("--results")
    unrecorded = OptionsDiffer("records no options", recorded=False).advice("--sim-results")
    assert "rerun" not in unrecorded and unrecorded == "give another --sim-results file"
