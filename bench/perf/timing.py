"""The timing model against the chip's bounds (issue 29): predicted time of kernels whose bound is known.

    .venv/bin/python bench/perf/timing.py [--chip 910B2] [--matmul 1024,2048] [--json OUT]

Rows:
- `add`: a 16M-element fp16 add on every vector core (tests/corpus/clean/projects/add_custom) against the HBM
  bound: two reads and one write of 32 MiB through the chip file's HBM bandwidth (goal: within 20%);
- `matmul N`: C = A B + bias for N x N x N fp16 through the Matmul object (tests/corpus/clean/projects/
  matmul_custom, its host tiling) against the cube roofline: 2 N^3 FLOP over every AIC at 8192 FLOP per cycle
  (goal: within 20% for a large N; small ones pay the pipeline's fill and the tiling's imbalance);
- `single/double buffer`: the same add-then-six-Exp kernel (examples/add_custom.cpp with its Compute made
  heavier) with one and with two buffers per queue on one core, the same tiles: double buffering overlaps the
  copies with the compute, so its time approaches the busiest pipe's.
The error is predicted / bound - 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ascendir.chips import load_chip  # noqa: E402
from passes.sim import run  # noqa: E402


def _row(name: str, result: Any, bound_us: float | None, wall: float, note: str = "") -> dict[str, Any]:
    pipes = result.pipes or {}
    return {
        "name": name, "ok": result.ok, "cycles": result.cycles, "us": result.microseconds, "bound_us": bound_us,
        "error": (result.microseconds / bound_us - 1) if bound_us else None, "bound": result.bound,
        "busy": {p: v["busy"] for p, v in pipes.items() if v["busy"]}, "block_dim": result.block_dim,
        "hbm_utilization": (result.timing or {}).get("hbm_utilization"), "wall_s": wall, "note": note,
    }


def add_row(chip: str) -> dict[str, Any]:
    n = 16 * 1024 * 1024
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-1, 1, n).astype(np.float16), rng.uniform(-1, 1, n).astype(np.float16)
    start = time.perf_counter()
    result = run(str(ROOT / "tests/corpus/clean/projects/add_custom"), [x, y], chip=chip)
    wall = time.perf_counter() - start
    bound_us = 3 * n * 2 / (load_chip(chip).timing["hbm_gbps"] * 1e9) * 1e6
    return _row("add 16M fp16 (HBM bound)", result, bound_us, wall)


def matmul_row(chip: str, n: int) -> dict[str, Any]:
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, (n,)).astype(np.float32)
    start = time.perf_counter()
    result = run(str(ROOT / "tests/corpus/clean/projects/matmul_custom"), [a, b, bias], chip=chip)
    wall = time.perf_counter() - start
    c = load_chip(chip)
    clock = float(c.clock_mhz or c.timing["clock_mhz"]) * 1e6
    flops_per_cycle = 2 * float(c.throughput["cube_fp16_macs_per_cycle"])
    roof_us = 2 * n**3 / (c.aic_cores * flops_per_cycle * clock) * 1e6
    return _row(f"matmul {n}^3 fp16 (cube roofline)", result, roof_us, wall, f"{result.block_dim} AIC")


_HEAVY = """
        AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);
        for (int32_t r = 0; r < 6; r++) {
            AscendC::Exp(zLocal, zLocal, this->tileLength);
        }"""


def buffer_rows(chip: str) -> list[dict[str, Any]]:
    n, tiles = 16 * 8192, 16
    x = np.random.default_rng(2).uniform(-1, 1, n).astype(np.float16)
    rows = []
    for bufs in (1, 2):
        text = (ROOT / "examples/add_custom.cpp").read_text().replace("BUFFER_NUM = 2;", f"BUFFER_NUM = {bufs};")
        text = text.replace("\n        AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);", _HEAVY)
        start = time.perf_counter()
        result = run(text, {"x": x, "y": x}, chip=chip, block_dim=1,
                     tiling={"totalLength": n, "tileNum": tiles // bufs}, outputs={"z": ((n,), "float16")})
        wall = time.perf_counter() - start
        busiest = max((v["busy"] for v in (result.pipes or {}).values()), default=0)
        bound_us = busiest / (result.timing or {}).get("clock_mhz", 1.0)
        name = "single buffer" if bufs == 1 else "double buffer"
        rows.append(_row(f"{name} (busiest pipe)", result, bound_us, wall, f"{tiles} tiles of {n // tiles}, 1 core"))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chip", default="910B2")
    ap.add_argument("--matmul", default="1024,2048", help="matmul sizes N (N x N x N); 4096 takes minutes")
    ap.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "timing.json")
    args = ap.parse_args()
    rows = [add_row(args.chip)]
    rows += [matmul_row(args.chip, int(v)) for v in args.matmul.split(",") if v.strip()]
    rows += buffer_rows(args.chip)
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"timing model vs bounds on {args.chip} (goal: within 20% of the bound)")
    for col in ("kernel", "predicted us", "bound us", "error", "bound by", "busy cycles", "HBM use", "note"):
        table.add_column(col, justify="left" if col in ("kernel", "bound by", "busy cycles", "note") else "right")
    for r in rows:
        busy = ", ".join(f"{p.removeprefix('PIPE_')} {v:,}" for p, v in r["busy"].items())
        table.add_row(r["name"], f"{r['us']:.2f}", f"{r['bound_us']:.2f}", f"{100 * r['error']:+.1f}%",
                      str(r["bound"]), busy, f"{100 * (r['hbm_utilization'] or 0):.0f}%", r["note"])
    Console(width=200).print(table)
    single, double = rows[-2], rows[-1]
    print(f"double buffering: {single['cycles']:,} -> {double['cycles']:,} cycles "
          f"({single['cycles'] / double['cycles']:.2f}x)")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=2))
    print(f"wrote {args.json}")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
