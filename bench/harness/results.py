"""Results as JSONL: one verdict per line, appended (and flushed to disk) as each answer finishes.

A run that is interrupted (killed, a machine lost) resumes from the file: the verdicts already there are kept
and their answers are not run again; a last line cut off mid-write is dropped (and cut from the file) so the
answer it belonged to runs again. The key of a line is the answer's identity (suite, task, case, sample and a
hash of the answer's content), so an answer edited since is evaluated anew.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from bench.harness.verdict import Verdict


class ResultStore:
    """Verdicts of one run on disk, keyed by answer."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.verdicts: dict[str, Verdict] = {}
        self._fh: IO[str] | None = None
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        good_end = 0
        with open(self.path, "rb") as fh:
            data = fh.read()
        offset = 0
        for raw in data.splitlines(keepends=True):
            end = offset + len(raw)
            offset = end
            if not raw.endswith(b"\n"):
                break  # a line cut off mid-write: that answer runs again
            try:
                verdict = Verdict.from_json(json.loads(raw))
            except (ValueError, TypeError, KeyError):
                break
            self.verdicts[verdict.key] = verdict
            good_end = end
        if good_end != len(data):
            with open(self.path, "r+b") as fh:
                fh.truncate(good_end)

    def __contains__(self, key: str) -> bool:
        return key in self.verdicts

    def __len__(self) -> int:
        return len(self.verdicts)

    def add(self, verdict: Verdict) -> None:
        """Append one verdict and make it durable before returning."""
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "a", encoding="utf-8")
        self._fh.write(json.dumps(finite(verdict.to_json()), sort_keys=True, allow_nan=False, default=str) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.verdicts[verdict.key] = verdict

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def select(self, keys: Iterable[str]) -> list[Verdict]:
        """The stored verdicts of `keys`, in that order (those not stored are left out)."""
        return [self.verdicts[k] for k in keys if k in self.verdicts]


def finite(value: Any) -> Any:
    """`value` with every non-finite float written as its string ("inf", "nan"): JSON has no such numbers."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value
