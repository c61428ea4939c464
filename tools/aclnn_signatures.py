"""Reads the built-in aclnn operator signatures from vendor headers and writes them as data for ASC813.

    .venv/bin/python tools/aclnn_signatures.py [HEADER_ROOT ...] [--out passes/verify/data/aclnn_builtin.toml]

Every `op_api/aclnn_*.h` under the roots (default: the hicann ops-math, ops-nn and ops-transformer checkouts in
/work/realkernels) is read; each `aclnnXGetWorkspaceSize(...)` declaration gives the operator `aclnnX` and its
parameters in order, less the trailing `uint64_t* workspaceSize, aclOpExecutor** executor`. EXEC_NPU_CMD passes
its arguments positionally to that function, so the order and kind of these parameters is what a binding must
match. A name declared with two different parameter lists (kinds or C types) is left out: which one the
installed CANN has is unknown. Names that differ only in their parameter names keep the first header's names.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ROOTS = [Path("/work/realkernels") / name for name in ("hicann+ops-math", "hicann+ops-nn",
                                                               "hicann+ops-transformer")]
DEFAULT_OUT = ROOT / "passes" / "verify" / "data" / "aclnn_builtin.toml"

# the C type of a parameter (const, spacing and parameter name removed) -> its kind
_POINTER_KINDS = {
    "aclTensor*": "tensor",
    "aclTensorList*": "tensor_list",
    "aclScalar*": "scalar",
    "aclIntArray*": "int_array",
    "aclBoolArray*": "bool_array",
    "aclFloatArray*": "float_array",
    "char*": "string",
}
_INT_TYPES = {"int", "long", "short", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
              "uint64_t", "size_t", "unsigned", "unsigned int", "long long", "unsigned long", "unsigned long long"}
_VALUE_KINDS = {"double": "float", "float": "float", "bool": "bool", "aclDataType": "dtype"}
KINDS = ("tensor", "tensor_list", "scalar", "int", "float", "bool", "dtype", "int_array", "bool_array",
         "float_array", "string", "other")

_ENTRY_RE = re.compile(r"\b(aclnn\w+?)GetWorkspaceSize\s*\(")
_IDENT_RE = re.compile(r"[A-Za-z_]\w*")
_QUALIFIERS = {"const", "volatile", "struct", "enum", "restrict", "__restrict"}


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    ctype: str  # the C type with qualifiers dropped: `aclTensor*`, `int64_t`


@dataclass(frozen=True)
class Declaration:
    op: str
    params: tuple[Param, ...]
    source: str

    def shape(self) -> tuple[tuple[str, str], ...]:
        """What two declarations must share to be the same signature: kinds and C types, not names."""
        return tuple((p.kind, p.ctype) for p in self.params)


def strip_comments(text: str) -> str:
    """The text with /* */ and // comments replaced by spaces (string and char literals kept intact)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_params(text: str) -> list[str]:
    """A parameter list's text split at its top-level commas (not those inside (), <>, [] or {})."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    parts = [" ".join(p.split()) for p in parts]
    return [] if parts == [""] or parts == ["void"] else parts


def parse_param(text: str) -> Param | None:
    """One declared parameter (`const aclTensor *self`, `int64_t dim`); None when it has no name or a default."""
    if "=" in text or "(" in text or "[" in text:
        return None  # a default value, function pointer or array: not the plain form the headers use
    tokens = re.findall(r"\*|&|[A-Za-z_]\w*|::", text)
    if len(tokens) < 2 or not _IDENT_RE.fullmatch(tokens[-1]) or tokens[-1] in _QUALIFIERS:
        return None
    name = tokens[-1]
    words = [t for t in tokens[:-1] if t not in _QUALIFIERS and t not in ("*", "&")]
    if not words:
        return None
    stars = "*" * tokens[:-1].count("*") + "&" * tokens[:-1].count("&")
    ctype = " ".join(words) + stars
    return Param(name, kind_of(ctype), ctype)


def kind_of(ctype: str) -> str:
    if ctype in _POINTER_KINDS:
        return _POINTER_KINDS[ctype]
    if ctype in _VALUE_KINDS:
        return _VALUE_KINDS[ctype]
    if ctype in _INT_TYPES:
        return "int"
    return "other"


def _closing_paren(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def declarations(text: str, source: str = "<header>") -> Iterator[Declaration]:
    """Every aclnnXGetWorkspaceSize declaration (or definition) in a header's text, with the workspace-size and
    executor parameters dropped. Calls and declarations that do not end in those two parameters are skipped."""
    code = strip_comments(text)
    for m in _ENTRY_RE.finditer(code):
        close = _closing_paren(code, m.end() - 1)
        if close < 0:
            continue
        after = code[close + 1:].lstrip()
        if not after.startswith((";", "{")):
            continue
        inner = code[m.end():close]
        if "#" in inner:
            continue  # a parameter list split by #if: both branches would merge
        raw = split_params(inner)
        params = [parse_param(p) for p in raw]
        if len(params) < 2 or any(p is None for p in params):
            continue  # a call (`&workspaceSize` has no type) or a form we do not read
        typed = [p for p in params if p is not None]
        if typed[-2].ctype != "uint64_t*" or typed[-1].ctype != "aclOpExecutor**":
            continue
        yield Declaration(m.group(1), tuple(typed[:-2]), source)


def catalog(headers: Iterable[tuple[str, str]]) -> tuple[dict[str, list[Declaration]], dict[str, list[Declaration]]]:
    """(op -> its declarations, all with one parameter list; op -> conflicting declarations) over (source, text)
    pairs, in the given order. A name declared with two different parameter lists goes to the second map only."""
    found: dict[str, list[Declaration]] = {}
    for source, text in headers:
        for decl in declarations(text, source):
            found.setdefault(decl.op, []).append(decl)
    kept: dict[str, list[Declaration]] = {}
    conflicts: dict[str, list[Declaration]] = {}
    for op, decls in found.items():
        (kept if len({d.shape() for d in decls}) == 1 else conflicts)[op] = decls
    return kept, conflicts


def experimental(decls: list[Declaration]) -> bool:
    """Declared only under an `experimental/` folder: a contributed operator, not necessarily in an installed
    CANN, nor with this signature there (the experimental aclnnMedian differs from the released one)."""
    return all("/experimental/" in "/" + d.source for d in decls)


def header_files(roots: Iterable[Path]) -> list[Path]:
    return sorted({p for root in roots for p in root.rglob("aclnn_*.h") if p.parent.name == "op_api"})


def _toml_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(kept: dict[str, list[Declaration]], conflicts: dict[str, list[Declaration]], roots: list[str],
           header_count: int) -> str:
    lines = [
        "# Built-in aclnn operators: the parameters of aclnn<Op>GetWorkspaceSize, in order, less the trailing",
        "# `uint64_t* workspaceSize, aclOpExecutor** executor`. EXEC_NPU_CMD(aclnn<Op>, args...) passes its",
        "# arguments positionally to that function (rule ASC813 checks a binding's calls against this table).",
        "#",
        f"# Read from {header_count} op_api/aclnn_*.h headers of: " + ", ".join(roots) + ".",
        "# Generated, do not edit; regenerate with",
        "#     .venv/bin/python tools/aclnn_signatures.py [HEADER_ROOT ...]",
        f"# {len(kept)} operators. kind: " + " / ".join(KINDS) + "; type: the C type without const;",
        "# header: the first header declaring it; experimental: declared only under an experimental/ folder.",
    ]
    if conflicts:
        lines.append(f"# Left out, declared with different parameter lists in different headers ({len(conflicts)}): "
                     + ", ".join(sorted(conflicts)))
    for op in sorted(kept):
        decl = kept[op][0]
        lines.append("")
        lines.append(f"[{op}]")
        lines.append(f"header = {_toml_string(decl.source)}")
        if experimental(kept[op]):
            lines.append("experimental = true")
        if not decl.params:
            lines.append("params = []")
            continue
        lines.append("params = [")
        for p in decl.params:
            lines.append(f"    {{ name = {_toml_string(p.name)}, kind = {_toml_string(p.kind)}, "
                         f"type = {_toml_string(p.ctype)} }},")
        lines.append("]")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", type=Path, default=DEFAULT_ROOTS,
                        help="folders searched for op_api/aclnn_*.h (default: the hicann checkouts)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    roots: list[Path] = args.roots
    files = header_files(roots)
    if not files:
        print("no op_api/aclnn_*.h headers under " + ", ".join(map(str, roots)), file=sys.stderr)
        return 2
    common = Path(os.path.commonpath([r.resolve().parent for r in roots]))

    def shown(p: Path) -> str:
        return p.relative_to(common).as_posix() if p.is_relative_to(common) else p.as_posix()

    kept, conflicts = catalog((shown(f), f.read_text(encoding="utf-8", errors="replace")) for f in files)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(kept, conflicts, [r.resolve().name for r in roots], len(files)), encoding="utf-8")
    print(f"{len(files)} headers, {len(kept)} operators written to {args.out}; "
          f"{len(conflicts)} left out as conflicting: {', '.join(sorted(conflicts)) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
