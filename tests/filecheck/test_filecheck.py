"""FileCheck tests: every `.cpp`, `.asc` and `.mlir` file under tests/filecheck/ is one test.

A test file states how it runs in `// RUN:` lines, in the lit dialect xDSL and MLIR use:

    // RUN: ascendir-opt %s --passes cse | filecheck %s
    // RUN: not ascendir-opt %s 2>&1 | filecheck %s --check-prefix ERR

`%s` is the test file, `not` expects a non-zero exit, `2>&1` sends stderr into the checked text, and
the part after `|` is the `filecheck` command line. `ascendir-opt` runs in this process (a fresh
interpreter per file would cost about a second); `filecheck` runs as its own command.
"""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from cli import opt

HERE = Path(__file__).resolve().parent
SUFFIXES = (".cpp", ".asc", ".mlir")
TESTS = sorted(p for p in HERE.rglob("*") if p.suffix in SUFFIXES)
RUN_LINE = re.compile(r"\s*//\s*RUN:(.*)")


@dataclass
class RunLine:
    text: str
    opt_args: list[str]
    expect_failure: bool
    merge_stderr: bool
    filecheck_args: list[str] | None  # None: no `| filecheck ...`, only the exit status is checked


def run_lines(path: Path) -> list[RunLine]:
    """The file's `RUN:` commands; a line ending in a backslash continues on the next `RUN:` line."""
    commands: list[str] = []
    pending = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        found = RUN_LINE.match(line)
        if not found:
            continue
        pending += found.group(1).strip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
        else:
            commands.append(pending)
            pending = ""
    return [parse_run_line(c, path) for c in commands]


def parse_run_line(text: str, path: Path) -> RunLine:
    stages = [shlex.split(stage.replace("%s", shlex.quote(str(path)))) for stage in text.split("|")]
    if len(stages) > 2:
        raise ValueError(f"RUN: at most one pipe, into filecheck: {text}")
    opt_stage = stages[0]
    expect_failure = opt_stage[:1] == ["not"]
    if expect_failure:
        opt_stage = opt_stage[1:]
    merge_stderr = "2>&1" in opt_stage
    opt_stage = [arg for arg in opt_stage if arg != "2>&1"]
    if opt_stage[:1] != ["ascendir-opt"]:
        raise ValueError(f"RUN: the command must be ascendir-opt: {text}")
    filecheck_args = None
    if len(stages) == 2:
        if stages[1][:1] != ["filecheck"]:
            raise ValueError(f"RUN: the pipe must go into filecheck: {text}")
        filecheck_args = stages[1][1:]
    return RunLine(text, opt_stage[1:], expect_failure, merge_stderr, filecheck_args)


def run_opt(args: list[str], merge_stderr: bool) -> tuple[int, str, str]:
    """`ascendir-opt ARGS` in this process: (exit status, stdout, stderr)."""
    out = io.StringIO()
    err = out if merge_stderr else io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            opt.main.main(args, prog_name="ascendir-opt", standalone_mode=False)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except click.ClickException as exc:
            exc.show()
            code = exc.exit_code
    return code, out.getvalue(), "" if merge_stderr else err.getvalue()


@pytest.mark.parametrize("path", TESTS, ids=lambda p: p.relative_to(HERE).as_posix())
def test_filecheck(path: Path) -> None:
    runs = run_lines(path)
    assert runs, f"{path} has no RUN: line"
    for run in runs:
        code, stdout, stderr = run_opt(run.opt_args, run.merge_stderr)
        shown = (
            f"RUN: {run.text}\n--- ascendir-opt exit {code}, stdout ---\n{stdout}\n--- stderr ---\n{stderr}"
        )
        if run.expect_failure != (code != 0):
            pytest.fail(
                f"ascendir-opt {'succeeded' if code == 0 else 'failed'} unexpectedly\n{shown}", pytrace=False
            )
        if run.filecheck_args is None:
            continue
        check = subprocess.run(
            [sys.executable, "-m", "filecheck", *run.filecheck_args],
            input=stdout,
            capture_output=True,
            text=True,
            check=False,
        )
        if check.returncode != 0:
            pytest.fail(f"filecheck failed:\n{check.stdout}{check.stderr}\n{shown}", pytrace=False)
