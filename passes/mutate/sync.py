"""Synchronisation bugs: flags between pipes dropped or mismatched, barriers removed."""

from __future__ import annotations

import re
from collections.abc import Iterator

from passes.mutate.lines import Site, code_lines, drop_matching, replaced
from passes.mutate.model import Operator

SETFLAG = re.compile(r"^\s*(AscendC::)?SetFlag\s*<[^;]*>\s*\([^;]*\)\s*;\s*(//.*)?$")
WAITFLAG = re.compile(r"^\s*(AscendC::)?WaitFlag\s*<[^;]*>\s*\([^;]*\)\s*;\s*(//.*)?$")
BARRIER = re.compile(r"^\s*(AscendC::)?PipeBarrier\s*<\s*PIPE_(V|ALL|MTE2|MTE3)\s*>\s*\(\s*\)\s*;\s*(//.*)?$")
_EVENT = re.compile(r"HardEvent::([A-Z0-9]+)_([A-Z0-9]+)\b")


def _reverse_set_event(lines: list[str]) -> Iterator[Site]:
    """`SetFlag<HardEvent::MTE2_V>(id)` -> `SetFlag<HardEvent::V_MTE2>(id)`: the producer and consumer pipes
    swapped, so the matching WaitFlag waits for an event nobody sets and the set one is never waited for."""
    for i in code_lines(lines):
        if not SETFLAG.match(lines[i]):
            continue
        match = _EVENT.search(lines[i])
        if match and match.group(1) != match.group(2):
            new = lines[i][:match.start(1)] + f"{match.group(2)}_{match.group(1)}" + lines[i][match.end(2):]
            yield i, replaced(lines, i, new)


SYNC_OPERATORS = [
    Operator("drop-setflag", ("ASC7",), "a SetFlag statement deleted", drop_matching(SETFLAG), "sync_missing",
             "every WaitFlag needs the SetFlag of the same (event, id) on the producing pipe before it, or the "
             "consumer pipe waits forever"),
    Operator("drop-waitflag", ("ASC7",), "a WaitFlag statement deleted", drop_matching(WAITFLAG), "sync_missing",
             "wait for the producing pipe's flag before using its result (and consume every flag that is set)"),
    Operator("reverse-set-event", ("ASC7",), "a SetFlag's HardEvent with producer and consumer swapped",
             _reverse_set_event, "sync_missing",
             "name the HardEvent from the producing pipe to the consuming one (MTE2_V: MTE2 writes, V reads), the "
             "same event the WaitFlag names"),
    Operator("drop-barrier", ("ASC7",), "a PipeBarrier<PIPE_V/PIPE_ALL/...> statement deleted", drop_matching(BARRIER),
             "sync_missing", "keep the barrier between a pipe's instructions that read what an earlier one wrote; "
             "without it they overlap and read stale data"),
]
