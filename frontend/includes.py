"""Compile settings for the frontend: include search paths, macros and forced includes, as a compiler takes them.

Three places give them:
- the command line: `ascendc-check -I DIR -isystem DIR -D NAME -U NAME`;
- the `[tool.ascendc-check]` table of pyproject.toml (`include = [...]`, `compile-commands = "build"`);
- a `compile_commands.json` (the JSON compilation database CMake writes with `CMAKE_EXPORT_COMPILE_COMMANDS`,
  which clang-tidy and clangd read through `-p BUILD_DIR`): each source's own `-I`, `-isystem`, `-iquote`,
  `-D`, `-U` and `-include`.

Search order is the compilers' (GCC and clang agree): a quoted `#include "x.h"` looks next to the including
file, then in the `-iquote` folders, the `-I` folders in the order given, then the `-isystem` folders; an
angled `#include <x.h>` skips the first two. A header the vendor's toolchain ships (frontend.vendor) is never
read wherever it lies, and an angled include found in none of the folders is a system header, skipped silently
as before. Everything here is data: reading a database never runs what it names.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

COMPILE_COMMANDS = "compile_commands.json"


@dataclass(frozen=True)
class CompileFlags:
    """What one compile command says about a source, paths made absolute against the command's folder."""

    include_dirs: tuple[str, ...] = ()  # -I, in order
    system_dirs: tuple[str, ...] = ()  # -isystem, searched after the -I folders
    quote_dirs: tuple[str, ...] = ()  # -iquote, for quoted includes only, before the -I folders
    defines: tuple[tuple[str, str | None], ...] = ()  # -D NAME[=VALUE] (None: -U NAME), in command order
    forced_includes: tuple[str, ...] = ()  # -include FILE: read before the source's first line

    def then(self, later: CompileFlags) -> CompileFlags:
        """These flags followed by `later`'s: folders searched in this order, `later`'s macros winning."""
        if not later:
            return self
        if not self:
            return later
        return CompileFlags(_unique(self.include_dirs + later.include_dirs),
                            _unique(self.system_dirs + later.system_dirs),
                            _unique(self.quote_dirs + later.quote_dirs),
                            self.defines + later.defines, self.forced_includes + later.forced_includes)

    def define_map(self) -> dict[str, str | None]:
        """The macros as the preprocessor's `defines` table takes them (the last -D or -U of a name wins)."""
        out: dict[str, str | None] = {}
        for name, value in self.defines:
            out.pop(name, None)  # a later definition moves the name to the end, as its command-line place
            out[name] = value
        return out

    def __bool__(self) -> bool:
        return bool(self.include_dirs or self.system_dirs or self.quote_dirs or self.defines or self.forced_includes)


def _unique(paths: Iterable[str]) -> tuple[str, ...]:
    """Folders in order, each once (a compiler ignores a repeated -I)."""
    return tuple(dict.fromkeys(paths))


def _absolute(path: str, base: str) -> str:
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(base, path))


# Options whose value is a folder or file, spelt `-I DIR` or `-IDIR` (and `--include-directory=DIR`).
_PATH_OPTIONS = {"-I": "include_dirs", "-isystem": "system_dirs", "-iquote": "quote_dirs",
                 "-include": "forced_includes", "--include-directory": "include_dirs", "--include": "forced_includes"}
# Options that take a separate argument we do not use (so that it is not read as the source or a flag).
_SKIPPED_WITH_VALUE = frozenset({"-o", "-x", "-MF", "-MT", "-MQ", "-arch", "-target", "-Xclang", "-Xlinker",
                                 "-imacros", "-idirafter", "-isysroot", "--sysroot", "-L", "-l", "-std"})


