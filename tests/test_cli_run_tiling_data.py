"""`ascendir run --tiling-data FILE`: the tiling memory of a kernel with no host code that reads its tiling as raw
words (tests/corpus/clean/kernels/gm_tiling/scalar_walk_tiling.cpp walks a byte cursor over numel | tileLength |
blockDim | alpha | beta). `--tiling FIELD=VALUE` reaches only the fields of a struct the kernel reads, so before,
such a kernel read a 0-byte tiling buffer whatever it was given: its reads were out of bounds (ASC950) and it wrote
no output (ASC961). A launch whose tiling memory a host writes (an op project, a kernel-only answer) refuses the
flag."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from click.testing import CliRunner

from cli.run import main

CORPUS = Path(__file__).resolve().parent / "corpus/clean"
KERNEL = str(CORPUS / "kernels/gm_tiling/scalar_walk_tiling.cpp")


def test_a_kernel_that_walks_its_tiling_bytes_gets_them(tmp_path: Path) -> None:
    numel, tile, cores, alpha, beta = 1000, 96, 3, -0.5, 2.0  # the last core takes a shorter slice
    x = np.random.default_rng(0).uniform(-2, 2, numel).astype(np.float16)
    np.save(tmp_path / "x.npy", x)
    (tmp_path / "tiling.bin").write_bytes(np.array([numel, tile, cores], np.uint32).tobytes()
                                          + np.array([alpha, beta], np.float32).tobytes())
    out = CliRunner().invoke(main, [KERNEL, "--input", f"x={tmp_path / 'x.npy'}", "--output", f"y={numel}:float16",
                                    "--block-dim", str(cores), "--tiling-data", str(tmp_path / "tiling.bin"),
                                    "--output-dir", str(tmp_path)])
    assert out.exit_code == 0, out.output
    y = np.load(tmp_path / "y.npy")
    np.testing.assert_array_equal(y, (x * np.float16(alpha) + np.float16(beta)).astype(np.float16))


def test_an_npy_array_gives_its_bytes(tmp_path: Path) -> None:
    np.save(tmp_path / "words.npy", np.array([512, 256, 2, 0, 0], np.uint32))  # alpha = beta = 0.0f: y = 0
    out = CliRunner().invoke(main, [KERNEL, "--input", "x=512:float16", "--output", "y=512:float16", "--block-dim",
                                    "2", "--tiling-data", str(tmp_path / "words.npy"), "--output-dir", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert not np.load(tmp_path / "y.npy").any()


def test_a_launch_whose_host_writes_the_tiling_refuses_it(tmp_path: Path) -> None:
    np.save(tmp_path / "words.npy", np.zeros(4, np.uint32))
    out = CliRunner().invoke(main, [str(CORPUS / "projects/add_custom"), "--input", "x=8,2048:float16", "--input",
                                    "y=8,2048:float16", "--tiling-data", str(tmp_path / "words.npy")])
    assert out.exit_code == 2 and "is for a kernel with no host code" in out.output
