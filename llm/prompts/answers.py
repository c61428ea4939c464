"""A solution's files written as an answer in each form a benchmark accepts, and read back.

The forms are those bench/harness/stages/extract.py reads: `project` (NPUKernelBench's three files under
`=== op_host/<k>_tiling.h ===` headers, each in a ```cpp block) and `multikernelbench` (one ```python block
assigning six string literals). The dataset's targets and the prompts' one-shot examples are written here, so
that what a model learns to write is exactly what the harness extracts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

SOURCE_SUFFIXES = (".cpp", ".h", ".hpp", ".cc", ".asc", ".json")
FORMS = ("project", "multikernelbench")


def project_files(folder: str | Path) -> dict[str, str]:
    """An op project's files by path relative to its folder: the op json and everything under op_host/ and
    op_kernel/ (build files, tests and docs left out)."""
    root = Path(folder)
    files = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or not path.name.endswith(SOURCE_SUFFIXES) or path.name.startswith("CMake"):
            continue
        if rel.startswith(("op_host/", "op_kernel/")) or ("/" not in rel and rel.endswith(".json")):
            files[rel] = path.read_text(encoding="utf-8", errors="replace")
    return files


def _kernel_name(files: Mapping[str, str]) -> str:
    kernels = sorted(rel for rel in files if rel.startswith("op_kernel/") and rel.endswith((".cpp", ".asc")))
    if not kernels:
        raise ValueError("the project has no op_kernel/ source")
    return Path(kernels[0]).stem


def render_project(files: Mapping[str, str]) -> str:
    """The project's op description (json), host tiling header, host source and kernel(s) as `=== path ===`
    sections. The json binds each DTYPE_<NAME> macro to the dtypes the op takes: without it a checker has to
    guess the kernel's element types."""
    order = sorted((rel for rel in files if rel.startswith(("op_host/", "op_kernel/"))
                    or ("/" not in rel and rel.endswith(".json"))),
                   key=lambda r: (not r.endswith(".json"), not r.endswith("_tiling.h"), not r.startswith("op_host/"), r))
    parts = []
    for rel in order:
        fence = "json" if rel.endswith(".json") else "cpp"
        parts.append(f"=== {rel} ===\n```{fence}\n{files[rel].rstrip()}\n```")
    return "\n\n".join(parts) + "\n"


def _python_literal(text: str) -> str:
    """`text` as a triple-quoted Python literal that evaluates back to it exactly."""
    if "'''" not in text and not text.endswith("'") and "\\" not in text:
        return f"'''{text}'''"
    if '"""' not in text and not text.endswith('"') and "\\" not in text:
        return f'"""{text}"""'
    return json.dumps(text)  # a JSON string is also a valid Python string literal


def binding_source(op_type: str, kernel: str, inputs: Sequence[str], outputs: Sequence[tuple[str, str | None]],
                   attrs: Sequence[tuple[str, str]]) -> str:
    """A PyTorch binding that calls the op through EXEC_NPU_CMD. `outputs`: (name, the input whose shape it
    takes, or None for a shape the caller passes as `<name>_shape`); `attrs`: (name, C++ type)."""
    params = [f"const at::Tensor& {n}" for n in inputs] + [f"{t} {n}" for n, t in attrs]
    params += [f"at::IntArrayRef {n}_shape" for n, like in outputs if like is None]
    first = inputs[0] if inputs else None
    body = []
    for name, like in outputs:
        if like is not None:
            body.append(f"    at::Tensor {name} = at::empty_like({like});")
        else:
            options = f", {first}.options()" if first else ""
            body.append(f"    at::Tensor {name} = at::empty({name}_shape{options});")
    args = ", ".join([*inputs, *(n for n, _ in attrs), *(n for n, _ in outputs)])
    returns = outputs[0][0] if len(outputs) == 1 else "{" + ", ".join(n for n, _ in outputs) + "}"
    result_type = "at::Tensor" if len(outputs) == 1 else f"std::tuple<{', '.join(['at::Tensor'] * len(outputs))}>"
    return "\n".join([
        "#include <torch/library.h>", "#include <torch/extension.h>", '#include "pytorch_npu_helper.hpp"', "",
        f"{result_type} {kernel}_impl_npu({', '.join(params)})", "{", *body,
        f"    EXEC_NPU_CMD(aclnn{op_type}, {args});", f"    return {returns};", "}", "",
        "TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {", f'    m.impl("{kernel}", &{kernel}_impl_npu);', "}", "",
        "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {", f'    m.def("{kernel}", &{kernel}_impl_npu, "{op_type}");', "}",
    ]) + "\n"


