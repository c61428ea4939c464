"""The frontend's tests exercise the parser itself: a tree answered from the cross-process parse cache
(frontend/parse_cache.py, filled by an earlier run) would make their counts of parses and of Lark fallbacks
vacuous. The cache is off here; test_parse_cache.py turns it on in a folder of its own."""

import pytest


@pytest.fixture(autouse=True)
def _no_parse_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASCENDIR_PARSE_CACHE_MB", "0")
