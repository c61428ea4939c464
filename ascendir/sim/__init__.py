"""`ascendir.sim.run`: the name issues 28 and 29 give users for running a kernel on the simulator.

    import ascendir.sim
    result = ascendir.sim.run("examples/add_custom.cpp", {"x": x, "y": y}, block_dim=8, ...)

The simulator's entry lives in passes.sim (running a kernel needs the lowering and the passes, a layer above
ascendir); this module holds no code of its own and only forwards, importing passes.sim when first used, so
importing the IR packages never loads the passes. It is the one import up that tests/test_import_layers.py allows
(FACADES there): the project's own code calls passes.sim directly. See passes/sim/__init__.py for the arguments.
"""
from __future__ import annotations

from typing import Any

__all__ = ["run", "SimResult", "SimError", "DEFAULT_BUDGET"]


def run(source: Any, inputs: Any, attrs: Any = (), chip: str | None = None, **options: Any) -> Any:
    """Simulates one launch of `source` on `inputs`: passes.sim.run."""
    from passes.sim import run as _run

    return _run(source, inputs, attrs, chip, **options)


def __getattr__(name: str) -> Any:
    if name in ("SimResult", "SimError", "DEFAULT_BUDGET"):
        import passes.sim

        return getattr(passes.sim, name)
    raise AttributeError(name)
