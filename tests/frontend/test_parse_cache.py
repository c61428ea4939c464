"""Parsed sources kept across processes (frontend/parse_cache.py): a later load of the same preprocessed text gets
the tree the first one built, with the same spans and diagnostics, without parsing; another text, another line map,
another version of the parser's code, or a damaged entry is a miss and parses."""

from __future__ import annotations

import ast as pyast
import dataclasses
from pathlib import Path

import pytest

from frontend import ast as A
from frontend import parse_cache, pipeline
from frontend.parser import get_parser
from frontend.readers import read_input

KERNEL = """#include "helper.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    int a = Twice(3);
    int b = a +;
}
"""
HELPER = "__aicore__ inline int Twice(int v) { return v * 2; }\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    get_parser()  # the parser built (or loaded) from the usual folder: only the parse cache starts empty
    folder = tmp_path / "cache"
    monkeypatch.setenv("ASCENDIR_CACHE_DIR", str(folder))
    monkeypatch.delenv("ASCENDIR_PARSE_CACHE_MB", raising=False)
    return folder


@pytest.fixture
def parses(monkeypatch):
    """The names of the sources parsed (not answered from a cache) from here on."""
    names: list[str] = []
    real = pipeline.get_parser

    class Counting:
        def parse(self, text, name, origin=None):  # type: ignore[no-untyped-def]
            names.append(Path(name).name)
            return real().parse(text, name, origin)

    monkeypatch.setattr(pipeline, "get_parser", lambda: Counting())
    return names


def _write(folder: Path, kernel: str = KERNEL, helper: str = HELPER) -> str:
    folder.mkdir(exist_ok=True)
    (folder / "helper.h").write_text(helper)
    (folder / "k.cpp").write_text(kernel)
    return str(folder / "k.cpp")


def _spans(node: object, out: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    if isinstance(node, A.Node):
        s = node.span
        out.append((type(node).__name__, s.file, s.line, s.col, s.end_line, s.end_col))
        for f in dataclasses.fields(node):
            if f.name != "span":
                _spans(getattr(node, f.name), out)
    elif isinstance(node, (list, tuple)):
        for item in node:
            _spans(item, out)
    return out


def _load(path: str) -> pipeline.ParsedUnit:
    # a new bundle each time: the in-process reuse (test_reparse_same_text.py) is per bundle
    return pipeline.load_bundle(read_input(path)).units[0]


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("parsed-*.pickle"))


def test_a_hit_gives_an_equal_tree_with_equal_spans(cache_dir, tmp_path, parses):
    path = _write(tmp_path / "src")
    first = _load(path)
    assert parses == ["k.cpp"] and len(_entries(cache_dir)) == 1
    second = _load(path)
    assert parses == ["k.cpp"]  # not parsed again
    assert second.ast is not first.ast
    assert A.dump(second.ast) == A.dump(first.ast)
    assert _spans(second.ast, []) == _spans(first.ast, [])
    assert any(s[1].endswith("helper.h") for s in _spans(second.ast, []))  # spans through the include
    assert second.diagnostics == first.diagnostics
    assert any(d.is_error for d in second.diagnostics)  # `a +;`


def test_another_text_include_or_line_map_misses(cache_dir, tmp_path, parses):
    path = _write(tmp_path / "src")
    _load(path)
    _write(tmp_path / "src", KERNEL.replace("Twice(3)", "Twice(4)"))
    _load(path)
    assert parses == ["k.cpp", "k.cpp"]
    _write(tmp_path / "src", KERNEL.replace("Twice(3)", "Twice(4)"), HELPER.replace("v * 2", "v * 3"))
    _load(path)
    assert parses == ["k.cpp"] * 3
    # the same tokens two lines lower in the header: whatever the text, the spans must be the new ones
    shifted = "// one\n// two\n" + HELPER.replace("v * 2", "v * 3")
    _write(tmp_path / "src", KERNEL.replace("Twice(3)", "Twice(4)"), shifted)
    moved = _load(path)
    lines = {s[2] for s in _spans(moved.ast, []) if s[1].endswith("helper.h")}
    assert min(lines) == 3 and len(parses) == 4


def test_the_key_covers_the_line_map_and_the_placement():
    """The same text from other lines (another map) or placed elsewhere in its answer must not get the old spans."""
    args = (("k.cpp", "k.cpp", 0, 0), "int a;\n", [0], [("k.cpp", 1, 1, 0, None)], ["k.cpp"], (), ())
    base = parse_cache.unit_key(*args)
    assert base is not None and base == parse_cache.unit_key(*args)
    other_line = (*args[:3], [("k.cpp", 3, 1, 0, None)], *args[4:])
    other_origin = (*args[:2], [0, 4], [("k.cpp", 1, 1, 0, None), ("k.cpp", 1, 5, 0, None)], *args[4:])
    placed = (*args[:6], [("k.cpp", ("answer.md", 10, 0))])
    finding = (*args[:5], ("ASC001 something",), ())
    keys = {parse_cache.unit_key(*a) for a in (other_line, other_origin, placed, finding)}
    assert len(keys) == 4 and base not in keys


