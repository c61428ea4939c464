"""The snapshot cache (frontend/cache.py): the parser and catalog snapshots load back to objects that
behave like freshly built ones, and a damaged, stale or foreign cache file only means a rebuild."""

from __future__ import annotations

import dataclasses
import os
import textwrap

import pytest

from frontend import ast as A
from frontend import cache
from frontend import parser as P


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("ASCENDIR_CACHE_DIR", str(d))
    return d


SOURCE = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;
    template <typename T> class K {
    public:
        __aicore__ inline void Init(GM_ADDR x) { xGm.SetGlobalBuffer((__gm__ T*)x, 16); }
        __aicore__ inline void Run() { LocalTensor<T> t = q.AllocTensor<T>(); DataCopy(t, xGm, 16); }
    private:
        TQue<QuePosition::VECIN, 1> q; GlobalTensor<T> xGm;
    };
    extern "C" __global__ __aicore__ void k(GM_ADDR x) { K<half> op; op.Init(x); op.Run(); }
""")
BROKEN = SOURCE.replace("DataCopy(t, xGm, 16);", "DataCopy(t, xGm, 16) @;")


def _parse(parser: P.Parser, text: str) -> tuple[str, list[tuple[str, str]]]:
    result = parser.parse(text, "k.cpp")
    return A.dump(result.unit, with_spans=True), [(d.code, d.message) for d in result.diagnostics]


def test_round_trip_and_key(cache_dir):
    key = cache.key_of("a", b"b")
    assert cache.load("x.pickle", key) is None
    cache.store("x.pickle", key, {"v": [1, 2]})
    assert cache.load("x.pickle", key) == {"v": [1, 2]}
    assert cache.load("x.pickle", cache.key_of("a", b"c")) is None  # stale key
    assert not [p for p in os.listdir(cache_dir) if p.startswith(".")]  # no temporary files left


def test_damaged_or_foreign_files_read_as_missing(cache_dir):
    key = cache.key_of("k")
    cache.store("x.pickle", key, list(range(100)))
    path = cache_dir / "x.pickle"
    blob = path.read_bytes()
    path.write_bytes(blob[:-7])  # truncated
    assert cache.load("x.pickle", key) is None
    path.write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))  # one bit flipped
    assert cache.load("x.pickle", key) is None
    path.write_bytes(b"garbage")
    assert cache.load("x.pickle", key) is None
    path.write_bytes(blob)
    assert cache.load("x.pickle", key) == list(range(100))
    os.chmod(cache_dir, 0o777)  # a folder others can write to is not trusted
    try:
        assert cache.load("x.pickle", key) is None
    finally:
        os.chmod(cache_dir, 0o700)


def test_parser_snapshot_parses_like_a_fresh_parser(cache_dir):
    built = P.Parser()  # no snapshot yet: builds and stores one
    assert (cache_dir / P._SNAPSHOT_NAME).is_file()
    loaded = P.Parser()
    assert loaded._lark is not built._lark
    assert loaded._lark.options.transformer is loaded._builder
    assert loaded._fast is not None
    for text in (SOURCE, BROKEN):
        assert _parse(loaded, text) == _parse(built, text)
        loaded._fast, saved = None, loaded._fast  # Lark's own driver on the unpickled tables
        built._fast, saved_built = None, built._fast
        try:
            assert _parse(loaded, text) == _parse(built, text)
        finally:
            loaded._fast, built._fast = saved, saved_built
    assert _parse(loaded, BROKEN)[1]  # the broken text does report an error


def test_damaged_parser_snapshot_is_rebuilt(cache_dir):
    reference = _parse(P.Parser(), SOURCE)
    path = cache_dir / P._SNAPSHOT_NAME
    path.write_bytes(path.read_bytes()[:1000])
    assert _parse(P.Parser(), SOURCE) == reference
    assert path.stat().st_size > 1000  # stored again


def test_parser_snapshot_key_covers_every_parser_module(monkeypatch):
    """Which grammar rules get a callback depends on AstBuilder's methods, which live in parser.py and its
    parser_*.py mixins (parser_exprs.py, ...): an edit to any of them gives the pickled parser a new key, or a
    stale snapshot would keep the old set of callbacks."""
    from pathlib import Path

    from frontend import parser_lark

    modules = sorted(Path(parser_lark.__file__).parent.glob("parser*.py"))
    assert {"parser.py", "parser_decls.py", "parser_exprs.py", "parser_types.py"} <= {m.name for m in modules}
    before = parser_lark._snapshot_key()
    read_bytes = Path.read_bytes
    for module in modules:
        monkeypatch.setattr(Path, "read_bytes", lambda self, m=module: read_bytes(self) + (b"#" if self == m else b""))
        assert parser_lark._snapshot_key() != before, f"an edit to {module.name} keeps the snapshot's key"
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert parser_lark._snapshot_key() == before


def test_catalog_snapshot_matches_the_toml(cache_dir):
    from ascendir.catalog import loader

    built = loader.build_catalog()
    loader.load_catalog.cache_clear()
    try:
        first = loader.load_catalog()  # builds, stores
        loader.load_catalog.cache_clear()
        second = loader.load_catalog()  # from the snapshot
        assert (cache_dir / loader._SNAPSHOT_NAME).is_file()
        for got in (first, second):
            for f in dataclasses.fields(built):  # (set reprs depend on insertion order: compare values)
                assert getattr(got, f.name) == getattr(built, f.name), f.name
            assert dict(got._by_key).keys() == dict(built._by_key).keys()
            assert all(got._by_key[(a.receiver, a.name)] is a for a in got.apis)
        assert type(second.structs) is type(built.structs)
    finally:
        loader.load_catalog.cache_clear()


def test_dataclass_code_cache(cache_dir, monkeypatch):
    code_cache = cache._CodeCache(dataclasses)
    source = "def __create_fn__():\n def f(self):\n  return 42\n return f"
    ns: dict[str, object] = {}
    code_cache(source, {}, ns)
    assert ns["__create_fn__"]()(None) == 42
    code_cache.save()
    again = cache._CodeCache(dataclasses)
    assert source in again.codes and again.added == 0

    monkeypatch.setattr(dataclasses, "exec", again, raising=False)

    def make() -> type:
        @dataclasses.dataclass(frozen=True, order=True)
        class Point:
            x: int
            y: list = dataclasses.field(default_factory=list)

        return Point

    first = make()
    learnt = again.added
    assert learnt > 0
    second = make()
    assert again.added == learnt  # the same generated methods: all from the cache
    for cls in (first, second):
        assert cls(1) == cls(1, []) and cls(1) < cls(2)
        assert repr(cls(1)).endswith("Point(x=1, y=[])")
        with pytest.raises(dataclasses.FrozenInstanceError):
            cls(1).x = 3
