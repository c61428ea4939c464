"""The catalog's pickled snapshot (load_catalog) is keyed by the data files and by the code that turns them
into a Catalog. That code is loader.py and the modules it was split into (tables.py, build_*.py, ...): an edit
to any of them must give a new key, or a stale snapshot built by the old code would be loaded."""

from __future__ import annotations

import sys
from pathlib import Path

from ascendir.catalog import loader


def test_the_snapshot_key_covers_every_module_the_build_runs(monkeypatch) -> None:  # noqa: ANN001
    here = Path(loader.__file__).parent
    # the catalog's own modules that building a Catalog imports (resolve.py and __init__.py only read one)
    used = {Path(m.__file__).name for name, m in list(sys.modules.items())
            if name.startswith("ascendir.catalog.") and getattr(m, "__file__", None)
            and Path(m.__file__).parent == here and name != "ascendir.catalog.resolve"}
    assert {"loader.py", "tables.py", "build_types.py", "build_apis.py", "build_rules.py", "errors.py"} <= used
    before = loader._snapshot_key(loader.DATA_DIR)
    read_bytes = Path.read_bytes
    for name in sorted(used):
        module = here / name
        monkeypatch.setattr(Path, "read_bytes", lambda self, m=module: read_bytes(self) + (b"#" if self == m else b""))
        assert loader._snapshot_key(loader.DATA_DIR) != before, f"an edit to {name} keeps the snapshot's key"
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert loader._snapshot_key(loader.DATA_DIR) == before
