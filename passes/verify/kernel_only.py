"""Kernel-only answers and ops without an op json: what a launch with given shapes looks like.

NPUKernelBench's default answer form is the kernel alone (`<kernel_impl>` + a cpp block): its tiling values are
hard-coded in a local `TilingDataDef`, and the benchmark's fixed host launches it on every vector core of the
chip, with no tiling data. With `--shape`, such an answer is checked as that launch: blockDim = the chip's AIV
count, nothing else from a host (`launch`); shapes map to the kernel's GM parameters in order, or by parameter
name (`op_description`). A project without an op json (NPUKernelBench's answers, many vendor ops) names its
inputs and outputs in the host's OpDef: `op_description` reads them there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.host_eval import TilingInputs, TilingResult
    from frontend.pipeline import Program

# kernel parameters that are not op tensors
_NOT_TENSORS = ("workspace", "tiling", "usrworkspace", "userworkspace")


def is_kernel_only(program: Program) -> bool:
    """An NPUKernelBench kernel-only answer: read in that format, with a kernel and no host or tiling source."""
    bundle = program.bundle
    roles = {u.unit.role for u in program.units}
    return bundle.format == "npukernelbench" and not bundle.op_json and "kernel" in roles and \
        not roles & {"host", "tiling_header"}


def kernel_tensor_params(program: Program) -> list[str]:
    """The names of the kernel entry's GM parameters that are op tensors (not workspace or tiling), in order."""
    for unit in program.units:
        if unit.unit.role != "kernel" or unit.ast is None:
            continue
        for node in unit.ast.walk():
            if isinstance(node, A.FunctionDecl) and node.is_kernel and node.body is not None:
                return [p.name for p in node.params if p.name and p.name.lower() not in _NOT_TENSORS]
    return []


def op_description(program: Program) -> dict[str, Any] | None:
    """The op's description (`{"op", "input_desc": [{"name"}...], "output_desc": [...]}`): the op json's, else
    the one the host's OpDef declares, else for a kernel-only answer its GM parameters, all listed as inputs
    (which of them the kernel writes is what the coverage rules look at); None when nothing says."""
    if program.bundle.op_json:
        return program.bundle.op_json[0]
    from frontend.opdef import op_descriptions

    described = op_descriptions(program.bundle)
    if described:
        return described[0]
    if is_kernel_only(program):
        params = kernel_tensor_params(program)
        if params:
            return {"op": "", "input_desc": [{"name": p} for p in params], "output_desc": [], "kernel_only": True}
    return None


def launch(program: Program, shapes: TilingInputs, chip: str) -> TilingResult | None:
    """The launch of a kernel-only answer for `shapes`: every vector core of `chip`, no tiling data, no tiling
    key (NPUKernelBench's fixed host). None for any other program."""
    if not is_kernel_only(program):
        return None
    from ascendir.chips import load_chip
    from ascendir.host_eval import GRAPH_SUCCESS, TilingResult

    name = shapes.chip if isinstance(shapes.chip, str) else str(shapes.chip.get("name", chip))
    cores = load_chip(name).aiv_cores
    if not isinstance(shapes.chip, str) and "aiv_cores" in shapes.chip:
        cores = int(shapes.chip["aiv_cores"])
    return TilingResult(GRAPH_SUCCESS, cores, None, {}, {}, [
        f"kernel-only answer: launched as NPUKernelBench's host launches it, on all {cores} vector cores, with its "
        "own TilingDataDef values"], inputs=shapes)
