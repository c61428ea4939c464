"""Input readers: what the user handed us, split into the C++ sources to parse.

Formats (auto-detected, or forced with `--format`):
  cpp               one .cpp/.asc/.h file
  project           an msopgen op project folder (op json, op_host/, op_kernel/)
  npukernelbench    an NPUKernelBench answer: reasoning, then `<kernel_impl>` with a fenced cpp block
                    (kernel only), or the three-file form with `=== op_host/<k>_tiling.h ===` sections
  multikernelbench  a MultiKernelBench answer: one fenced Python block assigning six strings, read with
                    `ast` (never executed)

A source embedded in an answer keeps its place in the answer file (line and column offsets), so every
diagnostic points at the line the user sees. Reader problems are diagnostics [ASC010-ASC013].
"""

from __future__ import annotations

import ast as pyast
import functools
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from frontend.diagnostics import Diagnostic, Note, Span, error, warning
from frontend.includes import CompileFlags
from frontend.op_build_deps import dependency_tiling_sources

FORMATS = ("auto", "cpp", "project", "npukernelbench", "multikernelbench")
HEADER_SUFFIXES = (".h", ".hpp", ".hh")
SOURCE_SUFFIXES = (".cpp", ".asc", ".cc", ".cxx", ".c", *HEADER_SUFFIXES)
ANSWER_SUFFIXES = (".md", ".txt", ".py", ".json", ".answer")
UNREADABLE = "ASC010"  # a file or folder that cannot be read, or is not any known format
NO_CODE = "ASC011"  # an answer without the code block or strings its format requires
NOT_A_LITERAL = "ASC012"  # a MultiKernelBench field that is not a plain string literal
BAD_OP_JSON = "ASC013"  # the op description JSON does not parse or lacks its fields
MULTIKERNELBENCH_FIELDS = ("project_json_src", "host_tiling_src", "host_operator_src", "kernel_src",
                           "python_bind_src", "model_src")


@dataclass
class SourceUnit:
    """One C++ text to preprocess and parse.

    `path` is the name the preprocessor sees (real path, or a project-relative virtual path for embedded
    sources such as `op_kernel/add_custom.cpp`); `file` is where diagnostics point (the real file holding
    the text) and `line_offset`/`col_offset` place the text inside it.
    """

    path: str
    text: str
    role: str  # 'kernel', 'host', 'tiling_header', 'header', 'python_bind'
    file: str
    line_offset: int = 0
    col_offset: int = 0

    @property
    def embedded(self) -> bool:
        return self.path != self.file or self.line_offset != 0 or self.col_offset != 0


@dataclass
class Bundle:
    """Everything read from one input: its sources, the op description, and reader diagnostics."""

    input: str
    format: str
    units: list[SourceUnit] = field(default_factory=list)
    op_json: list[dict[str, object]] | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Virtual files an embedded source may #include by relative path (op_host/x_tiling.h ...).
    virtual_files: dict[str, str] = field(default_factory=dict)
    # Texts of the real files read, for rendering source lines under diagnostics.
    texts: dict[str, str] = field(default_factory=dict)
    # Compile settings (include folders, macros, forced includes: frontend.includes): `flags` from the command
    # line and the pyproject table for every source, after those a compile_commands.json gives a source
    # (`unit_flags`, by unit path).
    flags: CompileFlags = field(default_factory=CompileFlags)
    unit_flags: dict[str, CompileFlags] = field(default_factory=dict)
    # Sources the build puts before a kernel file read on its own, parsed but not checked: the op_host headers
    # registering the tiling struct its GET_TILING_DATA reads (frontend/op_tiling.py).
    context_units: list[SourceUnit] = field(default_factory=list)

    def flags_for(self, path: str) -> CompileFlags:
        """The settings a source of this bundle is preprocessed with: its database entry's, then the bundle's."""
        own = self.unit_flags.get(path)
        return own.then(self.flags) if own is not None else self.flags

    @property
    def op_name(self) -> str | None:
        if self.op_json:
            op = self.op_json[0].get("op")
            return str(op) if op else None
        return None


def in_op_host(path: str) -> bool:
    """Whether `path` lies in an op project's op_host folder (host code, built by the host compiler)."""
    return "op_host" in path.replace(os.sep, "/").split("/")


