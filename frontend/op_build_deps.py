"""The host tiling sources an op's build takes from another op folder.

An ops repository may register an op's tiling in another op's folder: ops-nn's gemma_rms_norm/op_host holds only
its OpDef (`OP_ADD(GemmaRmsNorm)`), while rms_norm/op_host/rms_norm_tiling.cpp registers
`IMPL_OP_OPTILING(GemmaRmsNorm).Tiling(Tiling4GemmaRmsNorm)`. The build joins them through the op's
op_host/CMakeLists.txt: `add_modules_sources(... OPTYPE gemma_rms_norm ... DEPENDENCIES rms_norm)` compiles the
dependency's host sources too, of which add_tiling_sources (the repositories' cmake/func.cmake) takes
`*_tiling*.cpp` and op_tiling/*.cpp. Read alone, the op folder has no tiling function (ASC120).

`dependency_tiling_sources` gives those sources for an op project whose OpDefs add an op (OP_ADD) that no host
source of its own registers a tiling for: the tiling sources of the folders its CMakeLists names as DEPENDENCIES,
and where there is no CMakeLists (checkouts without the build files), of the op folders beside it whose tiling
sources register that op's tiling. Nothing is read for a folder with a tiling of its own (an OpDef's SetTiling,
or IMPL_OP_OPTILING of each op it adds); a folder whose own sources name gert::TilingContext but register no
tiling for an op it adds reads a CMakeLists dependency only where that registers the op.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_OP_ADD_RE = re.compile(r"\bOP_ADD\s*\(\s*(\w+)")
_REGISTERED_RE = re.compile(r"\bIMPL_OP_OPTILING\s*\(\s*(\w+)\s*\)")
_SET_TILING_RE = re.compile(r"\.\s*SetTiling\s*\(")
_DEPENDENCIES_RE = re.compile(r"\bDEPENDENCIES\s+([^)]*)")
_QUOTED_INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]*)"', re.M)
_CMAKE_KEYWORD_RE = re.compile(r"^[A-Z_]+$")  # the next argument keyword of add_modules_sources ends the list
_MAX_SIBLINGS = 512  # op folders looked at beside the project
_MAX_BYTES = 2_000_000  # per tiling source read while looking


def dependency_tiling_sources(root: Path, own: dict[str, str]) -> list[Path]:
    """The tiling sources of other op folders that `root`'s build compiles for the ops it adds; `own` holds the
    texts of its own sources, by path. The sources beside another op folder's op_host headers it includes come
    first (companion_sources)."""
    return _unique(companion_sources(root, own) + _registering_sources(root, own))


def companion_sources(root: Path, own: dict[str, str]) -> list[Path]:
    """For each header of another op folder's op_host that `root`'s host sources include (by a relative path, or
    from the repository root: _included_header, then of a folder its CMakeLists names as DEPENDENCIES), the
    tiling .cpp of the same name beside it. The ops repositories link every op's host sources into one op-host library,
    so a class a header declares there is defined by its own source: ops-math circular_pad_grad's tiling derives
    from CircularPadCommonTiling (`#include "../../circular_pad/op_host/circular_pad_common_tiling.h"`), whose
    GetShapeAttrsInfo, GetPlatformInfo, ... circular_pad_common_tiling.cpp defines; read alone, each was 'declared
    but never defined' and the tiling returned GRAPH_FAILED."""
    try:
        base = root.resolve()
    except OSError:
        return []
    found: list[Path] = []
    dependencies: list[str] | None = None
    # (a companion's own headers' sources are compiled too: ops-nn's matmul_v3_base_tiling.cpp, batch_mat_mul_v3's
    # companion, calls L2Cache::SetL2CacheFlag of matmul_v3_l2_cache.h, which matmul_v3_l2_cache.cpp defines)
    work = list(own.items())
    while work:
        path, text = work.pop(0)
        if not _in_op_host(path):
            continue
        for rel in _QUOTED_INCLUDE_RE.findall(text):
            header = _included_header(path, rel, beside=path not in own)
            if header is None or header.suffix not in (".h", ".hpp") or base in header.parents \
                    or not _in_op_host(str(header)):
                continue
            if not rel.startswith("."):
                # from the repository root: only a folder the op's CMakeLists names as DEPENDENCIES, whose host
                # sources its build compiles (ops-nn mat_mul_v3 includes matmul/common's headers too, whose
                # debug_tiling.cpp is no dependency of it: read, it stopped the tiling)
                if dependencies is None:
                    dependencies = _cmake_dependencies(root) or []
                if _op_folder(header) not in dependencies:
                    continue
            source = header.with_suffix(".cpp")
            # a tiling source (as add_tiling_sources takes them): a header's op_api / infershape .cpp is not
            if source.is_file() and source not in found and _is_tiling_source(source):
                found.append(source)
                work.append((str(source), _read(source)))
    return found


def _op_folder(path: Path) -> str | None:
    """The name of the op folder a file of an op_host folder belongs to."""
    parts = path.parts
    return parts[parts.index("op_host") - 1] if "op_host" in parts[1:] else None


