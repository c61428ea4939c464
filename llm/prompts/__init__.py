"""Prompts: what a model is asked, as chat messages.

    from llm.prompts import kernel_prompt, repair_prompt
    prompt = kernel_prompt(task, style="npukernelbench")    # role, output rules, one shot, task, case, hardware
    prompt = kernel_prompt(task, style="multikernelbench")  # the shot from the task's own category
    prompt = repair_prompt(files, diagnostics)              # a kernel, its diagnostics as printed, "fix it"

The task's parts (description, one test case, the hardware block from the chip file, the answer format) are
the benchmark's own (`bench.suites.prompt.prompt_parts`), so a prompt shows a model exactly what the benchmark
shows; the one-shot example is a bundled task's reference solution written in the answer's form.
"""

from llm.prompts.builders import STYLES, SYSTEM, Prompt, kernel_prompt, repair_prompt, render_diagnostics
from llm.prompts.shots import shot_for

__all__ = ["STYLES", "SYSTEM", "Prompt", "kernel_prompt", "render_diagnostics", "repair_prompt", "shot_for"]
