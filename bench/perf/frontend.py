"""Frontend performance: warm throughput of preprocess + parse, and cold start of `ascendc-check`.

    .venv/bin/python bench/perf/frontend.py [--json OUT] [--seconds 5] [--runs 10] [--cpu 0] [--file F]

1. Warm throughput on one core: every C++ source of the clean corpus (.cpp/.asc/.h ...), preprocessed and
   parsed the way `pipeline.parse_unit` does it (includes served from memory, no disk I/O), with the parser
   already built and one warm-up pass done; whole-corpus passes repeat until `--seconds` have elapsed.
   Lines/s (lines of the input files) best-of and median over passes, end to end and per phase
   (preprocess only, parse only; the parse includes the identifier pre-scan, also reported alone).
2. Cold start: wall time of a whole `ascendc-check FILE` process on a ~150-line corpus kernel, pinned
   to the same core, median of `--runs` runs with the cache dir warm (Lark's grammar cache, the pickled
   parser and catalog, the compiled dataclass methods: see frontend/cache.py; a first, unmeasured run
   fills a private cache dir), the same with Python bytecode cached (PYTHONPYCACHEPREFIX = a temp dir;
   matters where PYTHONDONTWRITEBYTECODE is set), and runs with an empty cache dir
   (ASCENDIR_CACHE_DIR = a fresh temp dir each).
3. A profile hint: which phase dominates (phase timings, a cProfile pass grouped by module, and a
   breakdown of the cold start into interpreter, imports (frontend; lowering and rules), parser
   construction, loading the file, and lowering + rules).

Goals printed beside the numbers: >= 10,000 lines/s warm, cold start <= 0.5 s.
Writes JSON to bench/perf/results/frontend.json unless `--json` says otherwise.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.perf.measure_host import cpu_model, lines_of, pin  # noqa: E402  (the checkout on sys.path first)

CORPUS = ROOT / "tests" / "corpus" / "clean"
DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "frontend.json"
GOAL_LINES_PER_S = 10_000
GOAL_COLD_START_S = 0.5
SOURCE_SUFFIXES = (".cpp", ".asc", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh")


# ------------------------------------------------------------------ helpers


def pinned_cmd(cmd: list[str], cpu: int) -> list[str]:
    taskset = shutil.which("taskset")
    return [taskset, "-c", str(cpu), *cmd] if taskset else cmd


def child_preexec(cpu: int) -> Callable[[], None] | None:
    if not hasattr(os, "sched_setaffinity"):
        return None

    def setup() -> None:
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            pass

    return setup


def rate(lines: int, seconds: float) -> float:
    return lines / seconds if seconds > 0 else float("inf")


def venv_tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found next to {sys.executable} or on PATH (pip install -e . first)")
    return found


# ------------------------------------------------------------------ 1. warm throughput


def corpus_sources() -> dict[str, str]:
    return {
        str(p): p.read_text(encoding="utf-8")
        for p in sorted(CORPUS.rglob("*"))
        if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES
    }


def warm_throughput(seconds: float) -> dict[str, Any]:
    from frontend.parser import get_parser, prescan
    from frontend.preprocess import preprocess

    sources = corpus_sources()
    files = {os.path.normpath(k): v for k, v in sources.items()}

    def read_file(path: str) -> str:  # includes come from memory, as the pipeline's virtual files do
        hit = files.get(os.path.normpath(path))
        if hit is None:
            raise FileNotFoundError(path)
        return hit

    t0 = time.perf_counter()
    parser = get_parser()
    build_s = time.perf_counter() - t0
    total_lines = sum(lines_of(t) for t in sources.values())
    diag_count = 0
    per_file: dict[str, float] = {}  # best preprocess+parse time of each file over all passes

    def one_pass() -> dict[str, float]:
        nonlocal diag_count
        pp_s = parse_s = 0.0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        diags = 0
        for path, text in sources.items():
            a = time.perf_counter()
            pp = preprocess(text, path, read_file=read_file)
            b = time.perf_counter()
            result = parser.parse(pp.text, path, _origin_of(pp))
            c = time.perf_counter()
            pp_s += b - a
            parse_s += c - b
            per_file[path] = min(per_file.get(path, float("inf")), c - a)
            diags += len(pp.diagnostics) + len(result.diagnostics)
        diag_count = diags
        return {
            "wall": time.perf_counter() - wall0,
            "cpu": time.process_time() - cpu0,
            "pp": pp_s,
            "parse": parse_s,
        }

    one_pass()  # warm-up: first-use caches, branch predictors, lazily built tables
    passes: list[dict[str, float]] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(passes) < 3:
        passes.append(one_pass())

    # The identifier pre-scan is part of the parse phase; time it alone on the preprocessed texts.
    pp_texts = [preprocess(t, p, read_file=read_file).text for p, t in sources.items()]
    scan_times = []
    for _ in range(max(3, len(passes) // 2)):
        a = time.perf_counter()
        for text in pp_texts:
            prescan(text)
        scan_times.append(time.perf_counter() - a)

    def summary(times: list[float]) -> dict[str, float]:
        rates = [rate(total_lines, t) for t in times]
        return {
            "best_lines_per_s": max(rates),
            "median_lines_per_s": statistics.median(rates),
            "median_s_per_pass": statistics.median(times),
        }

    slowest = sorted(((rate(lines_of(sources[f]), t), f) for f, t in per_file.items()))[:5]
    wall = [p["wall"] for p in passes]
    cpu = [p["cpu"] for p in passes]
    return {
        "files": len(sources),
        "lines": total_lines,
        "bytes": sum(len(t.encode()) for t in sources.values()),
        "diagnostics_per_pass": diag_count,
        "parser_build_s": build_s,
        "passes": len(passes),
        "elapsed_s": sum(wall),
        "total": summary(wall),
        "total_cpu_time": summary(cpu),
        "preprocess": summary([p["pp"] for p in passes]),
        "parse": summary([p["parse"] for p in passes]),
        "prescan": summary(scan_times),
        "slowest_files": [
            {"file": str(Path(f).relative_to(ROOT)), "lines": lines_of(sources[f]), "lines_per_s": r}
            for r, f in slowest
        ],
        "contention": statistics.median(w / c for w, c in zip(wall, cpu) if c > 0),
        "_sources": sources,
        "_read_file": read_file,
    }


def _origin_of(pp: Any) -> Callable[[int], tuple[str, int, int]]:
    def origin(offset: int) -> tuple[str, int, int]:
        o = pp.origin(offset)
        return (o.file, o.line, o.col)

    return origin


def profile_pass(sources: dict[str, str], read_file: Callable[[str], str]) -> dict[str, Any]:
    """One corpus pass under cProfile, own time grouped by where the code lives."""
    from frontend.parser import get_parser
    from frontend.preprocess import preprocess

    parser = get_parser()
    prof = cProfile.Profile()
    prof.enable()
    for path, text in sources.items():
        pp = preprocess(text, path, read_file=read_file)
        parser.parse(pp.text, path, _origin_of(pp))
    prof.disable()
    stats = pstats.Stats(prof)
    groups: dict[str, float] = {}
    functions: list[tuple[float, str]] = []
    prescan_names = {"prescan", "_typedef_block_names", "_template_close", "_name_before"}
    fast_path_names = {"run", "_row", "_regex", "_reduction", "_callback_factory", "__missing__"}
    for (filename, lineno, func), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        f = filename.replace("\\", "/")
        module = f.rsplit("/", 1)[-1]
        if "/frontend/" in f and module.startswith("preprocess"):  # preprocess.py and its preprocess_*.py parts
            group = "preprocessor (frontend/preprocess*.py)"
        elif "/frontend/" in f and module.startswith("parser"):  # parser.py and its parser_*.py parts
            if func in prescan_names:
                group = "identifier pre-scan (parser_prescan.prescan)"
            elif func in fast_path_names:
                # Lexer, retagger and LALR automaton in one loop; Lark's own code runs only after an error.
                group = "lexer + retagger + LALR loop (parser_fastpath.FastPath)"
            elif func == "process" or func == "split_closer":
                group = "post-lexer retagging (parser_tokens.IdentifierRetagger)"
            else:
                group = "AST building + error recovery (frontend/parser*.py)"
        elif f == "<parser child filter>":
            group = "AST building + error recovery (frontend/parser*.py)"  # the fast path's generated child filters
        elif "/frontend/ast/" in f or f.endswith("frontend/diagnostics.py"):
            group = "AST / diagnostic dataclasses (frontend/ast/, diagnostics.py)"
        elif "/lark/lexer.py" in f:
            group = "Lark lexer (lark/lexer.py)"
        elif "/lark/" in f:
            group = "Lark LALR parser (lark/parsers, lark/*)"
        elif func.startswith(("<method '", "<built-in")):
            group = "builtins (re, str, list ...)"
        else:
            group = "other"
        groups[group] = groups.get(group, 0.0) + tottime
        functions.append((tottime, f"{Path(filename).name}:{lineno}({func})"))
    total = sum(groups.values()) or 1.0
    functions.sort(reverse=True)
    return {
        "groups": {k: v / total for k, v in sorted(groups.items(), key=lambda kv: -kv[1])},
        "top_functions": [{"function": name, "share": t / total} for t, name in functions[:8]],
    }


# ------------------------------------------------------------------ 2. cold start


def pick_kernel(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit).resolve()
    kernels = sorted(p for p in (CORPUS / "kernels").rglob("*") if p.suffix in (".cpp", ".asc"))
    return min(kernels, key=lambda p: (abs(lines_of(p.read_text(encoding="utf-8")) - 150), str(p)))


def timed_run(cmd: list[str], env: dict[str, str], cpu: int) -> tuple[float, int, str]:
    a = time.perf_counter()
    proc = subprocess.run(
        pinned_cmd(cmd, cpu),
        check=False,
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=child_preexec(cpu),
        cwd=str(ROOT),
    )
    return time.perf_counter() - a, proc.returncode, proc.stdout + proc.stderr


_BREAKDOWN = r"""
import gc, json, sys, time
t0 = time.perf_counter()
import cli.check  # installs the dataclass code cache, as the command does
from frontend.pipeline import load
t1 = time.perf_counter()
gc.disable()  # as cli.check.run does until its inputs are loaded
import ascendir.lower, passes.verify
t2 = time.perf_counter()
from frontend.parser import get_parser
get_parser()
t3 = time.perf_counter()
program = load(sys.argv[1])
_ = program.diagnostics
gc.freeze(); gc.enable()
t4 = time.perf_counter()
passes.verify.check_program(program)
t5 = time.perf_counter()
print(json.dumps({"imports_frontend_s": t1 - t0, "imports_lowering_rules_s": t2 - t1, "parser_build_s": t3 - t2,
                  "load_s": t4 - t3, "lower_verify_s": t5 - t4}))
