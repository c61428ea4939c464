"""ASC965 (race.rs): what the pipe race finding says, and how severe it is.

Graded by what BiSheng's --cce-auto-sync (on by default) orders through a LocalTensor: a scalar-side race (a
GetValue of a tile MTE2 copied in) and a V <-> MTE2/MTE3 one on UB are warnings; MTE2 <-> MTE3 and the cube
pipes stay errors (race.rs, `compiler_orders`; the evidence is in bench/README.md's race-check section). The
V <-> MTE2/MTE3 grade changed from error to warning in session 7: the guide leaves that pair to the queues, but
hardware-passing kernels built with auto-sync (ops-nn's CrossEntropyLossGrad, three KernelHive finals) carry it
unflagged, and no KernelHive hardware failure was fixed by adding such a flag.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run
from tests.rust_sim.test_sim_checks import CHECKS, launch, simulate


def races(name: str) -> list:
    result = simulate(CHECKS / name, bug=True)
    return [d for d in result.findings if d.code == "ASC965"]


def test_a_vector_read_of_bytes_mte2_writes_is_a_warning_naming_both_lines() -> None:
    (race,) = races("pipe_race_vector.cpp")
    assert race.severity.value == "warning"
    assert race.span.line == 22
    assert "Muls on PIPE_V writes bytes [0, 1024) of UB" in race.message  # in place: dst is checked first
    assert "PIPE_MTE2 wrote at " in race.message and f"{Path('pipe_race_vector.cpp')}:16:" in race.message
    assert "HardEvent::MTE2_V" in race.message
    assert any("cce-auto-sync" in n.message for n in race.notes)
    assert any("leaves V <-> MTE2/MTE3 to the queues" in n.message for n in race.notes)


# a vector result copied out of a TBuf with no V -> MTE3 flag (CrossEntropyLossGrad's TargetWeightSum), and the
# same tile loaded by MTE2 and stored by MTE3 with no MTE2 -> MTE3 flag, which the compiler does not order
TBUF_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tbuf_out(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> tileBuf;
    pipe.InitBuffer(tileBuf, 256 * sizeof(float));
    LocalTensor<float> tile = tileBuf.Get<float>();
    DataCopy(tile, xGm, 256);
    event_t loaded = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(loaded);
    WaitFlag<HardEvent::MTE2_V>(loaded);
    STEP
    DataCopy(yGm, tile, 256);
}
"""


def tbuf_races(step: str) -> list:
    x = np.arange(256, dtype=np.float32)
    result = run(TBUF_KERNEL.replace("STEP", step), {"x": x}, block_dim=1, outputs={"y": ((256,), "float32")})
    return [f for f in result.findings if f.code == "ASC965"]


def test_a_vector_result_copied_out_with_no_flag_is_a_warning() -> None:
    (race,) = tbuf_races("Muls(tile, tile, 2.0f, 256);")
    assert race.severity.value == "warning"
    assert "DataCopy on PIPE_MTE3 reads" in race.message and "which PIPE_V wrote" in race.message
    assert "HardEvent::V_MTE3" in race.message
    assert any("cce-auto-sync" in n.message for n in race.notes)
    # with the flag the kernel orders it itself: nothing to report
    assert tbuf_races("Muls(tile, tile, 2.0f, 256); SetFlag<HardEvent::V_MTE3>(EVENT_ID0); "
                      "WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);") == []


def test_an_mte2_to_mte3_hand_off_with_no_flag_stays_an_error() -> None:
    # the MTE2_V flag orders V, not MTE3: the store may read the tile before the load is done
    (race,) = tbuf_races("")
    assert race.severity.value == "error"
    assert "DataCopy on PIPE_MTE3 reads" in race.message and "which PIPE_MTE2 wrote" in race.message
    assert not any("cce-auto-sync" in n.message for n in race.notes)


def test_a_scalar_read_after_a_deque_is_a_warning() -> None:
    (race,) = races("pipe_race.cpp")
    assert race.severity.value == "warning"
    assert "GetValue on PIPE_S reads" in race.message and "HardEvent::MTE2_S" in race.message
    assert any("cce-auto-sync" in n.message for n in race.notes)


def test_a_write_of_the_bytes_already_there_is_a_warning_and_of_new_bytes_an_error() -> None:
    # catlass's bias-table pipeline rewrites the same bias under an Mmad that read it: no order changes a value;
    # here MTE2 reloads a tile MTE3 is storing (a pair auto-sync does not order, so graded by the bytes)
    path = CHECKS / "pipe_race_same_bytes.cpp"
    (same,) = races("pipe_race_same_bytes.cpp")
    assert same.severity.value == "warning"
    assert "DataCopy on PIPE_MTE2 writes bytes [0, 1024) of UB" in same.message and "PIPE_MTE3 read" in same.message
    assert any("the very bytes that were there" in n.message for n in same.notes)
    assert not any("cce-auto-sync" in n.message for n in same.notes)
    opts = launch(path)
    x = np.arange(512, dtype=np.float32)
    new = run(str(path), {"x": x}, block_dim=1, tiling=opts["tiling"],
              outputs={"y": ((512,), "float32")}, defines={"SIM_BUG": "1", "SIM_NEW_VALUE": "1"})
    (changed,) = [d for d in new.findings if d.code == "ASC965"]
    assert changed.severity.value == "error"
    assert not any("the very bytes" in n.message for n in changed.notes)
    assert (new.outputs["y"] == np.concatenate([x[:256], x[256:]])).all()


def test_the_sync_a_scalar_read_makes_the_compiler_insert_orders_a_later_store() -> None:
    # NPUKernelBench CoalesceSparse: GetValue of the tile MTE2 loaded, then a DataCopyPad out of the same tile.
    # --cce-auto-sync makes S wait for MTE2 before the GetValue (the warning), and S issues the store after that
    # wait, so the store reads what MTE2 wrote: the MTE2 -> MTE3 error above does not follow (race.rs,
    # assume_compiler_sync)
    (race,) = tbuf_races("float first = tile.GetValue(0);")
    assert race.severity.value == "warning"
    assert "GetValue on PIPE_S reads" in race.message
