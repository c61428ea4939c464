"""Each dynamic check has a kernel that triggers it and one that does not (tests/corpus/sim_checks).

A kernel file holds both: compiled with SIM_BUG defined it must report its check's code at the line marked
`// expected-finding ASCxxx` (launch-wide findings have no line); without it, it must report nothing. The
`// sim-launch:` header gives blockDim, the tiling values, the tensors and an instruction budget.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

CHECKS = Path(__file__).resolve().parents[1] / "corpus" / "sim_checks"
KERNELS = sorted(CHECKS.glob("*.cpp"))


def launch(path: Path) -> dict:
    text = path.read_text()
    header = re.search(r"^// sim-launch: (.*)$", text, re.M)
    assert header, f"{path.name} has no sim-launch line"
    opts: dict = {"inputs": {}, "outputs": {}, "tiling": {}}
    for item in header.group(1).split():
        key, _, value = item.partition("=")
        if key == "block_dim":
            opts["block_dim"] = int(value)
        elif key == "budget":
            opts["budget"] = int(value)
        elif key == "tiling":
            opts["tiling"] = {k: int(v) for k, v in (f.split(":") for f in value.split(","))}
        elif key in ("inputs", "outputs"):
            for spec in value.split(","):
                name, n, dtype = spec.split(":")
                opts[key][name] = (int(n), dtype)
    code = re.search(r"^// sim-check (ASC\d+):", text, re.M).group(1)
    marked = [i + 1 for i, line in enumerate(text.splitlines()) if f"expected-finding {code}" in line]
    return {**opts, "code": code, "line": marked[0] if marked else None}


def simulate(path: Path, bug: bool) -> object:
    opts = launch(path)
    rng = np.random.default_rng(0)
    inputs = {name: rng.uniform(-1, 1, n).astype(dtype) for name, (n, dtype) in opts["inputs"].items()}
    outputs = {name: ((n,), dtype) for name, (n, dtype) in opts["outputs"].items()}
    extra = {"budget": opts["budget"]} if "budget" in opts else {}
    return run(str(path), inputs, block_dim=opts["block_dim"], tiling=opts["tiling"], outputs=outputs,
               defines={"SIM_BUG": "1"} if bug else None, **extra)


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_the_check_fires_at_its_line(path: Path) -> None:
    opts = launch(path)
    result = simulate(path, bug=True)
    hits = [d for d in result.findings if d.code == opts["code"]]
    assert hits, f"no {opts['code']}; found: " + "; ".join(f"{d.code} {d.message}" for d in result.findings)
    if opts["code"] != "ASC961":  # launch-wide: no line
        assert any(d.span is not None and d.span.line == opts["line"] for d in hits), \
            f"{opts['code']} not at line {opts['line']}: {[str(d.span) for d in hits]}"


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_the_clean_twin_reports_nothing(path: Path) -> None:
    result = simulate(path, bug=False)
    assert result.completed and not result.findings, "\n".join(str(d) for d in result.findings)
