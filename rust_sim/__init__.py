"""Python face of the Rust NPU simulator (built by maturin as ``rust_sim._sim``).

`run` takes a program text (rust_sim/PROGRAM.md) and the GM buffers; most callers want `passes.sim.run`,
which builds both from a kernel's source.
"""

from rust_sim._sim import align_up, check_program, run, supported_calls, version

__all__ = ["align_up", "check_program", "run", "supported_calls", "version"]
