"""Op-project bugs: edits that break the agreement between the host files and the kernel."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from passes.mutate.lines import code_lines, replaced
from passes.mutate.model import ProjectOperator, ProjectSite

_FIELD_DEF = re.compile(r"TILING_DATA_FIELD_DEF(?:_ARR|_STRUCT)?\s*\(\s*[\w:]+\s*,\s*(?:[^,()]+,\s*)?(\w+)\s*\)")
_SET_BLOCK_DIM = re.compile(r"^\s*[\w.\->]+(\.|->)SetBlockDim\s*\([^;]*\)\s*;\s*(//.*)?$")
_REGISTER = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,")
_FIELD_SET = re.compile(r"^\s*[\w.\->]+(?:\.|->)set_(\w+)\s*\([^;]*\)\s*;\s*(//.*)?$")

Files = dict[str, list[str]]


def _project_fields(files: Files) -> set[str]:
    return {m.group(1) for rel, lines in files.items() if rel.startswith("op_host/")
            for m in _FIELD_DEF.finditer("\n".join(lines))}


def host_files(files: Files) -> Iterator[tuple[str, list[str]]]:
    return ((rel, lines) for rel, lines in files.items() if rel.startswith("op_host/"))


def kernel_files(files: Files) -> Iterator[tuple[str, list[str]]]:
    return ((rel, lines) for rel, lines in files.items() if rel.startswith("op_kernel/"))


def _drop_set_block_dim(files: Files) -> Iterator[ProjectSite]:
    for rel, lines in host_files(files):
        for i in code_lines(lines):
            if _SET_BLOCK_DIM.match(lines[i]):
                yield rel, i, replaced(lines, i, [])


def _register_other_op(files: Files) -> Iterator[ProjectSite]:
    for rel, lines in host_files(files):
        for i in code_lines(lines):
            match = _REGISTER.search(lines[i])
            if match:
                yield rel, i, replaced(lines, i, lines[i][:match.start(1)] + match.group(1) + "Other"
                                       + lines[i][match.end(1):])


def _field_typo(side: Callable[[Files], Iterator[tuple[str, list[str]]]], pattern: str
                ) -> Callable[[Files], Iterator[ProjectSite]]:
    """A use of a tiling field (`td.tileNum` in the kernel, `tiling.set_tileNum(` on the host) misspelt."""
    def sites(files: Files) -> Iterator[ProjectSite]:
        fields = _project_fields(files)
        for rel, lines in side(files):
            for i in code_lines(lines):
                for match in re.finditer(pattern, lines[i]):
                    if match.group(1) in fields:
                        yield rel, i, replaced(lines, i, lines[i][:match.end(1)] + "Typo" + lines[i][match.end(1):])
                        break
    return sites


def _drop_field_set(files: Files) -> Iterator[ProjectSite]:
    """Delete the host's `tiling.set_X(...);` of a field X the kernel reads."""
    kernel_text = "\n".join("\n".join(lines) for _, lines in kernel_files(files))
    for rel, lines in host_files(files):
        for i in code_lines(lines):
            match = _FIELD_SET.match(lines[i])
            if match and re.search(rf"\.\s*{re.escape(match.group(1))}\b", kernel_text):
                yield rel, i, replaced(lines, i, [])


PROJECT_OPERATORS = [
    ProjectOperator("drop-set-block-dim", ("ASC906",), "the host's SetBlockDim statement deleted", _drop_set_block_dim,
                    "host_api_misuse", "the tiling function must call SetBlockDim with the number of cores it "
                    "split the work over"),
    ProjectOperator("register-other-op", ("ASC802",), "REGISTER_TILING_DATA_CLASS names another operator",
                    _register_other_op, "project_interface_consistency",
                    "register the tiling data class under the operator's own OpType"),
    ProjectOperator("kernel-field-typo", ("ASC803",), "a tiling field the kernel reads, misspelt",
                    _field_typo(kernel_files, r"\.\s*(\w+)\b(?!\s*\()"), "project_interface_consistency",
                    "read the tiling fields under the names the tiling definition declares"),
    ProjectOperator("host-field-typo", ("ASC803",), "a tiling field the host sets, misspelt",
                    _field_typo(host_files, r"\bset_(\w+)\s*\("), "project_interface_consistency",
                    "set the tiling fields under the names the tiling definition declares"),
    ProjectOperator("drop-field-set", ("ASC804",), "the host's set_X of a field the kernel reads deleted",
                    _drop_field_set, "host_tiling_invalid",
                    "set every tiling field the kernel reads in the host tiling function"),
]
