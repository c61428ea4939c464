"""Stage 1, extract: the answer read into the sources to build, or a response-format failure with a reason.

Forms (the `form` of a verdict):
  project                an op project folder (op_host/, op_kernel/; for MultiKernelBench, model_src.py beside them
                         holds ModelNew)
  npukernelbench         NPUKernelBench's three-file form (`=== op_host/<k>_tiling.h ===` ...)
  npukernelbench-kernel  NPUKernelBench's kernel-only form (`<kernel_impl>` + ```cpp); built with the task's fixed
                         host side (its question/op_host/<k>.cpp), which launches on all vector cores
  multikernelbench       one ```python block assigning six strings (read with `ast`, never run)
  kernel                 a bare kernel source (.cpp): launched on all vector cores, no host tiling
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness.answers import Answer
from bench.suites import Task
from frontend.readers import Bundle, SourceUnit, detect_format, read_input, read_text

READER_CODES = ("ASC010", "ASC011", "ASC012", "ASC013")
MODEL_SRC = "model_src.py"  # an op project folder's ModelNew (a MultiKernelBench answer written as files)
_KERNEL_ENTRY_RE = re.compile(r"__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(|"
                              r"__aicore__\s+__global__\s+void\s+(\w+)\s*\(")


@dataclass
class Extracted:
    bundle: Bundle | None
    form: str
    problem: str = ""  # a response-format failure: why the answer cannot be built
    notes: list[str] = field(default_factory=list)
    # a MultiKernelBench answer's ModelNew hands its forward arguments to the op unchanged (then the reference's
    # inputs are the op's); False when it passes weights or converts them first (answer code, never run)
    passes_inputs: bool | None = None
    # ModelNew's source: a multikernelbench answer's `model_src`, an op project folder's model_src.py (what the
    # correctness stage reads the op's inputs from: bench/harness/model_task.py)
    model_src: str | None = None

    @property
    def ok(self) -> bool:
        return self.bundle is not None and not self.problem


def extract(task: Task, answer: Answer) -> Extracted:
    """Read `answer` for `task`; never raises on a bad answer."""
    path = Path(answer.path)
    if path.is_dir():
        bundle = read_input(str(path), "project")
        extracted = _checked(bundle, "project", task)
        # MultiKernelBench's model_src beside the op's sources: an answer's six strings split into files
        extracted.model_src, _ = read_text(str(path / MODEL_SRC)) if (path / MODEL_SRC).is_file() else (None, None)
        return extracted
    text, problem = read_text(str(path))
    if text is None:
        return Extracted(None, "", problem.message if problem else f"cannot read {path}")
    fmt = detect_format(str(path), text)
    if fmt == "npukernelbench":
        bundle = read_input(str(path), "npukernelbench")
        full = any(u.role == "host" for u in bundle.units) or bool(bundle.virtual_files)
        if full:
            return _checked(bundle, "npukernelbench", task)
        return _kernel_only(bundle, "npukernelbench-kernel", task)
    if fmt == "multikernelbench":
        extracted = _checked(read_input(str(path), "multikernelbench"), "multikernelbench", task)
        extracted.passes_inputs = model_passes_inputs(text)
        extracted.model_src = model_src_of(text)
        return extracted
    if fmt == "cpp" and path.suffix.lower() in (".md", ".txt", ".answer"):
        return Extracted(None, "", "no answer in a known format: no <kernel_impl> section, no === op_host/... === "
                                   "sections, no ```python block assigning kernel_src")
    return _kernel_only(read_input(str(path), "cpp"), "kernel", task)


def _reader_problem(bundle: Bundle) -> str:
    errors = [d for d in bundle.diagnostics if d.is_error and d.code in READER_CODES]
    if not errors:
        return ""
    d = errors[0]
    where = f" (line {d.span.line})" if d.span is not None else ""
    return f"{d.message}{where} [{d.code}]"


def _checked(bundle: Bundle, form: str, task: Task) -> Extracted:
    problem = _reader_problem(bundle)
    if problem:
        return Extracted(None, form, problem)
    roles = {u.role for u in bundle.units}
    if "kernel" not in roles:
        return Extracted(None, form, "the answer has no kernel source (op_kernel/...)")
    if form in ("npukernelbench", "project") and "host" not in roles:
        return Extracted(None, form, f"the answer has no host source (op_host/{task.kernel_name}.cpp with the "
                                     "tiling function and the OpDef)")
    return Extracted(bundle, form)


def _kernel_only(bundle: Bundle, form: str, task: Task) -> Extracted:
    """A kernel without host code: the task's fixed host side is added where the suite has one."""
    problem = _reader_problem(bundle)
    if problem:
        return Extracted(None, form, problem)
    if not any(u.role == "kernel" for u in bundle.units):
        return Extracted(None, form, "the answer's code block holds no kernel (__global__ __aicore__ function)")
    if task.kernel_only_host:
        host_path = Path(task.kernel_only_host)
        try:
            host_text = host_path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            return Extracted(None, form, f"the task's fixed host side cannot be read: {exc}")
        virtual = f"op_host/{host_path.name}"
        bundle.units.append(SourceUnit(virtual, host_text, "host", str(host_path)))
        bundle.virtual_files[virtual] = host_text
        bundle.texts.setdefault(str(host_path), host_text)
        return Extracted(bundle, form, notes=[f"built with the task's fixed host side {host_path.name}"])
    return Extracted(bundle, form, notes=["no host side: launched on all vector cores with no tiling data"])


def kernel_entries(bundle: Bundle) -> list[str]:
    """The names of the kernel entry functions the answer's kernel sources define (a text scan)."""
    names: list[str] = []
    for unit in bundle.units:
        if unit.role != "kernel":
            continue
        for m in _KERNEL_ENTRY_RE.finditer(unit.text):
            name = m.group(1) or m.group(2)
            if name not in names:
                names.append(name)
    return names


def model_src_of(answer: str) -> str | None:
    """The `model_src` string of a MultiKernelBench answer (read with `ast`, never run), or None."""
    import ast

    fences = re.findall(r"```(?:python|py)[^\n]*\n(.*?)```", answer, re.S)
    code = next((f for f in reversed(fences) if "model_src" in f), answer)
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return next((n.value.value for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "model_src"
                 and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)), None)


def model_passes_inputs(answer: str) -> bool | None:
    """Whether a MultiKernelBench answer's `model_src` has ModelNew.forward return the custom op called on its own
    arguments, unchanged and in order (read with `ast`, never run); None when model_src cannot be read."""
    import ast

    model = model_src_of(answer)
    if model is None:
        return None
    try:
        mtree = ast.parse(model)
    except (SyntaxError, ValueError, RecursionError):
        return None
    for cls in (n for n in mtree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"):
            params = [a.arg for a in fn.args.args[1:]]
            body = [n for n in fn.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
            if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
                return False
            args = body[0].value.args
            return len(args) == len(params) and [a.id for a in args if isinstance(a, ast.Name)] == params
    return None
