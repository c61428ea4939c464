"""The KernelHive attempt matmul_with_irregular_shapes#1 on the simulator, with the core split the library
picks (ascendir.matmul_core_split). Its kernel derives its part of C from singleCoreM/N and the block index,
and its host launches SetBlockDim(usedCoreNum) = 2, which a MIX kernel runs as 4 vector cores: where the
library cuts N, cores 2 and 3 get nCoreIdx 2 and 3, a negative remaining N wraps round (uint32) and they
read B and write C past their part. The hardware failed so (bench/README.md, "The cube path"). Skipped
without the team's records."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

RECORDS = Path(__file__).resolve().parents[3] / "shared" / "data" / "kernelhive-failures" / "records.jsonl"


def _attempt_project(tmp_path: Path) -> Path:
    if not RECORDS.is_file():
        pytest.skip(f"needs the kernelhive-failures records ({RECORDS})")
    for line in RECORDS.read_text().splitlines():
        record = json.loads(line)
        if record["id"] == "matmul_with_irregular_shapes#1":
            for name, text in record["files_before"].items():
                if name.endswith(".py"):
                    continue  # the project is the op json, op_host and op_kernel
                path = tmp_path / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            return tmp_path
    pytest.skip("the records hold no matmul_with_irregular_shapes#1")


def test_the_library_split_exposes_the_attempts_wrapped_tail(tmp_path: Path) -> None:
    # M 253, N 485, K 16 of float on SetDim(2): 16 x 31 blocks. Cutting N (16 x 16 blocks a core) takes as
    # few L0 steps as cutting M and reads less: A twice and B once (63 block rows) against 78, so the library
    # cuts N, singleCoreN = 31 * 16 / 2 = 248. (A split that cuts M leaves cores 2 and 3 a zero N: correct.)
    project = _attempt_project(tmp_path)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (253, 16)).astype(np.float32)
    b = rng.uniform(-1, 1, (16, 485)).astype(np.float32)
    result = run(str(project), [a, b])
    codes = {f.code for f in result.findings}
    assert not result.ok and {"ASC950", "ASC953"} <= codes, result.findings
    b_read = next(f for f in result.findings if f.code == "ASC950")
    assert "Matmul (matrix B) reads elements [496," in b_read.message  # core 2 starts at column 2 x 248