"""


def cold_start(kernel: Path, runs: int, cpu: int) -> dict[str, Any]:
    tool = venv_tool("ascendc-check")
    base_env = {k: v for k, v in os.environ.items() if k != "ASCENDIR_CACHE_DIR"}
    rel = str(kernel.relative_to(ROOT)) if kernel.is_relative_to(ROOT) else str(kernel)
    out: dict[str, Any] = {
        "file": rel,
        "lines": lines_of(kernel.read_text(encoding="utf-8")),
        "command": " ".join(pinned_cmd([tool, rel], cpu)),
    }
    with tempfile.TemporaryDirectory(prefix="ascendir-bench-") as tmp:
        warm_env = {**base_env, "ASCENDIR_CACHE_DIR": str(Path(tmp) / "warm")}
        fill_s, code, text = timed_run([tool, str(kernel)], warm_env, cpu)  # fills the cache dir
        if code != 0:
            raise SystemExit(f"ascendc-check exited {code} on {kernel}:\n{text}")
        warm = [timed_run([tool, str(kernel)], warm_env, cpu)[0] for _ in range(runs)]
        # Installed packages carry compiled bytecode; a checkout run with PYTHONDONTWRITEBYTECODE=1 (or a
        # read-only tree) compiles frontend/*.py from source at every start. Measure with bytecode too.
        pyc_env = {k: v for k, v in warm_env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        pyc_env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pyc")
        timed_run([tool, str(kernel)], pyc_env, cpu)  # writes the bytecode
        with_pyc = [timed_run([tool, str(kernel)], pyc_env, cpu)[0] for _ in range(runs)]
        empty = []
        for i in range(3):
            env = {**base_env, "ASCENDIR_CACHE_DIR": str(Path(tmp) / f"empty{i}")}
            empty.append(timed_run([tool, str(kernel)], env, cpu)[0])
        interp = [timed_run([sys.executable, "-c", "pass"], base_env, cpu)[0] for _ in range(5)]
        parts = []
        for _ in range(5):
            _, code, text = timed_run([sys.executable, "-c", _BREAKDOWN, str(kernel)], warm_env, cpu)
            if code == 0:
                parts.append(json.loads(text.strip().splitlines()[-1]))
        empty_parts = []
        env = {**base_env, "ASCENDIR_CACHE_DIR": str(Path(tmp) / "empty-breakdown")}
        _, code, text = timed_run([sys.executable, "-c", _BREAKDOWN, str(kernel)], env, cpu)
        if code == 0:
            empty_parts.append(json.loads(text.strip().splitlines()[-1]))
    out["first_run_fill_cache_s"] = fill_s
    out["warm_cache"] = {"runs_s": warm, "median_s": statistics.median(warm), "min_s": min(warm)}
    out["warm_cache_with_bytecode"] = {
        "runs_s": with_pyc,
        "median_s": statistics.median(with_pyc),
        "min_s": min(with_pyc),
    }
    out["bytecode_cached_in_tree"] = (ROOT / "frontend" / "__pycache__").is_dir()
    out["PYTHONDONTWRITEBYTECODE"] = os.environ.get("PYTHONDONTWRITEBYTECODE")
    out["empty_cache"] = {"runs_s": empty, "first_s": empty[0], "median_s": statistics.median(empty)}
    breakdown = {"interpreter_s": statistics.median(interp)}
    for key in ("imports_frontend_s", "imports_lowering_rules_s", "parser_build_s", "load_s", "lower_verify_s"):
        if parts:
            breakdown[key] = statistics.median(p[key] for p in parts)
    if empty_parts:
        breakdown["parser_build_empty_cache_s"] = empty_parts[0]["parser_build_s"]
    out["breakdown_warm_cache"] = breakdown
    return out


# ------------------------------------------------------------------ report


def dominant(d: dict[str, float]) -> tuple[str, float]:
    name = max(d, key=lambda k: d[k])
    return name, d[name] / (sum(d.values()) or 1.0)


def hints(warm: dict[str, Any], prof: dict[str, Any], cold: dict[str, Any]) -> list[str]:
    pp_s = warm["preprocess"]["median_s_per_pass"]
    parse_s = warm["parse"]["median_s_per_pass"]
    scan_s = warm["prescan"]["median_s_per_pass"]
    phases = {
        "preprocess": pp_s,
        "prescan (inside parse)": scan_s,
        "Lark lex+parse+AST (rest of parse)": max(parse_s - scan_s, 0.0),
    }
    name, share = dominant(phases)
    pp_share, parse_share = pp_s / (pp_s + parse_s), parse_s / (pp_s + parse_s)
    out = [
        f"warm: {name} dominates ({share:.0%} of a pass; preprocess {pp_share:.0%}, parse {parse_share:.0%})"
    ]
    slow = warm["slowest_files"][0]
    out.append(
        f"slowest file: {slow['file']} ({slow['lines']} lines, {slow['lines_per_s']:,.0f} lines/s; "
        "the five slowest are in the JSON)"
    )
    group, gshare = next(iter(prof["groups"].items()))
    top = prof["top_functions"][0]
    out.append(
        f"profile: most own time in {group} ({gshare:.0%}); hottest function {top['function']} "
        f"({top['share']:.0%})"
    )
    b = dict(cold["breakdown_warm_cache"])
    empty_build = b.pop("parser_build_empty_cache_s", None)
    if len(b) > 1:
        name, share = dominant(b)
        out.append(
            "cold start: "
            + ", ".join(f"{k.removesuffix('_s')} {v * 1000:.0f} ms" for k, v in b.items())
            + f"; {name.removesuffix('_s')} dominates ({share:.0%})"
        )
    if not cold["bytecode_cached_in_tree"]:
        out.append(
            "cold start: frontend/ has no __pycache__ "
            f"(PYTHONDONTWRITEBYTECODE={cold['PYTHONDONTWRITEBYTECODE']}), so every start compiles the "
            "sources; "
            f"with bytecode cached the median is {cold['warm_cache_with_bytecode']['median_s']:.3f} s"
        )
    if empty_build is not None:
        out.append(
            f"cold start, empty cache: building the LALR tables takes {empty_build * 1000:.0f} ms "
            f"(loading them from the cache: {b.get('parser_build_s', float('nan')) * 1000:.0f} ms)"
        )
    if warm["contention"] > 1.1:
        out.append(
            f"warning: wall time is {warm['contention']:.2f}x CPU time: another process shares the core, "
            "wall-clock rates are pessimistic (see total_cpu_time in the JSON)"
        )
    return out


def print_report(result: dict[str, Any]) -> None:
    warm, cold, goals = result["warm"], result["cold_start"], result["goals"]
    empty = cold["empty_cache"]
    rows = [
        (
            "warm preprocess+parse, best",
            f"{warm['total']['best_lines_per_s']:,.0f} lines/s",
            f">= {GOAL_LINES_PER_S:,} lines/s",
            goals["warm_met"],
        ),
        ("warm preprocess+parse, median", f"{warm['total']['median_lines_per_s']:,.0f} lines/s", "", None),
        ("  preprocess only (median)", f"{warm['preprocess']['median_lines_per_s']:,.0f} lines/s", "", None),
        ("  parse only (median)", f"{warm['parse']['median_lines_per_s']:,.0f} lines/s", "", None),
        ("    of which pre-scan (median)", f"{warm['prescan']['median_lines_per_s']:,.0f} lines/s", "", None),
        (
            "cold start, warm cache (median)",
            f"{cold['warm_cache']['median_s']:.3f} s",
            f"<= {GOAL_COLD_START_S} s",
            goals["cold_met"],
        ),
        ("cold start, warm cache (min)", f"{cold['warm_cache']['min_s']:.3f} s", "", None),
        (
            "cold start, warm cache + bytecode (median)",
            f"{cold['warm_cache_with_bytecode']['median_s']:.3f} s",
            "",
            None,
        ),
        (
            "cold start, empty cache",
            f"{empty['first_s']:.3f} s (median of {len(empty['runs_s'])}: {empty['median_s']:.3f} s)",
            "",
            None,
        ),
    ]
    title = (
        f"AscendIR frontend: {warm['files']} corpus sources, {warm['lines']:,} lines, "
        f"{warm['passes']} warm passes; "
        f"cold start on {cold['file']} ({cold['lines']} lines); {result['machine']['pinned']}"
    )
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title)
        for name, value, goal, ok in rows:
            status = "" if ok is None else ("ok" if ok else "MISSED")
            print(f"  {name:<44} {value:>32}  {goal:<18} {status}")
        print("\n".join(result["hints"]))
        return
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    table.add_column("measured", justify="right")
    table.add_column("goal")
    table.add_column("")
    for name, value, goal, ok in rows:
        table.add_row(name, value, goal, "" if ok is None else ("[green]ok[/]" if ok else "[red]missed[/]"))
    console = Console(width=max(Console().width, 110))
    console.print(table)
    for line in result["hints"]:
        console.print(f"hint: {line}")
    console.print(
        "profile (own time by module): "
        + ", ".join(f"{k} {v:.0%}" for k, v in list(result["profile"]["groups"].items())[:5])
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--json", default=str(DEFAULT_JSON), help="where to write the results (default: %(default)s)"
    )
    ap.add_argument("--seconds", type=float, default=5.0, help="how long to repeat warm passes (default 5)")
    ap.add_argument("--runs", type=int, default=10, help="cold-start runs with a warm cache (default 10)")
    ap.add_argument("--cpu", type=int, default=0, help="core to pin to (default 0)")
    ap.add_argument(
        "--file",
        default=None,
        help="kernel for the cold start (default: the corpus kernel nearest 150 lines)",
    )
    args = ap.parse_args(argv)

    import lark

    pinned = pin(args.cpu)
    warm = warm_throughput(args.seconds)
    sources, read_file = warm.pop("_sources"), warm.pop("_read_file")
    prof = profile_pass(sources, read_file)
    cold = cold_start(pick_kernel(args.file), args.runs, args.cpu)
    result: dict[str, Any] = {
        "benchmark": "frontend",
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {
            "python": platform.python_version(),
            "lark": lark.__version__,
            "platform": platform.platform(),
            "cpu": cpu_model(),
            "cpus": os.cpu_count(),
            "pinned": pinned,
            "taskset": shutil.which("taskset") is not None,
            "loadavg": os.getloadavg() if hasattr(os, "getloadavg") else None,
        },
        "warm": warm,
        "profile": prof,
        "cold_start": cold,
        "goals": {
            "warm_lines_per_s": GOAL_LINES_PER_S,
            "cold_start_s": GOAL_COLD_START_S,
            "warm_met": warm["total"]["best_lines_per_s"] >= GOAL_LINES_PER_S,
            "cold_met": cold["warm_cache"]["median_s"] <= GOAL_COLD_START_S,
        },
    }
    result["hints"] = hints(warm, prof, cold)
    print_report(result)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