def test_a_new_version_of_the_parser_code_misses(cache_dir, tmp_path, parses, monkeypatch):
    path = _write(tmp_path / "src")
    _load(path)
    monkeypatch.setattr(parse_cache, "_code_key", b"another version of the parser" + bytes(3))
    _load(path)
    assert parses == ["k.cpp", "k.cpp"]
    assert len(_entries(cache_dir)) == 2


def test_the_code_key_follows_every_key_file(monkeypatch):
    before = parse_cache.code_key()
    root = Path(parse_cache.__file__).parent
    files = sorted({p for pattern in parse_cache.KEY_FILES for p in root.glob(pattern)})
    read_bytes = Path.read_bytes
    for f in (root / "grammar.lark", root / "parser_exprs.py", root / "ast" / "expressions.py"):
        assert f in files
        monkeypatch.setattr(parse_cache, "_code_key", None)
        monkeypatch.setattr(Path, "read_bytes", lambda self, m=f: read_bytes(self) + (b"#" if self == m else b""))
        assert parse_cache.code_key() != before, f.name
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(parse_cache, "_code_key", None)
    assert parse_cache.code_key() == before


def test_key_files_cover_every_frontend_module_the_parser_imports():
    """An edit to a module the parser uses must change the key, or a stale tree would come back."""
    root = Path(parse_cache.__file__).parent
    covered = {p.relative_to(root).as_posix() for pattern in parse_cache.KEY_FILES for p in root.glob(pattern)}

    def module_file(name: str) -> str | None:
        rel = name.split(".")[1:]
        for candidate in (Path(*rel).with_suffix(".py") if rel else None, Path(*rel, "__init__.py")):
            if candidate is not None and (root / candidate).is_file():
                return candidate.as_posix()
        return None

    todo, seen = ["parser.py"], set()
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        for node in pyast.walk(pyast.parse((root / rel).read_text())):
            names: list[str] = []
            if isinstance(node, pyast.ImportFrom) and node.module and node.module.startswith("frontend"):
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, pyast.Import):
                names = [a.name for a in node.names if a.name.startswith("frontend")]
            for name in names:
                found = module_file(name)
                if found is not None and found != "__init__.py":
                    todo.append(found)
    seen.discard("cache.py")  # where the parser's own tables are kept: not what a tree is built by
    assert seen - covered == set()


def test_a_damaged_entry_misses_and_is_replaced(cache_dir, tmp_path, parses):
    path = _write(tmp_path / "src")
    reference = A.dump(_load(path).ast)
    [entry] = _entries(cache_dir)
    blob = entry.read_bytes()
    entry.write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
    assert A.dump(_load(path).ast) == reference
    assert parses == ["k.cpp", "k.cpp"]
    assert entry.read_bytes() == blob  # stored again
    entry.write_bytes(b"garbage")
    assert A.dump(_load(path).ast) == reference and len(parses) == 3


def test_the_entries_stay_under_the_cap(cache_dir, tmp_path, parses, monkeypatch):
    path = _write(tmp_path / "src")
    _load(path)
    [entry] = _entries(cache_dir)
    monkeypatch.setenv("ASCENDIR_PARSE_CACHE_MB", str(1.5 * entry.stat().st_size / 2**20))
    for n in range(4, 7):
        _write(tmp_path / "src", KERNEL.replace("Twice(3)", f"Twice({n})"))
        _load(path)
    kept = _entries(cache_dir)
    assert len(kept) == 1 and entry not in kept  # the newest only: the least recently used went first
    monkeypatch.setenv("ASCENDIR_PARSE_CACHE_MB", "0")  # off: nothing read or written
    _load(path)
    assert len(parses) == 5 and _entries(cache_dir) == kept


def test_a_cache_that_cannot_be_written_only_means_parsing(tmp_path, monkeypatch, parses):
    get_parser()
    monkeypatch.delenv("ASCENDIR_PARSE_CACHE_MB", raising=False)
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ASCENDIR_CACHE_DIR", str(blocked / "cache"))
    path = _write(tmp_path / "src")
    assert A.dump(_load(path).ast) == A.dump(_load(path).ast)
    assert parses == ["k.cpp", "k.cpp"]
