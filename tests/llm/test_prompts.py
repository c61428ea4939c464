"""Prompts: the benchmark styles carry every part the public benchmarks show, the shot comes from the task's
category and never is the task itself, the shot's answer is what the harness extracts and builds, and the
repair prompt shows the diagnostics as ascendc-check prints them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.harness import Answer, evaluate
from bench.suites import load_suite
from llm.prompts import kernel_prompt, repair_prompt
from llm.prompts.answers import project_files, project_sections, render_project
from llm.prompts.shots import render_solution, shot_for
from passes.mutate import judge

BUNDLED = load_suite("bundled")
MULTIKERNELBENCH = Path(os.environ.get("MULTIKERNELBENCH", "/work/ext/MultiKernelBench"))


def task(name: str):  # type: ignore[no-untyped-def]
    return next(t for t in BUNDLED if t.name == name)


def test_npukernelbench_style_has_every_part() -> None:
    prompt = kernel_prompt(task("relu"))
    system, user = (m["content"] for m in prompt.messages)
    assert prompt.style == "npukernelbench" and prompt.form == "project"
    assert "AscendC" in system
    assert "Output rules" in user and "## An example" in user and "=== op_kernel/" in user
    assert "## Test case\nTest case tiny_tail: x=[3, 5]:float16" in user
    assert "48 AIV (vector) cores" in user and "UB 196608 bytes" in user  # from the chip file
    assert user.index("## An example") < user.index("## Task: relu")


def test_the_shot_is_from_the_same_category_and_never_the_task() -> None:
    relu = task("relu")
    shot = shot_for(relu, "project")
    assert shot is not None and shot.category == "activation" and shot.task != "relu"
    assert shot_for(relu, "project", pool=(relu,)) is None


@pytest.mark.skipif(not MULTIKERNELBENCH.is_dir(), reason=f"no MultiKernelBench checkout at {MULTIKERNELBENCH}")
def test_multikernelbench_style_takes_a_shot_of_the_tasks_category() -> None:
    tasks = load_suite("multikernelbench", MULTIKERNELBENCH)
    loss = next(t for t in tasks if t.category == "loss")
    prompt = kernel_prompt(loss, style="multikernelbench")
    user = prompt.messages[1]["content"]
    assert prompt.meta["shot"] is not None and "python_bind_src = " in user
    shot_category = next(t.category for t in BUNDLED if t.name == prompt.meta["shot"])
    if any(t.category == "loss" for t in BUNDLED):
        assert shot_category == "loss"


@pytest.mark.parametrize("form", ["project", "multikernelbench"])
def test_a_rendered_solution_is_extracted_and_built_by_the_harness(tmp_path: Path, form: str) -> None:
    relu = task("relu")
    path = tmp_path / "relu.md"
    path.write_text("The tiling splits the tensor in 32-byte blocks.\n\n" + render_solution(relu, form))
    (verdict,) = evaluate(relu, [Answer("relu", "0", str(path))])
    assert verdict.extracted and verdict.compiled, verdict.reason


def test_project_sections_read_back_what_render_project_wrote() -> None:
    files = project_files(task("relu").solution)
    sections = project_sections(render_project(files))
    assert sections == {rel: text.rstrip("\n") + "\n" for rel, text in files.items()}


def test_repair_prompt_shows_the_diagnostics_as_printed() -> None:
    text = "\n".join(["#include \"kernel_operator.h\"", "using namespace AscendC;",
                      "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) {",
                      "    float v = expf(1.0f);", "}", ""])
    files = {"k.cpp": text}
    diags = [d for d in judge.check_sources(files) if d.is_error]
    assert diags
    prompt = repair_prompt(files, diags)
    user = prompt.messages[1]["content"]
    assert "k.cpp:4:" in user and "float v = expf(1.0f);" in user and "^" in user
    assert f"[{diags[0].code}]" in user and prompt.form == "kernel"


SUITES = [("bundled", None), ("npukernelbench", Path(os.environ.get("NPUKERNELBENCH", "/work/ext/NPUKernelBench"))),
          ("multikernelbench", MULTIKERNELBENCH)]


@pytest.mark.parametrize("suite,root", SUITES, ids=[s for s, _ in SUITES])
def test_every_task_of_a_suite_gets_both_prompts(suite: str, root: Path | None) -> None:
    if root is not None and not root.is_dir():
        pytest.skip(f"no {suite} checkout at {root}")
    tasks = BUNDLED if root is None else load_suite(suite, root)
    for t in tasks:
        for style in ("npukernelbench", "multikernelbench"):
            prompt = kernel_prompt(t, style)
            user = prompt.messages[1]["content"]
            assert f"## Task: {t.name}" in user and "## Hardware" in user and prompt.meta["shot"] != (
                t.name if t.suite == "bundled" else None)