def sibling_op_host(path: str) -> str | None:
    """`<project>/op_host` for a file under `<project>/op_kernel/`, when that folder exists: where the op's
    definition (OpDef, the SoCs it builds for) lives when a kernel file is checked on its own."""
    parts = os.path.abspath(path).split(os.sep)
    if "op_kernel" not in parts[:-1]:
        return None
    at = len(parts) - 2 - parts[-2::-1].index("op_kernel")
    host = os.sep.join([*parts[:at], "op_host"])
    return host if os.path.isdir(host) else None


# the op_host sources read for one kernel file checked alone: an op project's host folder holds a handful
_MAX_HOST_FILES = 64
_MAX_HOST_BYTES = 4_000_000


@functools.lru_cache(maxsize=64)
def op_host_sources(host: str) -> tuple[tuple[str, str], ...]:
    """(file name, text) of the C++ sources in an op project's op_host folder (from `sibling_op_host`), read
    once per folder for all that ask (the chip its `*_def.cpp` builds for, the dtypes of its OpDef). At most
    64 files and 4 MB, definitions (`*_def.cpp`) first; unreadable ones are left out."""
    try:
        names = sorted(n for n in os.listdir(host) if n.endswith((".cpp", ".cc")))
    except OSError:
        return ()
    names.sort(key=lambda n: not n.endswith("_def.cpp"))  # stable: alphabetical within each group
    out: list[tuple[str, str]] = []
    total = 0
    for name in names[:_MAX_HOST_FILES]:
        try:
            with open(os.path.join(host, name), encoding="utf-8", errors="replace") as fh:
                text = fh.read(_MAX_HOST_BYTES - total)
        except OSError:
            continue
        total += len(text)
        out.append((name, text))
        if total >= _MAX_HOST_BYTES:
            break
    return tuple(out)


def classify_source(text: str, path: str) -> str:
    lowered = path.replace("\\", "/").lower()
    if "__aicore__" in text or "__global__" in text or "/op_kernel/" in f"/{lowered}":
        return "kernel"
    if "BEGIN_TILING_DATA_DEF" in text or lowered.endswith("_tiling.h"):
        return "tiling_header"
    if lowered.endswith(HEADER_SUFFIXES):
        return "header"
    if "PYBIND11_MODULE" in text or "TORCH_LIBRARY" in text:
        return "python_bind"
    return "host"


def read_text(path: str) -> tuple[str | None, Diagnostic | None]:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return None, error(UNREADABLE, f"cannot read '{path}': {exc.strerror or exc}", None)
    if b"\0" in data[:4096]:
        return None, error(UNREADABLE, f"'{path}' is a binary file, not AscendC source", None)
    return data.decode("utf-8", errors="replace"), None


def detect_format(path: str, text: str | None) -> str:
    p = Path(path)
    if p.is_dir():
        return "project"
    if text is None:
        return "cpp"
    if p.suffix.lower() == ".py" or _PY_FENCE_RE.search(text):
        if re.search(r"\bkernel_src\s*=", text):
            return "multikernelbench"
    if "<kernel_impl>" in text or _SECTION_RE.search(text):
        return "npukernelbench"
    if p.suffix.lower() in SOURCE_SUFFIXES:
        return "cpp"
    if _FENCE_RE.search(text):
        return "npukernelbench"
    return "cpp"


def is_project_dir(path: Path) -> bool:
    return (path / "op_kernel").is_dir() or (path / "op_host").is_dir()


def read_input(path: str, fmt: str = "auto") -> Bundle:
    """Read one file or project folder in the given (or detected) format; never raises."""
    p = Path(path)
    if not p.exists():
        b = Bundle(path, fmt)
        b.diagnostics.append(error(UNREADABLE, f"no such file or directory: '{path}'", None))
        return b
    if p.is_dir():
        if fmt not in ("auto", "project"):
            b = Bundle(path, fmt)
            b.diagnostics.append(error(UNREADABLE, f"'{path}' is a folder; --format {fmt} reads a file", None))
            return b
        return read_project(p)
    text, problem = read_text(path)
    if text is None:
        b = Bundle(path, fmt)
        b.diagnostics.append(problem)  # type: ignore[arg-type]
        return b
    chosen = detect_format(path, text) if fmt == "auto" else fmt
    if chosen == "project":
        chosen = "cpp"
    reader = {"cpp": read_cpp, "npukernelbench": read_npukernelbench, "multikernelbench": read_multikernelbench}[chosen]
    bundle = reader(path, text)
    bundle.texts.setdefault(path, text)
    return bundle


