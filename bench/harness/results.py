"""Results as JSONL: one verdict per line, appended (and flushed to disk) as each answer finishes.

A run that is interrupted (killed, a machine lost) resumes from the file: the verdicts already there are kept
and their answers are not run again; a last line cut off mid-write is dropped (and cut from the file) so the
answer it belonged to runs again. The key of a line is the answer's identity (suite, task, case, sample and a
hash of the answer's content), so an answer edited since is evaluated anew.

The options that change verdicts (the suite and its checkout, the chip, --max-elements, the budgets, the binding
replay, ...) are the file's first line, `{"results_options": {...}}`, where the run names them (ResultStore's
`options`): a run with other options refuses to resume from it (OptionsDiffer) instead of mixing verdicts made
under both, and so does one given a file of verdicts without that line (written before options were stored).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from bench.harness.verdict import Verdict


HEADER = "results_options"  # the key of the options line


class OptionsDiffer(Exception):
    """A results file written under other options than this run's: resuming would mix the two runs' verdicts.
    `recorded` is False for a file that does not say its options (no run can resume it: the CLI does not offer it)."""

    def __init__(self, message: str, recorded: bool = True) -> None:
        super().__init__(message)
        self.recorded = recorded

    def advice(self, results_flag: str) -> str:
        """What a script can do instead, for a file whose options differ (only a recorded file can be resumed)."""
        resume = "rerun with that file's options to resume it, or " if self.recorded else ""
        return f"{resume}give another {results_flag} file"


class ResultStore:
    """Verdicts of one run on disk, keyed by answer. With `options` (JSON data: what changes a verdict), the file
    records them and a file recorded under others is refused (OptionsDiffer, raised here)."""

    def __init__(self, path: str | Path, options: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.verdicts: dict[str, Verdict] = {}
        self._fh: IO[str] | None = None
        # through JSON, as the file holds them: tuples are lists, paths strings
        self.options = json.loads(json.dumps(options, sort_keys=True, default=str)) if options is not None else None
        self._stored: dict[str, Any] | None = None  # the file's options line
        self._load()
        if self.options is not None:
            self._check()

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
                record = json.loads(raw)
                if good_end == 0 and isinstance(record, dict) and HEADER in record:
                    self._stored = record[HEADER]
                    good_end = end
                    continue
                verdict = Verdict.from_json(record)
            except (ValueError, TypeError, KeyError):
                break
            self.verdicts[verdict.key] = verdict
            good_end = end
        if good_end != len(data):
            with open(self.path, "r+b") as fh:
                fh.truncate(good_end)

    def _check(self) -> None:
        """Refuse a file whose verdicts were made under other options (or under options it does not record)."""
        assert self.options is not None
        if not self.verdicts:
            if self._stored is not None and self._stored != self.options:
                self.path.write_bytes(b"")  # only an options line: nothing to mix, this run's options replace it
                self._stored = None
            return
        if self._stored is None:
            count = len(self.verdicts)
            raise OptionsDiffer(f"{self.path} holds {count} verdict{'s' * (count != 1)} but not the options "
                                f"{'they were' if count != 1 else 'it was'} made with (a file written before results "
                                "files recorded them), so resuming could mix verdicts made under other options",
                                recorded=False)
        differ = [f"{name}: {_shown(self._stored, name)} in the file, {_shown(self.options, name)} now"
                  for name in sorted(set(self._stored) | set(self.options))
                  if self._stored.get(name, _UNSET) != self.options.get(name, _UNSET)]
        if differ:
            raise OptionsDiffer(f"{self.path} was written with other options than this run's ({'; '.join(differ)}): "
                                "resuming would mix verdicts made under both")

    def __contains__(self, key: str) -> bool:
        return key in self.verdicts

    def __len__(self) -> int:
        return len(self.verdicts)

    def add(self, verdict: Verdict) -> None:
        """Append one verdict and make it durable before returning."""
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "a", encoding="utf-8")
            if self.options is not None and self._stored is None:  # a new file (or one cut back to nothing)
                self._fh.write(json.dumps({HEADER: self.options}, sort_keys=True) + "\n")
                self._stored = self.options
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


_UNSET = object()


def _shown(options: dict[str, Any], name: str) -> str:
    return json.dumps(options[name]) if name in options else "not recorded"
