"""ASC965 (race.rs): what the pipe race finding says, and how severe it is.

A pipe-to-pipe race (MTE2 -> V with no flag) is an error; a scalar-side one (a GetValue of a tile MTE2 copied in)
is a warning, because the compiler's --cce-auto-sync inserts those syncs where it can follow the tensor.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ascendir.sim import run
from tests.rust_sim.test_sim_checks import CHECKS, launch, simulate


def races(name: str) -> list:
    result = simulate(CHECKS / name, bug=True)
    return [d for d in result.findings if d.code == "ASC965"]


def test_a_vector_read_of_bytes_mte2_writes_is_an_error_naming_both_lines() -> None:
    (race,) = races("pipe_race_vector.cpp")
    assert race.severity.value == "error"
    assert race.span.line == 22
    assert "Muls on PIPE_V writes bytes [0, 1024) of UB" in race.message  # in place: dst is checked first
    assert "PIPE_MTE2 wrote at " in race.message and f"{Path('pipe_race_vector.cpp')}:16:" in race.message
    assert "HardEvent::MTE2_V" in race.message


def test_a_scalar_read_after_a_deque_is_a_warning() -> None:
    (race,) = races("pipe_race.cpp")
    assert race.severity.value == "warning"
    assert "GetValue on PIPE_S reads" in race.message and "HardEvent::MTE2_S" in race.message
    assert any("cce-auto-sync" in n.message for n in race.notes)


def test_a_write_of_the_bytes_already_there_is_a_warning_and_of_new_bytes_an_error() -> None:
    # catlass's bias-table pipeline rewrites the same bias under an Mmad that read it: no order changes a value
    path = CHECKS / "pipe_race_same_bytes.cpp"
    (same,) = races("pipe_race_same_bytes.cpp")
    assert same.severity.value == "warning"
    assert "Duplicate on PIPE_V writes bytes [0, 1024) of UB" in same.message and "PIPE_MTE3 read" in same.message
    assert any("the very bytes that were there" in n.message for n in same.notes)
    opts = launch(path)
    new = run(str(path), {"x": np.zeros(256, np.float32)}, block_dim=1, tiling=opts["tiling"],
              outputs={"y": ((512,), "float32")}, defines={"SIM_BUG": "1", "SIM_NEW_VALUE": "1"})
    (changed,) = [d for d in new.findings if d.code == "ASC965"]
    assert changed.severity.value == "error"
    assert not any("the very bytes" in n.message for n in changed.notes)