def read_cpp(path: str, text: str) -> Bundle:
    from frontend.op_tiling import tiling_headers

    b = Bundle(path, "cpp")
    b.units.append(SourceUnit(path, text, classify_source(text, path), path))
    if b.units[0].role == "kernel":
        for header in tiling_headers(path, text):
            header_text, _ = read_text(header)
            if header_text is not None:
                b.context_units.append(SourceUnit(header, header_text, "tiling_header", header))
    return b


# ------------------------------------------------------------------ op projects

_SKIP_DIRS = {"build", "build_out", "output", ".git", "__pycache__", "cmake", "scripts", "framework", "tests",
              "test", "third_party"}


def read_project(root: Path) -> Bundle:
    b = Bundle(str(root), "project")
    for json_path in sorted(root.glob("*.json")):
        if json_path.name.startswith("CMake"):
            continue
        text, problem = read_text(str(json_path))
        if text is None:
            b.diagnostics.append(problem)  # type: ignore[arg-type]
            continue
        b.texts[str(json_path)] = text
        parsed = parse_op_json(text, str(json_path), b.diagnostics)
        if parsed is not None and b.op_json is None:
            b.op_json = parsed
    sources: list[Path] = []
    for sub in ("op_host", "op_kernel"):
        base = root / sub
        if base.is_dir():
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
                sources += [Path(dirpath) / f for f in sorted(filenames) if f.lower().endswith(SOURCE_SUFFIXES)]
    if not sources:
        b.diagnostics.append(error(UNREADABLE, f"'{root}' has no sources under op_host/ or op_kernel/", None))
    for src in sources:
        text, problem = read_text(str(src))
        if text is None:
            b.diagnostics.append(problem)  # type: ignore[arg-type]
            continue
        b.texts[str(src)] = text
        b.units.append(SourceUnit(str(src), text, classify_source(text, str(src)), str(src)))
    # the tiling sources the op's build takes from another op folder (gemma_rms_norm's, in rms_norm/op_host)
    for src in dependency_tiling_sources(root, {u.path: u.text for u in b.units}):
        text, _ = read_text(str(src))
        if text is not None and str(src) not in b.texts:
            b.texts[str(src)] = text
            b.units.append(SourceUnit(str(src), text, "host", str(src)))
    return b


def parse_op_json(text: str, file: str, diags: list[Diagnostic], line_offset: int = 0) -> list[dict[str, object]] | None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        diags.append(error(BAD_OP_JSON, f"op description is not valid JSON: {exc.msg}",
                           Span.point(file, exc.lineno + line_offset, exc.colno)))
        return None
    except (ValueError, RecursionError) as exc:  # over-long integers, absurd nesting
        diags.append(error(BAD_OP_JSON, f"op description cannot be read: {type(exc).__name__}",
                           Span.point(file, 1 + line_offset, 1)))
        return None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data or not all(isinstance(op, dict) for op in data):
        diags.append(error(BAD_OP_JSON, "op description must be a list of operator objects",
                           Span.point(file, 1 + line_offset, 1)))
        return None
    for op in data:
        if "op" not in op:
            diags.append(error(BAD_OP_JSON, "operator object has no \"op\" name", Span.point(file, 1 + line_offset, 1)))
    return data


# ------------------------------------------------------------------ NPUKernelBench answers

_FENCE_RE = re.compile(r"^[ \t]*```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)^[ \t]*```", re.S | re.M)
_PY_FENCE_RE = re.compile(r"^[ \t]*```[ \t]*(?:python|py)\b", re.M)
_SECTION_RE = re.compile(r"^[ \t]*={3,}[ \t]*([\w./-]+\.(?:h|hpp|cpp|cc|asc|json))[ \t]*={3,}[ \t]*$", re.M)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset)


