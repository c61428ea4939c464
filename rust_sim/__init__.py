"""Python face of the Rust NPU simulator (built by maturin as ``rust_sim._sim``)."""

from rust_sim._sim import align_up, version

__all__ = ["align_up", "version"]