def parse_command(arguments: list[str], directory: str) -> CompileFlags:
    """The frontend's flags among a compiler's `arguments` (argv[0] is the compiler), relative paths against
    `directory`. Unknown options are ignored, as clang-tidy does with flags its parser does not use."""
    found: dict[str, list[Any]] = {"include_dirs": [], "system_dirs": [], "quote_dirs": [], "defines": [],
                                   "forced_includes": []}
    i, n = 1, len(arguments)
    while i < n:
        arg = arguments[i]
        i += 1
        value: str | None = None
        kind: str | None = None
        for option, target in _PATH_OPTIONS.items():
            if arg == option:
                kind = target
                if i < n:
                    value, i = arguments[i], i + 1
                break
            if option.startswith("--") and arg.startswith(option + "="):
                kind, value = target, arg[len(option) + 1 :]
                break
            # `-Idir`; `-include` and `-isystem` begin with `-i` too, so only `-I` and `-iquote`/`-isystem`
            # themselves take a glued value
            if option in ("-I", "-isystem", "-iquote") and arg.startswith(option) and len(arg) > len(option):
                kind, value = target, arg[len(option) :]
                break
        if kind is not None:
            if value is not None:
                found[kind].append(_absolute(value, directory))
            continue
        if arg in ("-D", "-U") or (arg[:2] in ("-D", "-U") and len(arg) > 2):
            text = arg[2:] if len(arg) > 2 else (arguments[i] if i < n else "")
            if len(arg) == 2:
                i += 1
            if not text:
                continue
            if arg.startswith("-U"):
                found["defines"].append((text, None))
            else:
                name, eq, val = text.partition("=")
                found["defines"].append((name, val if eq else "1"))
            continue
        if arg in _SKIPPED_WITH_VALUE:
            i += 1
    return CompileFlags(_unique(found["include_dirs"]), _unique(found["system_dirs"]), _unique(found["quote_dirs"]),
                        tuple(found["defines"]), tuple(found["forced_includes"]))


class CompileDatabaseError(ValueError):
    """A compile_commands.json that cannot be read: the message names the file and what is wrong."""


@dataclass
class CompileDatabase:
    """A JSON compilation database: the flags of each source it lists, by absolute normalised path."""

    path: str
    entries: dict[str, CompileFlags] = field(default_factory=dict)

    def flags_for(self, source: str) -> CompileFlags | None:
        """The flags of `source`; for a file the database does not list (a header, a source added since the
        build was configured), those of the listed source nearest to it: the same folder first, then the one
        sharing the longest folder prefix, the guess clangd makes. None when the database lists nothing."""
        key = os.path.normpath(os.path.abspath(source))
        hit = self.entries.get(key)
        if hit is not None or not self.entries:
            return hit
        folder = os.path.dirname(key)

        def closeness(candidate: str) -> tuple[int, str]:
            common = os.path.commonpath([folder, os.path.dirname(candidate)])
            return (len(common), candidate)

        return self.entries[max(self.entries, key=closeness)]


def find_compile_commands(location: str) -> str:
    """The database file that `-p` names: a build folder holding compile_commands.json, or the file itself."""
    if os.path.isdir(location):
        return os.path.join(location, COMPILE_COMMANDS)
    return location


def read_compile_commands(location: str) -> CompileDatabase:
    """Read the database at `location` (a build folder or the JSON file). Raises CompileDatabaseError."""
    path = find_compile_commands(location)
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise CompileDatabaseError(f"{path}: cannot read the compilation database ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise CompileDatabaseError(f"{path}: not a JSON compilation database: {exc}") from None
    if not isinstance(data, list):
        raise CompileDatabaseError(f"{path}: a compilation database is a JSON list of commands")
    base = os.path.dirname(os.path.abspath(path))
    db = CompileDatabase(path)
    for index, entry in enumerate(data):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("file"), str):
            raise CompileDatabaseError(f"{path}: entry {index} has no \"file\"")
        directory = entry.get("directory")
        directory = _absolute(directory, base) if isinstance(directory, str) else base
        arguments = entry.get("arguments")
        if isinstance(arguments, list) and all(isinstance(a, str) for a in arguments):
            argv = list(arguments)
        elif isinstance(entry.get("command"), str):
            try:
                argv = shlex.split(entry["command"])
            except ValueError as exc:
                raise CompileDatabaseError(f"{path}: entry {index}: cannot split its \"command\": {exc}") from None
        else:
            raise CompileDatabaseError(f"{path}: entry {index} has neither \"arguments\" nor \"command\"")
        source = _absolute(entry["file"], directory)
        flags = parse_command(argv, directory)
        # a source compiled twice (two targets) is checked with its first command, as clangd picks one
        db.entries.setdefault(source, flags)
    return db