def read_npukernelbench(path: str, text: str) -> Bundle:
    b = Bundle(path, "npukernelbench")
    sections = list(_SECTION_RE.finditer(text))
    if sections:
        for i, m in enumerate(sections):
            end = sections[i + 1].start() if i + 1 < len(sections) else len(text)
            body_start = m.end() + 1 if m.end() < len(text) else m.end()
            region = text[body_start:end]
            fence = _FENCE_RE.search(region)
            if fence:
                code_start = body_start + fence.start(2)
                code = fence.group(2)
            else:
                code_start = body_start
                code = re.sub(r"</?kernel_impl>\s*$", "", region.rstrip())
            rel = m.group(1)
            b.virtual_files[rel] = code
            if rel.endswith(".json"):
                b.op_json = parse_op_json(code, path, b.diagnostics, _line_of(text, code_start)) or b.op_json
                continue
            b.units.append(SourceUnit(rel, code, classify_source(code, rel), path, _line_of(text, code_start)))
        return b
    impl = re.search(r"<kernel_impl>(.*?)(?:</kernel_impl>|\Z)", text, re.S)
    region_start = impl.start(1) if impl else 0
    region = impl.group(1) if impl else text
    fences = [f for f in _FENCE_RE.finditer(region) if f.group(1).lower() in ("cpp", "c++", "c", "cc", "", "ascendc")]
    if not fences:
        where = Span.point(path, _line_of(text, region_start) + 1, 1)
        msg = ("no ```cpp block inside <kernel_impl>" if impl else
               "no <kernel_impl> section with a ```cpp block in this answer")
        b.diagnostics.append(error(NO_CODE, msg, where, Note("the kernel goes in <kernel_impl> ```cpp ... ``` </kernel_impl>", kind="help")))
        return b
    # The answer's kernel is the last fenced block of the implementation section.
    fence = fences[-1]
    code_start = region_start + fence.start(2)
    code = fence.group(2)
    b.units.append(SourceUnit(path, code, "kernel", path, _line_of(text, code_start)))
    return b


# ------------------------------------------------------------------ MultiKernelBench answers


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def read_multikernelbench(path: str, text: str) -> Bundle:
    b = Bundle(path, "multikernelbench")
    block_start = 0
    code = text
    if not path.endswith(".py"):
        fences = [f for f in _FENCE_RE.finditer(text) if f.group(1).lower() in ("python", "py")]
        with_fields = [f for f in fences if "kernel_src" in f.group(2)]
        if not with_fields:
            b.diagnostics.append(error(NO_CODE, "no ```python block assigning kernel_src in this answer",
                                       Span.point(path, 1, 1)))
            return b
        fence = with_fields[-1]
        block_start = _line_of(text, fence.start(2))
        code = fence.group(2)
    try:
        module = pyast.parse(code)
    except (RecursionError, MemoryError):
        b.diagnostics.append(error(NO_CODE, "the Python block is nested too deeply to read",
                                   Span.point(path, block_start + 1, 1)))
        return b
    except SyntaxError as exc:
        line = (exc.lineno or 1) + block_start
        b.diagnostics.append(error(NO_CODE, f"the Python block does not parse: {exc.msg}",
                                   Span.point(path, line, max(1, exc.offset or 1))))
        return b
    found: dict[str, tuple[str, int, int]] = {}
    bindings: dict[str, pyast.expr] = {}
    changed = _changed_names(module)
    for node in module.body:
        if isinstance(node, pyast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], pyast.Name) \
                and node.targets[0].id not in changed:
            try:
                pyast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            bindings[node.targets[0].id] = node.value
    for node in module.body:
        if not isinstance(node, pyast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], pyast.Name):
            continue
        name = node.targets[0].id
        if name not in MULTIKERNELBENCH_FIELDS:
            continue
        value = node.value
        where = Span.point(path, node.lineno + block_start, node.col_offset + 1)
        if isinstance(value, pyast.Constant) and isinstance(value.value, str):
            line, col = _string_content_start(code, value)
            found[name] = (value.value, line + block_start, col)
        elif (dumped := _json_dumps_literal(value, bindings)) is not None:
            found[name] = (dumped, node.lineno + block_start, 1)
        else:
            b.diagnostics.append(error(NOT_A_LITERAL, f"{name} is not a plain string literal; it cannot be read "
                                       "without executing the answer", where))
    computed = {t.id for n in module.body if isinstance(n, pyast.Assign) for t in n.targets if isinstance(t, pyast.Name)}
    missing = [f for f in ("kernel_src", "host_tiling_src", "host_operator_src", "project_json_src") if f not in computed]
    if missing:
        b.diagnostics.append(error(NO_CODE, f"the answer does not assign {', '.join(missing)}",
                                   Span.point(path, block_start + 1, 1)))
    op_snake = "op"
    if "project_json_src" in found:
        js, line, _ = found["project_json_src"]
        b.op_json = parse_op_json(js, path, b.diagnostics, line - 1)
        if b.op_name:
            op_snake = _snake(b.op_name)
    layout = {
        "host_tiling_src": (f"op_host/{op_snake}_tiling.h", "tiling_header"),
        "host_operator_src": (f"op_host/{op_snake}.cpp", "host"),
        "kernel_src": (f"op_kernel/{op_snake}.cpp", "kernel"),
        "python_bind_src": ("CppExtension/csrc/op.cpp", "python_bind"),
    }
    for name, (rel, role) in layout.items():
        if name in found:
            src, line, col = found[name]
            b.virtual_files[rel] = src
            b.units.append(SourceUnit(rel, src, role, path, line - 1, col - 1))
    return b


