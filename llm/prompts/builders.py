"""The prompt builders: kernel-writing prompts in two benchmark styles, and repair prompts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llm.prompts.answers import render_project

if TYPE_CHECKING:
    from bench.suites import Case, Task
    from frontend.diagnostics import Diagnostic

STYLES = ("npukernelbench", "multikernelbench")

SYSTEM = (
    "You are an expert AscendC kernel engineer for Huawei Ascend NPUs. You write kernels that build with the "
    "CANN toolchain and compute exactly what is asked: one TPipe, TQue buffers taken and given back in order "
    "(AllocTensor, EnQue, DeQue, FreeTensor), DataCopy lengths and UB offsets on the 32-byte grid, every core "
    "its own slice of global memory, the tail of the split handled, no C library calls in device code. "
    "Think the tiling through first (total length, cores, per-core share and remainder, tile length from the UB "
    "budget, buffer count), then write the answer in exactly the requested format.")

_RULES = {
    "project": ("Output rules: reason briefly first, then give the op project: its `<op>.json` description and its "
                "three source files, each under its `=== path ===` header line and in one fenced block. Nothing "
                "after the last block."),
    "multikernelbench": ("Output rules: reason briefly first, then give one ```python block that assigns the six "
                         "strings as plain string literals (no f-strings, no computed values). Nothing after it."),
}


@dataclass
class Prompt:
    """A prompt as chat messages, with what it was built from (for the sample records)."""

    messages: list[dict[str, str]]
    task: str = ""
    suite: str = ""
    style: str = ""
    form: str = ""
    case: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"messages": self.messages, "task": self.task, "suite": self.suite, "style": self.style,
                "form": self.form, "case": self.case, "meta": self.meta}


def kernel_prompt(task: Task, style: str = "npukernelbench", case: Case | None = None, shot: bool = True,
                  pool: tuple[Task, ...] | None = None) -> Prompt:
    """The prompt asking for `task`'s kernel.

    `npukernelbench`: role, output rules, a one-shot example, the task's description, one concrete test case and
    the hardware block; the answer is the op project's three files. `multikernelbench`: the same parts with
    MultiKernelBench's answer (six strings in a Python block) and the shot from the task's own category.
    """
    from bench.suites.prompt import prompt_parts
    from llm.prompts.shots import shot_for

    if style not in STYLES:
        raise ValueError(f"unknown prompt style '{style}' (styles: {', '.join(STYLES)})")
    form = "multikernelbench" if style == "multikernelbench" else "project"
    case = case or (task.cases[0] if task.cases else None)
    parts = prompt_parts(task, case, form)
    example = shot_for(task, form, pool) if shot else None
    sections = [_RULES[form]]
    if example is not None:
        label = "An example from the same category" if style == "multikernelbench" else "An example"
        sections.append(f"## {label}: {example.task}\n\n{example.prompt}\n\n### Its answer\n\n{example.answer}")
    level = f"level {task.level}, " if task.level is not None else ""
    sections += [f"## Task: {task.name} ({level}{task.category})\n\n{parts['description']}",
                 f"## Test case\n{parts['case']}", f"## Hardware\n{parts['hardware']}",
                 f"## Answer format\n{parts['format']}"]
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(sections)}]
    return Prompt(messages, task.name, task.suite, style, form, case.id if case is not None else "",
                  {"shot": example.task if example is not None else None, "category": task.category,
                   "level": task.level})


def render_diagnostics(diagnostics: Sequence[Diagnostic], files: Mapping[str, str]) -> str:
    """The diagnostics as `ascendc-check` prints them: `file:line:col: error: message [CODE]`, the source line
    and a caret, notes below."""
    from frontend.diagnostics import render_text

    split = {name: text.split("\n") for name, text in files.items()}

    def lookup(file: str, line: int) -> str | None:
        lines = split.get(str(file))
        if lines is None:
            lines = next((v for k, v in split.items() if str(file).endswith("/" + k) or k.endswith("/" + str(file))),
                         None)
        return lines[line - 1] if lines is not None and 0 < line <= len(lines) else None

    return "\n".join(render_text(d, lookup) for d in diagnostics)


def repair_prompt(files: Mapping[str, str], diagnostics: Sequence[Diagnostic], task: Task | None = None,
                  findings: Sequence[str] = (), findings_from: str = "Running it on the simulator") -> Prompt:
    """A prompt to fix a kernel: its files (an op project's, one source, or a MultiKernelBench answer `x.py`),
    what `ascendc-check` reports on it (rendered as the compiler prints it), findings of a run (already
    rendered lines: the simulator's, or a real build's or device's), and the request."""
    if any(rel.startswith(("op_host/", "op_kernel/")) for rel in files):
        shown = render_project(files)
        ask = "Fix the bugs. Answer with the corrected files, each under its `=== path ===` header in a ```cpp block."
        form = "project"
    elif len(files) == 1 and next(iter(files)).endswith(".py"):
        ((name, text),) = files.items()
        shown = f"`{name}`, a MultiKernelBench answer:\n```python\n{text.rstrip()}\n```"
        ask = ("Fix the bugs. Answer with the corrected answer: one ```python block assigning the six strings as "
               "plain string literals.")
        form = "multikernelbench"
    else:
        shown = "\n\n".join(f"`{name}`:\n```cpp\n{text.rstrip()}\n```" for name, text in files.items())
        ask = "Fix the bugs. Answer with the whole corrected source in one ```cpp block."
        form = "kernel"
    report = render_diagnostics(diagnostics, files)
    sections = []
    if task is not None:
        sections.append(f"The kernel is meant to implement task {task.name}:\n\n{task.description.strip()}")
    sections += [f"This AscendC code does not pass its checks.\n\n{shown}",
                 f"`ascendc-check` reports:\n\n```text\n{report}\n```" if report else "`ascendc-check` reports nothing."]
    if findings:
        sections.append(f"{findings_from} reports:\n\n```text\n" + "\n".join(findings) + "\n```")
    sections.append(ask)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(sections)}]
    return Prompt(messages, task.name if task else "", task.suite if task else "", "repair", form, "",
                  {"codes": sorted({d.code for d in diagnostics})})
