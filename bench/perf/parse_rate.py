"""Parse success of the frontend on a folder of real AscendC sources (kept outside the repository).

    .venv/bin/python bench/perf/parse_rate.py /path/to/kernels [--json OUT] [--group-depth 1]

Every .cpp/.asc/.h/.hpp/.cc file under the folder is read as a single source (`--format cpp`), preprocessed
and parsed. A file counts as parsed when it yields no syntax error [ASC001] and no internal error [ASC000];
missing includes are expected (vendor and sibling headers), so preprocessor warnings do not count. The
table groups files by their first `--group-depth` path components (e.g. one row per repository) and lists
the most common first errors, with example locations, to show what to fix next.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import frontend.parser as parser_module  # noqa: E402
from frontend.pipeline import load_bundle  # noqa: E402
from frontend.readers import SOURCE_SUFFIXES, read_input  # noqa: E402

MAX_LINES = 3000


def collect(root: Path) -> list[Path]:
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        files += [Path(dirpath) / f for f in sorted(filenames) if f.lower().endswith(SOURCE_SUFFIXES)]
    return files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "parse_rate.json")
    ap.add_argument("--group-depth", type=int, default=1)
    ap.add_argument("--top", type=int, default=20, help="how many first-error kinds to list")
    args = ap.parse_args()
    if not args.root.is_dir():
        print(f"parse_rate: '{args.root}' is not a folder", file=sys.stderr)
        return 2
    parser_module.MAX_ERRORS_PER_FILE = 1  # the first error decides; no need to resynchronise
    groups: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    first_errors: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    total_lines = parsed = files = 0
    started = time.perf_counter()
    for path in collect(args.root):
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.count("\n") + 1
        if lines > MAX_LINES:
            continue
        files += 1
        total_lines += lines
        group = "/".join(path.relative_to(args.root).parts[: args.group_depth])
        program = load_bundle(read_input(str(path), "cpp"))
        errors = [d for d in program.diagnostics if d.code in ("ASC000", "ASC001")]
        groups[group][1] += 1
        if errors:
            kind = errors[0].message.split(" before ")[0][:60]
            first_errors[kind] += 1
            if len(examples[kind]) < 3:
                examples[kind].append(str(errors[0].span))
        else:
            parsed += 1
            groups[group][0] += 1
    elapsed = time.perf_counter() - started
    rate = 100.0 * parsed / files if files else 0.0
    print(f"{parsed}/{files} files parse ({rate:.1f}%), {total_lines} lines in {elapsed:.1f} s "
          f"({total_lines / elapsed:.0f} lines/s including error handling)")
    print(f"{'group':<50} {'parsed':>8} {'files':>6} {'rate':>7}")
    for group, (ok, n) in sorted(groups.items()):
        print(f"{group:<50} {ok:>8} {n:>6} {100.0 * ok / n:>6.1f}%")
    print("\nmost common first errors:")
    for kind, n in first_errors.most_common(args.top):
        print(f"{n:>5}  {kind}   e.g. {examples[kind][0]}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "root": str(args.root), "files": files, "parsed": parsed, "rate_percent": round(rate, 2),
        "lines": total_lines, "seconds": round(elapsed, 2),
        "groups": {g: {"parsed": ok, "files": n} for g, (ok, n) in sorted(groups.items())},
        "first_errors": [{"message": k, "count": n, "examples": examples[k]} for k, n in first_errors.most_common()],
    }, indent=2))
    print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
