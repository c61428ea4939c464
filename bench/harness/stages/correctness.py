"""Stage 3, correctness: every case of the answer on the simulator, outputs against the reference.

The simulator (`ascendir.sim`, issue 28) runs the compiled answer on the task's chip with the drawn inputs; its
outputs are compared with the reference's under the task's tolerance, and its dynamic findings are kept.
Until that module exists, cases are checked statically only and the verdict says they were not simulated.
"""

from __future__ import annotations

from typing import Any


class SimulatorUnavailable(RuntimeError):
    """ascendir.sim is not importable here (the simulator has not landed, or its extension is not built)."""


def simulator() -> Any:
    """The simulator's Python API, or SimulatorUnavailable with the reason."""
    try:
        from ascendir import sim  # type: ignore[attr-defined]
    except ImportError as exc:
        raise SimulatorUnavailable(f"not simulated: the simulator is not available ({exc})") from None
    return sim


def simulator_available() -> bool:
    try:
        simulator()
    except SimulatorUnavailable:
        return False
    return True
