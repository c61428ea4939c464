"""Pickled snapshots of objects that are slow to build (the parser's tables, the API catalog), kept in the
cache folder the parser already uses for Lark's grammar cache: $ASCENDIR_CACHE_DIR, else
<tempdir>/ascendir-cache.

A snapshot is only ever read back from a file this process's user wrote, in a folder only that user can
write to, with the key it was stored under and an intact checksum; anything else (a missing, stale,
truncated or foreign file, an unpickling error) reads as "no snapshot" and the caller builds the object
the slow way (and stores a fresh snapshot). Writes go to a temporary file renamed into place, so a
concurrent reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from typing import Any

_MAGIC = b"ascendir-snapshot 1\n"
_DIGEST = 32  # sha256


def cache_dir() -> str | None:
    """The cache folder (created on first use), or None if it cannot be created."""
    import tempfile

    base = os.environ.get("ASCENDIR_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "ascendir-cache")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return base


def key_of(*parts: bytes | str) -> bytes:
    """A cache key: the parts, the Python build and the pickle protocol, hashed."""
    h = hashlib.sha256()
    for part in (sys.version, str(pickle.HIGHEST_PROTOCOL), *parts):
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def _ours(st: os.stat_result, folder: bool) -> bool:
    """Written by this user and not writable by anyone else (always true where there are no uids)."""
    getuid = getattr(os, "geteuid", None)
    if getuid is None:  # pragma: no cover - not POSIX
        return True
    if st.st_uid != getuid():
        return False
    return not (st.st_mode & 0o022) if folder else True


def read(name: str, key: bytes) -> bytes | None:
    """The bytes stored under `name` with `key`, if this user wrote them and they are intact; else None."""
    folder = cache_dir()
    if folder is None:
        return None
    path = os.path.join(folder, name)
    try:
        if not _ours(os.stat(folder), True):
            return None
        with open(path, "rb") as fh:
            if not _ours(os.fstat(fh.fileno()), False):
                return None
            blob = fh.read()
    except OSError:
        return None
    head = len(_MAGIC) + 2 * _DIGEST
    if len(blob) < head or not blob.startswith(_MAGIC) or blob[len(_MAGIC) : len(_MAGIC) + _DIGEST] != key:
        return None
    payload = blob[head:]
    if hashlib.sha256(payload).digest() != blob[head - _DIGEST : head]:
        return None
    return payload


def write(name: str, key: bytes, payload: bytes) -> None:
    """Store `payload` under `name` with `key` (best effort: a failure only means no snapshot next time)."""
    folder = cache_dir()
    if folder is None:
        return
    import tempfile

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            fh.write(_MAGIC + key + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, os.path.join(folder, name))
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def load(name: str, key: bytes, unpickler: Callable[[Any], pickle.Unpickler] | None = None) -> Any | None:
    """The object pickled under `name` with `key`, or None. `unpickler(file)` makes the Unpickler (to
    resolve persistent ids); the default is pickle.Unpickler."""
    payload = read(name, key)
    if payload is None:
        return None
    import io

    enabled = gc.isenabled()
    gc.disable()  # a snapshot is many small objects and no cycles to collect: do not scan them as they come
    try:
        return (unpickler or pickle.Unpickler)(io.BytesIO(payload)).load()
    except Exception:  # noqa: BLE001 - any damage reads as "no snapshot"
        return None
    finally:
        if enabled:
            gc.enable()


def store(name: str, key: bytes, obj: Any, pickler: Callable[[Any], pickle.Pickler] | None = None) -> None:
    """Pickle `obj` under `name` with `key` (best effort). `pickler(file)` makes the Pickler (to write
    persistent ids); the default is pickle.Pickler."""
    import io

    try:
        stream = io.BytesIO()
        (pickler or (lambda f: pickle.Pickler(f, pickle.HIGHEST_PROTOCOL)))(stream).dump(obj)
    except Exception:  # noqa: BLE001 - something in obj does not pickle: no snapshot
        return
    write(name, key, stream.getvalue())


# ------------------------------------------------------------------ compiled dataclass methods

_CODE_NAME = "dataclass-code.marshal"
_CODE_LIMIT = 20_000  # entries; a process that makes dataclasses on the fly must not grow the file forever


class _CodeCache:
    """compile() memoised by source text, across processes: dataclasses writes the source of every
    __init__, __repr__, __eq__, ... of every dataclass and exec()s it, and compiling those few thousand
    small functions is a fifth of a cold start. The same source compiles to the same code object (same
    file name "<string>", no inherited future flags), so exec'ing a cached one is exec'ing the text."""

    def __init__(self, module: Any) -> None:
        import builtins
        import marshal

        self.module = module
        self.exec_ = builtins.exec
        self.key = key_of("dataclass-code", getattr(module, "__file__", None) or "")
        self.codes: dict[str, Any] = {}
        payload = read(_CODE_NAME, self.key)
        if payload is not None:
            try:
                codes = marshal.loads(payload)
            except Exception:  # noqa: BLE001 - damaged: start over
                codes = None
            if isinstance(codes, dict):
                self.codes = codes
        self.added = 0

    def __call__(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        if type(source) is str:
            code = self.codes.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                if len(self.codes) < _CODE_LIMIT:
                    self.codes[source] = code
                    self.added += 1
            source = code
        if globals is None:  # exec(text, None, ns) runs in the caller's globals: the module's
            globals = vars(self.module)
        if locals is None:
            locals = globals
        self.exec_(source, globals, locals)

    def save(self) -> None:
        if self.added:
            import marshal

            self.added = 0
            try:
                write(_CODE_NAME, self.key, marshal.dumps(self.codes))
            except ValueError:  # something unmarshallable: no cache
                pass


def install_dataclass_code_cache() -> None:
    """Route dataclasses' exec() of generated methods through the cross-process code cache (once per
    process; saved at exit when it learnt something). For command-line entry points, before the imports
    that define dataclasses."""
    import dataclasses

    if isinstance(vars(dataclasses).get("exec"), _CodeCache) or os.environ.get("ASCENDIR_NO_CODE_CACHE"):
        return
    try:
        cache = _CodeCache(dataclasses)
    except Exception:  # noqa: BLE001 - never let a cache stop the program
        return
    dataclasses.exec = cache  # type: ignore[attr-defined]  # a module global shadows the builtin
    import atexit

    atexit.register(cache.save)
