"""What a model is shown for a task (`ascendir bench --task NAME --show`).

The same three parts the public benchmarks give: the task's description (NPUKernelBench's api_desc.md, a
bundled task's description, a MultiKernelBench reference program), one concrete test case, and the hardware;
then the answer format the suite expects. llm/ builds its prompts from these parts (`prompt_parts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.suites.model import Case, Task

ANSWER_FORMATS = {
    "project": (
        "Answer with the three files of an msopgen op project, each under a header line and in a ```cpp block:\n"
        "=== op_host/{k}_tiling.h === (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS)\n"
        "=== op_host/{k}.cpp === (TilingFunc, InferShape, the OpDef class {op})\n"
        "=== op_kernel/{k}.cpp === (extern \"C\" __global__ __aicore__ void {k}(GM_ADDR ..., GM_ADDR workspace, "
        "GM_ADDR tiling))"),
    "npukernelbench": (
        "Write only the kernel source, inside <kernel_impl> followed by a ```cpp block and </kernel_impl>. "
        "The host side is fixed: it launches `{k}(GM_ADDR ..., GM_ADDR workspace)` on all {aiv} vector cores. "
        "Do not use GET_TILING_DATA; hard-code the tiling values for this test case in a local "
        "`struct TilingDataDef` inside the kernel. Reasoning may come before the tag."),
    "multikernelbench": (
        "Answer with one ```python block that assigns six string literals: project_json_src, host_tiling_src, "
        "host_operator_src, kernel_src, python_bind_src and model_src. The op is {op}; its kernel entry is "
        "`{k}(GM_ADDR ..., GM_ADDR workspace, GM_ADDR tiling)`."),
}


def hardware_block(chip_name: str) -> str:
    """The hardware facts a model is told (core counts, memory sizes), from the chip file."""
    from ascendir.chips import load_chip

    chip = load_chip(chip_name)
    return (f"Hardware: {chip.soc_version} ({chip.name}): {chip.aic_cores} AIC (cube) cores, {chip.aiv_cores} AIV "
            f"(vector) cores; per core UB {chip.ub_size} bytes, L1 {chip.l1_size} bytes, L0A {chip.l0a_size}, "
            f"L0B {chip.l0b_size}, L0C {chip.l0c_size} bytes; UB start addresses and DataCopy lengths are "
            f"32-byte aligned.")


def prompt_parts(task: Task, case: Case | None = None, form: str | None = None) -> dict[str, str]:
    """The parts of the prompt by name: description, case, hardware, format."""
    from ascendir.chips import load_chip

    case = case or (task.cases[0] if task.cases else None)
    form = form or task.answer_forms[0]
    aiv = load_chip(task.chip).aiv_cores
    template = ANSWER_FORMATS.get(form, ANSWER_FORMATS["project"])
    return {
        "description": task.description.strip(),
        "case": (f"Test case {case.id}: {case.describe()}" if case is not None else "No test case."),
        "hardware": hardware_block(task.chip),
        "format": template.format(k=task.kernel_name, op=task.op_type, aiv=aiv),
    }


def task_prompt(task: Task, case: Case | None = None, form: str | None = None) -> str:
    parts = prompt_parts(task, case, form)
    level = f"level {task.level}, " if task.level is not None else ""
    return (f"# Task {task.name} ({task.suite}, {level}{task.category})\n\n{parts['description']}\n\n"
            f"## Test case\n{parts['case']}\n\n## Hardware\n{parts['hardware']}\n\n## Answer format\n"
            f"{parts['format']}\n")
