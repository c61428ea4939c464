"""Syntax trees of parsed sources kept across processes, in the cache folder of frontend/cache.py.

Parsing is a function of the preprocessed text, its map back to the original lines (with the placement of
embedded sources), the preprocessor's findings and the code that builds the tree: a later process that
preprocesses a source to the same text gets the tree (and the parse's diagnostics) the first one built,
unpickled. catlass's basic_matmul preprocesses to 1.2 MB that took 1-2.5 minutes to parse; its tree loads
in about a second (bench/README.md, "Code health").

Each entry is a file `parsed-<key>.pickle` whose key hashes all of the above; the key is also stored in
the file and checked (frontend/cache.py), with a checksum, the owner of the file and of its folder: a
stale, foreign, truncated or damaged entry reads as a miss and the source is parsed again. The node spans
stay lazy (offsets into the preprocessed text): a span is pickled as its two offsets and bound on loading
to this process's map of the same text, which the key guarantees is the map it was parsed with. The
entries are bounded (ASCENDIR_PARSE_CACHE_MB, 512 by default; 0 turns the cache off): storing one past
the cap deletes the least recently used (a hit refreshes an entry's time). Nothing here raises: a cache
that cannot be read or written only means parsing.
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from frontend import cache
from frontend.diagnostics import LazySpan

_PREFIX = "parsed-"
_SUFFIX = ".pickle"
_DEFAULT_CAP_MB = 512

# The frontend code whose output the cached tree is: the grammar, the parser's modules and every frontend
# module they import (the tree's node classes, spans and diagnostics, the known vendor types the identifier
# scan reads), the pipeline (which filters the parse's diagnostics) and this module (the pickle's layout).
# tests/frontend/test_parse_cache.py checks that this covers every frontend module the parser imports.
KEY_FILES = ("grammar.lark", "parser*.py", "ast/*.py", "diagnostics.py", "vendor.py", "pipeline.py",
             "parse_cache.py")

_code_key: bytes | None = None


def code_key() -> bytes:
    """The hash of the frontend code that builds trees (read once per process) and of the lark version."""
    global _code_key
    if _code_key is None:
        import lark

        root = Path(__file__).parent
        files = sorted({p for pattern in KEY_FILES for p in root.glob(pattern)})
        _code_key = cache.key_of("parse-code", lark.__version__,
                                 *(part for p in files for part in (p.relative_to(root).as_posix(), p.read_bytes())))
    return _code_key


def cap_bytes() -> int:
    """The cap on the entries' total size; 0: no cache."""
    raw = os.environ.get("ASCENDIR_PARSE_CACHE_MB", "")
    try:
        mb = float(raw) if raw.strip() else _DEFAULT_CAP_MB
    except ValueError:
        mb = _DEFAULT_CAP_MB
    return max(0, int(mb * 1024 * 1024))


def unit_key(names: Iterable[object], text: str, seg_starts: list[int], seg_info: list[Any], files: list[str],
             findings: Iterable[str], placement: Iterable[tuple[str, tuple[str, int, int]]]) -> bytes | None:
    """The key of one parse: `names` (the unit's path, file name and offsets), the preprocessed `text`, its map
    (`seg_starts`, `seg_info`, `files`), the preprocessor's `findings` (as text) and the `placement` of embedded
    sources; None where they cannot be hashed (then there is no cache)."""
    try:
        return cache.key_of(code_key(), repr(tuple(names)), text, array("q", seg_starts).tobytes(),
                            repr(seg_info), repr(files), repr(tuple(findings)), repr(sorted(placement)))
    except Exception:  # noqa: BLE001 - an offset past 64 bits, an unreadable source of ours: no cache
        return None


def _name(key: bytes) -> str:
    return f"{_PREFIX}{key.hex()[:40]}{_SUFFIX}"


def _span_at(start: int, end: int) -> LazySpan:  # pragma: no cover - replaced on loading (find_class)
    raise RuntimeError("a pickled span is bound to an origin map when loaded")


def _reduce_span(span: LazySpan) -> tuple[Callable[..., LazySpan], tuple[int, int]]:
    return (_span_at, (span.start, span.end))


# What a tree and its diagnostics are made of; a pickle naming anything else is not one of ours.
_PACKAGES = frozenset({"frontend", "lark", "builtins", "copyreg", "collections", "enum"})


def load(key: bytes | None, origin: Callable[[int], tuple[str, int, int]]) -> tuple[Any, list[Any]] | None:
    """The (tree, diagnostics) stored under `key`, its spans mapped through `origin`; None on a miss."""
    if key is None or cap_bytes() == 0:
        return None
    bind = LazySpan
    memo: dict[int, tuple[str, int, int]] = {}

    def mapped(offset: int) -> tuple[str, int, int]:  # as the parser does: each offset mapped once
        hit = memo.get(offset)
        if hit is None:
            hit = memo[offset] = origin(offset)
        return hit

    def span_at(start: int, end: int) -> LazySpan:
        return bind(start, end, mapped)

    class Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if module == __name__ and name == "_span_at":
                return span_at
            if module.partition(".")[0] not in _PACKAGES:
                raise pickle.UnpicklingError(f"{module}.{name}")
            return super().find_class(module, name)

    try:
        got = cache.load(_name(key), key, Unpickler)
    except Exception:  # noqa: BLE001 - any failure is a miss
        return None
    if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], list)):
        return None
    folder = cache.cache_dir()
    if folder is not None:
        try:  # least recently used goes first: a hit counts as a use
            os.utime(os.path.join(folder, _name(key)))
        except OSError:
            pass
    return got[0], got[1]


def store(key: bytes | None, tree: Any, diagnostics: list[Any]) -> None:
    """Keep (tree, diagnostics) under `key` (best effort), then hold the entries under the cap."""
    cap = cap_bytes()
    if key is None or cap == 0:
        return
    table = copyreg.dispatch_table.copy()
    table[LazySpan] = _reduce_span  # offsets only: the origin map is this process's, bound again on loading

    def pickler(stream: io.BytesIO) -> pickle.Pickler:
        p = pickle.Pickler(stream, pickle.HIGHEST_PROTOCOL)
        p.dispatch_table = table
        return p

    try:
        cache.store(_name(key), key, (tree, diagnostics), pickler)
        evict(cap)
    except Exception:  # noqa: BLE001 - never let the cache stop a run
        pass


def evict(cap: int) -> None:
    """Delete the least recently used entries until the rest fit in `cap` bytes."""
    folder = cache.cache_dir()
    if folder is None:
        return
    entries = []
    try:
        with os.scandir(folder) as it:
            for e in it:
                if e.name.startswith(_PREFIX) and e.name.endswith(_SUFFIX):
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    entries.append((st.st_mtime, st.st_size, e.path))
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= cap:
            break
        try:
            os.unlink(path)
        except OSError:  # another process deleted it first
            pass
        total -= size
