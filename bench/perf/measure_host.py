"""What the perf scripts record about the machine a measurement ran on and how it ran: the process pinned to one
CPU (the figures of a 2-core machine shared with other sessions move less), the CPU's model, and the line count
the throughput figures divide by."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def pin(cpu: int | None) -> str:
    """Pin this process to `cpu` (None: leave it); returns a description of what happened."""
    if cpu is None:
        return "not pinned"
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no os.sched_setaffinity on this platform)"
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        return f"not pinned ({exc})"
    return f"cpu {cpu}"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def lines_of(text: str) -> int:
    """Lines of `text`, a last line without a newline included."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)
