"""Includes in the preprocessor: header names, the search order (next to the includer, -iquote, -I,
-isystem), vendor and system headers that are recorded but not read, `__has_include`, -include files and
entering an included file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from frontend import vendor
from frontend.diagnostics import Note, Span, error, warning
from frontend.op_build_deps import repository_candidates as _repository_candidates
from frontend.preprocess_tokens import STR, Tok
from frontend.preprocess_types import File, PPError
from frontend.readers import in_op_host


def _op_build_candidates(includer: str, name: str) -> list[str]:
    """Where `name` lies when the op build copies each op project's op_kernel/ folder to a folder named after
    the op (ops-nn: `#include "../quantize_add_layer_norm/quantize_add_layer_norm_base.h"` in
    norm/dua_quantize_add_layer_norm/op_kernel/ is norm/quantize_add_layer_norm/op_kernel/...)."""
    if not name.startswith("../"):
        return []
    parts = os.path.normpath(os.path.abspath(includer)).split(os.sep)[:-1]
    if "op_kernel" not in parts:
        return []
    at = len(parts) - 1 - parts[::-1].index("op_kernel")
    if at < 2:
        return []
    category = os.sep.join(parts[:at - 1])
    built = os.path.normpath(os.path.join(os.sep.join([*parts[:at], *parts[at + 1:]]), name))
    rest = os.path.relpath(built, category)
    if rest.startswith("..") or os.sep not in rest:
        return []
    op, inner = rest.split(os.sep, 1)
    return [os.path.join(category, op, "op_kernel", inner)]


def _common_include_candidates(includer: str, name: str) -> list[str]:
    """Where `name` lies when the ops repositories' build puts the repository's shared headers on the include
    path: their tiling builds add `common/inc` of the repository root (cmake/variables.cmake's
    OP_TILING_INCLUDE; `#include "torch_extension/tiling_utils.h"` in an op's op_host/ folder). Looked up in
    `common/inc` of each folder above the includer's op project, nearest first (the root is the one that has
    the folder). Only for a file of an op project (one under an op_host or op_kernel folder), and not for the
    framework headers the host lowering models (vendor.REPOSITORY_FRAMEWORK_HEADERS)."""
    if name.startswith(".") or os.path.basename(name) in vendor.REPOSITORY_FRAMEWORK_HEADERS:
        return []
    parts = os.path.normpath(os.path.abspath(includer)).split(os.sep)[:-1]
    marks = [i for i, p in enumerate(parts) if p in ("op_host", "op_kernel")]
    if not marks:
        return []
    return [os.path.join(os.sep.join(parts[:i]) or os.sep, "common", "inc", name)
            for i in range(marks[-1] - 1, 0, -1)]


def _kernel_inc_candidates(includer: str, name: str) -> list[str]:
    """Where `#include "../inc/platform.h"` lies for a file of an op's op_kernel folder: ops-nn's kernel build
    copies each op's op_kernel/ folder to tbe/ascendc/<op>/ (cmake/gen_ops_info.cmake, kernel_src_copy) and the
    repository's common/inc/op_kernel/ to tbe/ascendc/inc/ beside them (gen_ops_info.cmake:546, common_copy), so
    `../inc/X` from the op's folder names common/inc/op_kernel/X (kernel_utils.h, platform.h, load_store_utils.h:
    `ops::CeilDiv`, `platform::GetUbBlockSize()`). Looked up in `common/inc/op_kernel` of each folder above the
    includer's op project, nearest first; also from a subfolder (arch35/), which the compile reaches through the
    op folder on its include path."""
    prefix = "../inc/"
    if not name.startswith(prefix):
        return []
    parts = os.path.normpath(os.path.abspath(includer)).split(os.sep)[:-1]
    marks = [i for i, p in enumerate(parts) if p == "op_kernel"]
    if not marks:
        return []
    return [os.path.join(os.sep.join(parts[:i]) or os.sep, "common", "inc", "op_kernel", name[len(prefix):])
            for i in range(marks[-1] - 1, 0, -1)]


def _kernel_common_candidates(includer: str, name: str) -> list[str]:
    """Where `#include "util.h"` lies for a file of an op's op_kernel folder in ops-transformer: its kernel build
    copies the repository's common/include/kernel/*.* to ascendc/common (cmake/func.cmake add_ops_src_copy,
    OPS_ADV_UTILS_KERNEL_INC of cmake/config.cmake:51), which the kernel compile has on its include path
    (nsa_compress_attention's "util.h", "pse.h", "dropmask.h": CeilDiv and the attention helpers). Looked up in
    `common/include/kernel` of each folder above the includer's op project, nearest first, after every other
    place."""
    if name.startswith(".") or os.sep in os.path.normpath(name):
        return []
    parts = os.path.normpath(os.path.abspath(includer)).split(os.sep)[:-1]
    marks = [i for i, p in enumerate(parts) if p == "op_kernel"]
    if not marks:
        return []
    return [os.path.join(os.sep.join(parts[:i]) or os.sep, "common", "include", "kernel", name)
            for i in range(marks[-1] - 1, 0, -1)]


def _known_header(name: str) -> bool:
    if name in vendor.KNOWN_HEADERS or os.path.basename(name) in vendor.KNOWN_HEADERS:
        return True
    if os.path.basename(name).startswith(vendor.GENERATED_HEADER_PREFIXES):
        return True
    norm = name.replace("\\", "/")
    return any(norm.endswith("/" + h) for h in vendor.KNOWN_HEADERS)


_KNOWN_BASENAMES = frozenset(os.path.basename(h) for h in vendor.KNOWN_HEADERS)


class IncludeResolution:
    """Includes in the preprocessor: methods of _Preprocessor (preprocess.py), which inherits them."""

    def _header_name(self, toks: list[Tok]) -> tuple[str, bool] | None:
        """(name, angled) from `"x"` or `<x>` tokens, expanding macros once if needed."""
        for attempt in range(2):
            if toks and toks[0].kind == STR and toks[0].text.startswith('"'):
                text = toks[0].text
                if len(text) >= 2 and text.endswith('"'):
                    return text[1:-1], False
                return None
            if toks and toks[0].text == "<":
                parts: list[str] = []
                for k, t in enumerate(toks[1:]):
                    if t.text == ">":
                        return "".join(parts).strip(), True
                    parts.append((t.ws if k else "") + t.text)
                return None
            if attempt == 0:
                toks = self._expand(toks, None)
        return None

    def _has_include(self, toks: list[Tok], f: File) -> bool:
        hn = self._header_name(toks)
        if hn is None:
            raise PPError("__has_include requires a header name")
        name, angled = hn
        if _known_header(name):
            return True
        return self._resolve(name, f, angled) is not None

    def _search_dirs(self, f: File, angled: bool) -> list[str]:
        """The folders an include is looked up in, in order, as GCC and clang search them: a quoted one next to
        the including file, then in the -iquote folders; both kinds then in the -I and the -isystem folders."""
        quoted = [] if angled else [os.path.dirname(f.src.name) or ".", *self.quote_dirs]
        return [*quoted, *self.include_dirs, *self.system_dirs]

    def _resolve(self, name: str, f: File, angled: bool = False) -> str | None:
        """Find an include along _search_dirs (and where the op build copies op_kernel folders to)."""
        if os.path.isabs(name):
            candidates = [name]
        else:
            candidates = [os.path.join(d, name) for d in self._search_dirs(f, angled)]
            if not angled:
                candidates += _op_build_candidates(f.src.name, name) + _repository_candidates(f.src.name, name) + \
                    _common_include_candidates(f.src.name, name) + _kernel_inc_candidates(f.src.name, name) + \
                    _kernel_common_candidates(f.src.name, name)
        return self._first_readable(candidates)

    def _first_readable(self, candidates: Sequence[str]) -> str | None:
        """The first of `candidates` that can be read (its text kept in self.texts), normalised."""
        for c in candidates:
            path = os.path.normpath(c)
            if path in self.texts:
                if self.texts[path] is not None:
                    return path
                continue
            try:
                text: str | None = self.read_file(path)
                if not isinstance(text, str):
                    text = None
            except Exception:  # noqa: BLE001 - any failure of a user-supplied reader means "not there"
                text = None
            self.texts[path] = text
            if text is not None:
                return path
        return None

    def force_include(self, name: str, main: str) -> None:
        """`-include name`: the header read as if `#include "name"` were the main file's first line, looked up
        from the working folder first (as GCC does), then along the include folders."""
        dirs = [os.getcwd(), *self.quote_dirs, *self.include_dirs, *self.system_dirs]
        candidates = [name] if os.path.isabs(name) else [os.path.join(d, name) for d in dirs]
        path = self._first_readable(candidates)
        if path is None:
            span = Span(main, 1, 1, 1, 2)
            searched = "the working folder" if os.path.isabs(name) else ", ".join(dirs)
            self.diags.append(warning("ASC002", f"cannot find forced include file '{name}' (-include); skipped",
                                      span, Note(f"searched: {searched}")))
            self.missing_includes.append(name)
            return
        self._enter(path, name, None)

    def in_system_dir(self, path: str) -> bool:
        """Whether `path` lies under an -isystem folder: a system header, whose warnings are not the user's."""
        return any(path.startswith(os.path.join(d, "")) for d in self.system_dirs)

    def _include(self, f: File, idx: int, line: str, rest: int, name_span: Span) -> bool:
        toks = self._tokenize(f, idx, line, rest)
        hn = self._header_name(toks)
        line_span = self._span(f, idx, line.index("#"), len(line.rstrip()))
        if hn is None or not hn[0]:
            raise PPError('#include expects "FILENAME" or <FILENAME>')
        name, angled = hn
        path = None
        if angled and not _known_header(name) and (self.include_dirs or self.system_dirs):
            path = self._resolve(name, f, True)  # a library's `<catlass/catlass.hpp>` under an -I folder
        if path is None and (angled or _known_header(name)):
            self.vendor_includes.append(name)
            # A `.asc` source is built by ascc, for which kernel_type.h declares these as enumerators instead;
            # an op_host source that reaches a kernel header (a tiling .cpp including the kernel's DAG header)
            # is built by the host compiler and writes `ge::DT_FLOAT16`, which the macros would turn into `ge::1`.
            main = self.stack[0] if self.stack else ""
            if os.path.basename(name) in vendor.KERNEL_TYPE_HEADERS and not (
                main.endswith(".asc") or in_op_host(main)
            ):
                for key, value in vendor.KERNEL_TYPE_MACROS.items():
                    if key not in self.macros:  # a project's own #define comes first
                        self.define_from_option(key, value)
            if os.path.basename(name) == vendor.TEMPLATE_ARGUMENT_HEADER and not (
                main.endswith(".asc") or in_op_host(main)
            ):
                for key in vendor.TEMPLATE_ARGUMENT_KERNEL_MACROS:
                    if key.split("(", 1)[0] not in self.macros:
                        self.define_from_option(key, "")
            return False
        if path is None:
            path = self._resolve(name, f)
        if path is None:
            if os.path.basename(name) not in _KNOWN_BASENAMES:
                searched = ", ".join(self._search_dirs(f, False))
                self.diags.append(warning("ASC002", f"cannot find include file '{name}'; skipped", line_span,
                                          Note(f"searched: {searched}")))
                self.missing_includes.append(name)
            return False
        return self._enter(path, name, line_span)

    def _enter(self, path: str, name: str, line_span: Span | None) -> bool:
        """Preprocess the found header `path` (written `name`) where it is included."""
        if path in self.once:
            return False
        if len(self.stack) - 1 >= self.max_depth:  # the main file is not an inclusion
            notes = []
            if path in self.stack:
                chain = " -> ".join(self.stack[self.stack.index(path) :] + [path])
                notes.append(Note(f"include cycle: {chain}"))
            self.diags.append(
                error(
                    "ASC003",
                    f"#include nested too deeply (limit {self.max_depth}); '{name}' skipped",
                    line_span,
                    *notes,
                )
            )
            return False
        if path not in self.includes:
            self.includes.append(path)
        text = self.texts.get(path) or ""
        src = self._prepare(path, text, True)
        self.stack.append(path)
        try:
            self.run_file(src)
        finally:
            self.stack.pop()
        return True
