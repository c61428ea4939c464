"""The Rust crate is built by maturin and importable from Python."""

import pytest

import rust_sim


def test_version_matches_the_crate() -> None:
    assert rust_sim.version() == "0.1.0"


def test_align_up_runs_in_rust() -> None:
    assert rust_sim.align_up(100, 32) == 128
    assert rust_sim.align_up(64, 32) == 64


def test_rust_errors_become_python_exceptions() -> None:
    with pytest.raises(ValueError, match="alignment must be positive"):
        rust_sim.align_up(1, 0)
