"""The second way sim_realworld.py counts a failing attempt as caught: a simulator error at the line its fix changed.

The strict count (sim_realworld.summarise) takes an attempt as caught when it fails here at run time and its
operator's final runs correct here: where the final fails too, the setup (inputs, host tiling, a binding) may be
what fails. That leaves out attempts whose own defect the simulator reports although the final does not run
correct here for another reason (cumsum_exclusive's final computes a (128, 4000) result where the reference
program's output is (127, 4001)). The second count also takes an attempt when

- the simulator reports an error finding (not the instruction budget, not 'not modelled', with a source line) on
  a line of the attempt that the record's attempt-to-final diff removes or changes: the defect the fix removed,
  not the harness's setup;
- the final runs here to its comparison (judged), without an error finding of that code on a line of that text.

A finding on a line the fix kept (a DataCopy that overflows because the harness fed other sizes) does not count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# findings that say the run stopped, not what is wrong with the kernel
NOT_DEFECTS = {"ASC957", "ASC958"}


def removed_lines(diff: str | None) -> set[str]:
    """The attempt's lines the fix removed or changed: the '-' lines of the attempt-to-final diff, stripped."""
    return {line[1:].strip() for line in (diff or "").splitlines()
            if line.startswith("-") and not line.startswith("---") and line[1:].strip()}


def _line_text(path: str, line: int, cache: dict[str, list[str]]) -> str:
    if path not in cache:
        try:
            cache[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def error_findings(verdict: Any) -> list[list[str]]:
    """[code, source line text] of the simulator's error findings with a line, over the verdict's cases."""
    cache: dict[str, list[str]] = {}
    found: list[list[str]] = []
    for case in verdict.cases:
        for f in case.sim_findings or []:
            if f.severity != "error" or f.code in NOT_DEFECTS or not f.file or f.line <= 0:
                continue
            item = [f.code, _line_text(f.file, f.line, cache)]
            if item[1] and item not in found:
                found.append(item)
    return found


def at_fixed_lines(findings: list[list[str]], diff: str | None) -> list[list[str]]:
    """The findings on lines the record's fix removed or changed."""
    removed = removed_lines(diff)
    return [f for f in findings if f[1] in removed]


def caught_at_defect(attempt: dict[str, Any], final: dict[str, Any] | None) -> list[str] | None:
    """The [code, line] that catches `attempt` by the second rule, or None."""
    if final is None or not final.get("judged") or attempt.get("stage") == "compile":
        return None
    in_final = {tuple(f) for f in final.get("findings") or []}
    return next((f for f in attempt.get("at_fix") or [] if tuple(f) not in in_final), None)