_MUTATORS = {"append", "extend", "insert", "update", "pop", "remove", "clear", "setdefault", "sort", "reverse"}


def _changed_names(module: pyast.Module) -> set[str]:
    """Module-level names whose value changes after their first assignment (a second assignment, `+=`, an item
    or attribute set, `x.append(...)` in a loop): their first literal is not what a later json.dumps(x) sees."""
    assigned: set[str] = set()
    changed: set[str] = set()
    for node in pyast.walk(module):
        if isinstance(node, pyast.Assign):
            for t in node.targets:
                if isinstance(t, pyast.Name):
                    (changed if t.id in assigned else assigned).add(t.id)
                elif isinstance(t, pyast.Subscript | pyast.Attribute) and isinstance(t.value, pyast.Name):
                    changed.add(t.value.id)
        elif isinstance(node, pyast.AugAssign) and isinstance(node.target, pyast.Name):
            changed.add(node.target.id)
        elif isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
                and isinstance(node.func.value, pyast.Name) and node.func.attr in _MUTATORS:
            changed.add(node.func.value.id)
    return changed


class _InlineLiterals(pyast.NodeTransformer):
    """Replace names bound to literals at module level by their values, so literal_eval can read them."""

    def __init__(self, bindings: dict[str, pyast.expr]) -> None:
        self.bindings = bindings

    def visit_Name(self, node: pyast.Name) -> pyast.expr:
        bound = self.bindings.get(node.id)
        return bound if bound is not None else node


def _json_dumps_literal(value: pyast.expr, bindings: dict[str, pyast.expr]) -> str | None:
    """`json.dumps(<literal>)` (common for project_json_src), evaluated with literal_eval: nothing runs."""
    if not (isinstance(value, pyast.Call) and isinstance(value.func, pyast.Attribute) and value.func.attr == "dumps"
            and isinstance(value.func.value, pyast.Name) and value.func.value.id == "json" and len(value.args) == 1):
        return None
    try:
        arg = _InlineLiterals(bindings).visit(value.args[0])
        return json.dumps(pyast.literal_eval(arg), indent=4)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _string_content_start(code: str, node: pyast.Constant) -> tuple[int, int]:
    """1-based (line, col) in `code` where the literal's text starts (after prefix and quotes)."""
    lines = code.splitlines(keepends=True)
    line = node.lineno
    row = lines[line - 1] if line - 1 < len(lines) else ""
    i = node.col_offset
    while i < len(row) and row[i] not in "\"'":
        i += 1
    quote = row[i : i + 3] if row[i : i + 3] in ('"""', "'''") else row[i : i + 1]
    i += len(quote)
    if i >= len(row.rstrip("\r\n")) and quote in ('"""', "'''"):
        # `"""` then a newline: the string's first character is that newline, its text starts below.
        return line, i + 1
    return line, i + 1


def collect_inputs(paths: Iterable[str], fmt: str = "auto") -> list[Bundle]:
    """Expand folders into the inputs they hold (projects, sources, answers) and read each once."""
    bundles: list[Bundle] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir() and not is_project_dir(p) and fmt == "auto":
            for item in _walk_inputs(p):
                bundles.append(read_input(str(item), fmt))
            if not bundles:
                b = Bundle(raw, fmt)
                b.diagnostics.append(warning(UNREADABLE, f"no AscendC sources, op projects or answers under '{raw}'", None))
                bundles.append(b)
        else:
            bundles.append(read_input(raw, fmt))
    return bundles


def _walk_inputs(root: Path) -> Iterable[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if here != root and is_project_dir(here):
            dirnames[:] = []
            yield here
            continue
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            f = here / name
            suffix = f.suffix.lower()
            if suffix in SOURCE_SUFFIXES:
                yield f
            elif suffix in (".md", ".txt", ".py", ".answer"):
                try:
                    head = f.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                if "<kernel_impl>" in head or re.search(r"\bkernel_src\s*=", head) or _SECTION_RE.search(head):
                    yield f