def _is_tiling_source(path: Path) -> bool:
    return path.suffix == ".cpp" and ("_tiling" in path.name or "op_tiling" in path.parts)


def repository_candidates(includer: str, name: str) -> list[str]:
    """Where `name` lies when the ops repositories' build puts the repository root on the include path: a path
    of an op's own folders from the root (`#include "quant/dynamic_quant/op_kernel/arch35/dynamic_quant_struct.h"`
    in ops-nn's quant/dynamic_quant/op_host/), looked up from each folder above the includer's op project,
    nearest first. Only for a file of an op project (one under an op_host or op_kernel folder) and a name that
    walks down into an op_host / op_kernel folder itself."""
    parts = os.path.normpath(os.path.abspath(includer)).split(os.sep)[:-1]
    named = name.replace("\\", "/").split("/")
    if name.startswith(".") or not {"op_host", "op_kernel"} & set(named[:-1]):
        return []
    marks = [i for i, p in enumerate(parts) if p in ("op_host", "op_kernel")]
    if not marks:
        return []
    return [os.path.join(os.sep.join(parts[:i]) or os.sep, name) for i in range(marks[-1] - 1, 0, -1)]


def _included_header(includer: str, name: str, beside: bool = False) -> Path | None:
    """The file a quoted include names: relative to the includer (`../../circular_pad/op_host/x.h`), or from the
    repository root the ops repositories' build puts on the include path (ops-nn batch_mat_mul_v3's
    `#include "matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_base_tiling.h"`). With `beside`, a plain name is
    looked up next to the includer first, as a compiler does for a quoted include (a companion source's own
    headers: `#include "matmul_v3_l2_cache.h"`)."""
    here = [os.path.join(os.path.dirname(includer), name)]
    candidates = here if name.startswith(".") else \
        (here if beside else []) + repository_candidates(includer, name)
    for candidate in candidates:
        if os.path.isfile(candidate):
            return Path(candidate).resolve()
    return None


def _unique(paths: list[Path]) -> list[Path]:
    seen: set[Path] = set()
    return [p for p in paths if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]


def _registering_sources(root: Path, own: dict[str, str]) -> list[Path]:
    """The tiling sources of the folders that register a tiling for an op `root` adds and registers none for."""
    host = [text for path, text in own.items() if _in_op_host(path)]
    if any(_SET_TILING_RE.search(text) for text in host):
        return []  # a tiling function of its own (msopgen projects register theirs with SetTiling in the OpDef)
    # code naming gert::TilingContext that registers nothing may still be a helper of the registered tiling in a
    # dependency (ops-nn swi_glu_grad's swi_glu_grad_tiling_regbase.cpp, a class that swi_glu's tiling, which
    # registers IMPL_OP_OPTILING(SwiGluGrad), runs on the 950): then only a dependency registering the op counts
    helpers = any("TilingContext" in text for text in host)
    added = {op for text in host for op in _OP_ADD_RE.findall(text)}
    missing = added - {op for text in host for op in _REGISTERED_RE.findall(text)}
    if not missing:
        return []
    named = _cmake_dependencies(root)
    if named is not None:
        sources = [src for dep in named for src in _tiling_sources(root.parent / dep / "op_host")]
        if helpers and not any(missing & set(_REGISTERED_RE.findall(_read(src))) for src in sources):
            return []  # the folder's own TilingContext code is its tiling (registered some other way)
        return sources
    if helpers:
        return []  # no build files: a folder with TilingContext code of its own keeps to it
    found: list[Path] = []
    try:
        siblings = sorted(d for d in os.listdir(root.parent) if d != root.name)[:_MAX_SIBLINGS]
    except OSError:
        return []
    for name in siblings:
        sources = _tiling_sources(root.parent / name / "op_host")
        if any(missing & set(_REGISTERED_RE.findall(_read(src))) for src in sources):
            found += sources
    return found


def _cmake_dependencies(root: Path) -> list[str] | None:
    """The DEPENDENCIES of the op's add_modules_sources (op_host/CMakeLists.txt, or the op folder's own), or None
    where neither file exists."""
    texts = [_read(p) for p in (root / "op_host" / "CMakeLists.txt", root / "CMakeLists.txt") if p.is_file()]
    if not texts:
        return None
    deps: list[str] = []
    for text in texts:
        for m in _DEPENDENCIES_RE.finditer(text):
            for word in m.group(1).split():
                if _CMAKE_KEYWORD_RE.match(word):
                    break
                if word not in deps and (root.parent / word / "op_host").is_dir():
                    deps.append(word)
    return deps


def _tiling_sources(host: Path) -> list[Path]:
    """`*_tiling*.cpp` anywhere under an op_host folder (its architecture folders and op_tiling/ included)."""
    if not host.is_dir():
        return []
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(host):
        dirnames.sort()
        rel = os.path.relpath(dirpath, host).split(os.sep)
        out += [Path(dirpath) / f for f in sorted(filenames)
                if f.endswith(".cpp") and ("_tiling" in f or "op_tiling" in rel)]
    return out


def _read(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(_MAX_BYTES)
    except OSError:
        return ""


def _in_op_host(path: str) -> bool:
    return "op_host" in path.replace(os.sep, "/").split("/")