def model_source(kernel: str, inputs: Sequence[str], attrs: Sequence[str]) -> str:
    """MultiKernelBench's ModelNew: forwards its inputs (and attributes) to the custom op."""
    init_args = "".join(f", {a}" for a in attrs)
    stores = "".join(f"\n        self.{a} = {a}" for a in attrs)
    call = ", ".join([*inputs, *(f"self.{a}" for a in attrs)])
    return (f"import torch\nimport torch_npu\nimport custom_ops_lib\n\n\nclass ModelNew(torch.nn.Module):\n"
            f"    def __init__(self{init_args}) -> None:\n        super().__init__(){stores}\n\n"
            f"    def forward(self, {', '.join(inputs)}):\n        return custom_ops_lib.{kernel}({call})\n")


_CPP_ATTR_TYPES = {"float": "double", "int": "int64_t", "bool": "bool", "list_int": "at::IntArrayRef",
                   "list_float": "at::ArrayRef<double>", "str": "std::string"}


def render_multikernelbench(files: Mapping[str, str], op_type: str, inputs: Sequence[str],
                            outputs: Sequence[tuple[str, str | None]], attrs: Sequence[tuple[str, str]] = ()) -> str:
    """The project as one ```python block assigning MultiKernelBench's six strings. `attrs`: (name, type as a
    task declares it: float, int, bool, list_int, list_float)."""
    kernel = _kernel_name(files)
    json_src = next((text for rel, text in files.items() if rel.endswith(".json") and "/" not in rel), None)
    tiling = next((text for rel, text in files.items() if rel.startswith("op_host/") and rel.endswith("_tiling.h")),
                  None)
    host = next((text for rel, text in files.items() if rel == f"op_host/{kernel}.cpp"), None)
    kernel_src = files.get(f"op_kernel/{kernel}.cpp")
    if None in (json_src, tiling, host, kernel_src):
        raise ValueError(f"the project lacks one of {kernel}.json, op_host/{kernel}_tiling.h, op_host/{kernel}.cpp, "
                         f"op_kernel/{kernel}.cpp")
    cpp_attrs = [(n, _CPP_ATTR_TYPES.get(t, "double")) for n, t in attrs]
    fields = {
        "project_json_src": json_src, "host_tiling_src": tiling, "host_operator_src": host,
        "kernel_src": kernel_src,
        "python_bind_src": binding_source(op_type, kernel, inputs, outputs, cpp_attrs),
        "model_src": model_source(kernel, inputs, [n for n, _ in attrs]),
    }
    body = "\n\n".join(f"{name} = {_python_literal(str(text))}" for name, text in fields.items())
    return f"```python\n{body}\n```\n"


_SECTION = re.compile(r"^[ \t]*={3,}[ \t]*([\w./-]+)[ \t]*={3,}[ \t]*$", re.M)
_FENCE = re.compile(r"```[\w+-]*[^\n]*\n(.*?)^[ \t]*```", re.S | re.M)


def project_sections(answer: str) -> dict[str, str]:
    """The `=== path ===` sections of a project-form answer, by path (the code of each section's fence)."""
    found = {}
    sections = list(_SECTION.finditer(answer))
    for k, m in enumerate(sections):
        end = sections[k + 1].start() if k + 1 < len(sections) else len(answer)
        fence = _FENCE.search(answer, m.end(), end)
        if fence is not None:
            found[m.group(1)] = fence.group(1).rstrip("\n") + "\n"
    return found
