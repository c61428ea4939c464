"""Simulator-program gaps on real kernels: the ops a kernel's program builds as `unsupported`.

    nice -n 10 .venv/bin/python bench/perf/sim_gaps.py ROOT [ROOT ...] [--count 300] [--seed 0] [--json OUT]
                                                      [--timeout 120] [--match TEXT] [--examples 1]

Each ROOT is a folder of real kernels (the vendor repositories /work/ext/real/ops-{math,nn,transformer}): its
`.cpp` files under a folder whose name starts with `op_kernel` are the population, and `--count` of them are drawn
with `random.Random(seed).sample` from the list sorted by path (0 draws them all). Each file is read as
`ascendc-check` and `ascendir-opt FILE` read it (`load_for_check`, the chip it picks, the float DTYPE guess),
lowered, and its first kernel's simulator program built (`passes.sim.build_program`). Building is not running:
an op the program cannot express becomes that op's `unsupported` instruction (ASC958 only if a core reaches
it), so each such instruction is a place where the IR the lowering left holds something the simulator cannot
take: a value of type none, a struct moved into a scalar, ...

A file lands in one row: *no kernel* (the lowered module has none: a header-like source, an AI CPU kernel),
*not lowering* (an internal error ASC000/ASC010, a crash or a timeout while lowering), *refused* (a
ProgramNotModelled: no program at all, e.g. a kernel parameter of no modelled type), or *built*. An
`unsupported` instruction is of one of two kinds: a *call gap*, a call the lowering could not resolve (ASC103,
which the checker reports) or an API overload not in the catalog; or a *program gap*, an op the lowering did
produce that the program cannot express (a value of type none, a struct moved into a register, an undefined
value, ...): the IR itself is not one the simulator runs. A *left-out statement* is a `left_out` instruction: a
statement the lowering left out (ASC103, its message the construct), which the run reports (ASC958) when a core
reaches it, as it does an `unsupported` one; without it a gap left out rather than made opaque would not count.
The table counts the built files with each kind; the constructs tables count each construct once per file (and its
instructions), with an example file:line. JSON goes to bench/perf/results/sim_gaps.json by default, every file's
row included (its `unsupported` and `left_out` constructs: their instructions and the first one's file:line).
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# the per-file time limit: a BaseException, so no `except Exception` inside the toolchain takes it
from bench.perf.real_kernels import Timeout, on_alarm  # noqa: E402

DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "sim_gaps.json"


def population(roots: list[Path]) -> list[tuple[Path, Path]]:
    """(root, file) for every .cpp under a folder named op_kernel* of each root, sorted by path."""
    found = []
    for root in roots:
        for path in root.rglob("*.cpp"):
            if any(part.startswith("op_kernel") for part in path.relative_to(root).parts[:-1]):
                found.append((root, path))
    return sorted(found, key=lambda rp: str(rp[1]))


def _label(root: Path, path: Path) -> str:
    return f"{root.name}/{path.relative_to(root).as_posix()}"


def is_call_gap(construct: str) -> bool:
    """An unresolved call or an uncatalogued overload (the lowering's gap, reported as such), not a program gap."""
    return (construct.endswith(", which the lowering could not resolve") or construct.endswith(", not in the catalog")
            or construct.startswith("AscendC::Reg::"))  # a register-API call the lowering does not model (issue 28)


def check_file(path: Path) -> dict[str, Any]:
    """The row of one file: its outcome and, when built, each `unsupported` and `left_out` instruction (construct,
    file:line), by opcode."""
    from ascendir.lower import LoweringOptions, guessed_dtypes, lower_program
    from frontend.readers import read_input
    from passes.sim import build_program
    from passes.sim.registers import ProgramNotModelled
    from passes.verify import load_for_check

    program, chip = load_for_check(read_input(str(path)), None)
    row: dict[str, Any] = {"chip": chip}
    lowered = lower_program(program, LoweringOptions(chip=chip, dtypes=guessed_dtypes(program.bundle, "float")))
    internal = [d for d in [*program.diagnostics, *lowered.diagnostics] if d.code in ("ASC000", "ASC010")]
    if internal:
        row["outcome"] = "not lowering"
        row["detail"] = f"[{internal[0].code}] {internal[0].message}"
        return row
    if not lowered.kernels:
        row["outcome"] = "no kernel"
        return row
    try:
        built = build_program(lowered.module, chip)
    except ProgramNotModelled as exc:
        row["outcome"] = "refused"
        row["detail"] = str(exc)
        return row
    row["outcome"] = "built"
    row["kernel"] = built.kernel
    # per opcode, construct -> its instructions and the first one's file:line
    gaps: dict[str, dict[str, dict[str, Any]]] = {"unsupported": {}, "left_out": {}}
    for instr in built.code:
        opcode = getattr(instr, "opcode", None)
        if opcode not in gaps:
            continue
        what = instr.operands[0].strip('"')
        where = ""
        if 0 <= instr.loc < len(built.locs):
            loc = built.locs[instr.loc]
            where = f"{Path(built.files[loc.file]).name}:{loc.line}"
        found = gaps[opcode].setdefault(what, {"instructions": 0, "at": where})
        found["instructions"] += 1
    row.update(gaps)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", type=Path, nargs="+")
    ap.add_argument("--count", type=int, default=300, help="files drawn (0: all of them)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the draw")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON)
    ap.add_argument("--timeout", type=int, default=120, help="CPU seconds per file")
    ap.add_argument("--match", action="append", default=[], help="only drawn files whose path holds this text")
    ap.add_argument("--examples", type=int, default=1, help="example places listed per construct")
    args = ap.parse_args()
    for root in args.roots:
        if not root.is_dir():
            print(f"sim_gaps: '{root}' is not a folder", file=sys.stderr)
            return 2

    from rich.console import Console
    from rich.table import Table

    files = population(args.roots)
    drawn = random.Random(args.seed).sample(files, args.count) if 0 < args.count < len(files) else files
    drawn = sorted(drawn, key=lambda rp: str(rp[1]))
    if args.match:
        drawn = [rp for rp in drawn if any(m in _label(*rp) for m in args.match)]
    signal.signal(signal.SIGVTALRM, on_alarm)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    for root, path in drawn:
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_VIRTUAL, args.timeout)
        try:
            row = check_file(path)
        except Timeout:
            row = {"outcome": "not lowering", "detail": f"timeout after {args.timeout} CPU seconds"}
        except Exception as exc:  # noqa: BLE001 - a crash is a finding, listed with the rest
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            row = {"outcome": "not lowering",
                   "detail": f"crash: {type(exc).__name__}: {exc} ({Path(frame.filename).name}:{frame.lineno})"}
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        row["file"] = _label(root, path)
        row["seconds"] = round(time.perf_counter() - t0, 2)
        rows.append(row)
    seconds = time.perf_counter() - started

    outcomes = Counter(r["outcome"] for r in rows)
    built = [r for r in rows if r["outcome"] == "built"]
    # a kind: the instructions of one opcode whose construct passes a test
    kinds = {"program gaps": ("unsupported", lambda w: not is_call_gap(w)),
             "call gaps": ("unsupported", is_call_gap), "left-out statements": ("left_out", lambda w: True)}
    with_kind = {kind: [r for r in built if any(test(what) for what in r.get(opcode, {}))]
                 for kind, (opcode, test) in kinds.items()}
    files_per: dict[str, Counter[str]] = {"unsupported": Counter(), "left_out": Counter()}
    instrs_per: dict[str, Counter[str]] = {"unsupported": Counter(), "left_out": Counter()}
    examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in built:
        for opcode in files_per:
            for what, found in r.get(opcode, {}).items():
                instrs_per[opcode][what] += found["instructions"]
                files_per[opcode][what] += 1
                if len(examples[opcode, what]) < args.examples:
                    examples[opcode, what].append(f"{r['file']} ({found['at'] or 'no location'})")

    def constructs_of(kind: str) -> list[tuple[str, int]]:
        opcode, test = kinds[kind]
        return [(w, n) for w, n in sorted(files_per[opcode].items(), key=lambda kv: (-kv[1], kv[0])) if test(w)]

    console = Console()
    table = Table(title=f"Simulator-program gaps: {len(rows)} files (of {len(files)}, seed {args.seed})")
    table.add_column("files")
    table.add_column("count", justify="right")
    table.add_row("drawn", str(len(rows)))
    for outcome in ("no kernel", "not lowering", "refused", "built"):
        table.add_row(outcome, str(outcomes.get(outcome, 0)))
    for kind, (opcode, _) in kinds.items():
        table.add_row(f"built, with {kind}", f"{len(with_kind[kind])} of {len(built)}")
        table.add_row(f"  {kind}: instructions", str(sum(instrs_per[opcode][w] for w, _ in constructs_of(kind))))
    console.print(table)
    for kind, (opcode, _) in kinds.items():
        constructs = Table(title=f"{kind[0].upper()}{kind[1:]} by construct (one count per file)")
        constructs.add_column("construct")
        constructs.add_column("files", justify="right")
        constructs.add_column("instrs", justify="right")
        constructs.add_column("example")
        for what, n in constructs_of(kind):
            constructs.add_row(what, str(n), str(instrs_per[opcode][what]), "; ".join(examples[opcode, what]))
        console.print(constructs)
    for r in rows:
        if r["outcome"] in ("not lowering", "refused"):
            console.print(f"  {r['outcome']}: {r['file']}: {r.get('detail', '')}", highlight=False, soft_wrap=True)
    console.print(f"[{seconds:.0f} s]", highlight=False)

    report = {
        "roots": [str(r) for r in args.roots], "population": len(files), "seed": args.seed, "drawn": len(rows),
        "outcomes": dict(outcomes), "built": len(built),
        "with": {kind: len(found) for kind, found in with_kind.items()},
        "instructions": {kind: sum(instrs_per[opcode][w] for w, _ in constructs_of(kind))
                         for kind, (opcode, _) in kinds.items()},
        "constructs": {kind: {what: {"files": n, "instructions": instrs_per[opcode][what],
                                     "examples": examples[opcode, what]} for what, n in constructs_of(kind)}
                       for kind, (opcode, _) in kinds.items()},
        "seconds": round(seconds, 1), "rows": rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1))
    console.print(f"wrote {args.json}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
