"""Which high-level (adv_api) vector calls real kernels make that the simulator does not model: a source scan.

    nice -n 10 .venv/bin/python bench/perf/adv_api_calls.py [--devkit DIR] [--records JSONL]
        [--npukernelbench DIR] [--real DIR ...] [--json OUT]

The adv_api names are the functions the asc-devkit headers under include/adv_api/{activation,filter,index,
math,normalization,pad,quantization,reduce,select,sort,transpose} declare `__aicore__ inline` (the vector
side: matmul, conv and hccl left out). A kernel source calls NAME when `NAME(` or `NAME<...>(` appears in it
(comments stripped; unqualified or AscendC::, not MicroAPI::Xor, l0op::Sort, nn.GroupNorm or a method), and
the source does not define a function, class or struct of that name itself. A name is modelled when rust_sim
registers any overload of it (rust_sim._sim.supported_calls()) or the lowering computes it itself
(softmax_tiling_impl.FUNCTIONS). The populations: the KernelHive records'
files (attempts and finals, deduplicated by text), NPUKernelBench's answers (tasks/*/*/*/answer/**.cpp|.h) and
the vendor op_kernel sources (ROOT/**/op_kernel*/**.cpp|.h). A source scan, not a lowering: it counts names,
not overloads; a call on a path no launch takes counts as well, and a host function of an adv_api name
(SoftMaxFlashV2TilingFunc in an answer's host code) too. The table goes to stdout (Markdown), the counts to
--json. A population whose folder is absent is left out.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the repository's packages before bench/perf's own frontend.py
VECTOR_DIRS = ("activation", "filter", "index", "math", "normalization", "pad", "quantization", "reduce", "select",
               "sort", "transpose")
_DECL = re.compile(r"__aicore__\s+inline\s+[\w:<>,\s*&]*?\b([A-Z][A-Za-z0-9]+)\s*\(")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def adv_api_names(devkit: Path) -> set[str]:
    names: set[str] = set()
    for sub in VECTOR_DIRS:
        for h in (devkit / "include" / "adv_api" / sub).rglob("*.h"):
            names.update(m.group(1) for m in _DECL.finditer(h.read_text(errors="replace")))
    return {n for n in names if not n.startswith("Get") and not n.endswith("Impl")}


# a return type before the name, then `(params);`: a declaration of the source's own function of that name
# (NPUKernelBench's op_host/tensor_util.h declares `aclnnStatus BatchNorm(...);`), not a call (`return F(x);`)
_NOT_TYPES = r"(?!(?:return|co_return|else|case|throw|new|delete)\b)"


def _defines(text: str, name: str) -> bool:
    """Whether the source defines or declares a function, class or struct of that name itself (a kernel's own
    GroupNorm, a host header's aclnn BatchNorm)."""
    if re.search(rf"\b(class|struct)\s+{name}\b|\b{name}\s*\([^;{{}}]*\)\s*(const\s*)?\{{", text):
        return True
    return re.search(rf"(?:^|[;{{}}]\s*|\n\s*){_NOT_TYPES}[A-Za-z_][\w:<>]*[\s*&]+{name}\s*\([^;{{}}()]*"
                     rf"(?:\([^;{{}}()]*\)[^;{{}}()]*)*\)\s*;", text) is not None


def calls(text: str, names: set[str]) -> Counter[str]:
    text = _COMMENT.sub(" ", text)
    found: Counter[str] = Counter()
    names = {n for n in names if n in text and not _defines(text, n)}
    for m in re.finditer(r"\b([A-Z][A-Za-z0-9]+)\s*(?:<[^;(){}]*?>)?\s*\(", text):
        name = m.group(1)
        if name not in names:
            continue
        before = text[max(0, m.start() - 40):m.start()]
        if re.search(r"(inline|void|__aicore__)\s+$", before):  # a function of the kernel's own by that name
            continue
        qualifier = re.search(r"(\w+)\s*(::|\.|->)\s*$", before)
        if qualifier and qualifier.group(1) != "AscendC":  # MicroAPI::Xor, l0op::Sort, torch.nn.GroupNorm, obj.F
            continue
        found[name] += 1
    return found


def kernelhive_sources(records: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in records.read_text().splitlines():
        r = json.loads(line)
        for side in ("files_before", "files_after"):
            for name, text in (r.get(side) or {}).items():
                out.setdefault(text, f"{r['id']}:{side[6:]}:{name}")
    return {label: text for text, label in out.items()}


def files(pattern_root: Path, globs: list[str], need: str | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    for g in globs:
        for p in pattern_root.glob(g):
            if p.is_file() and (need is None or any(part.startswith(need) for part in p.parts)):
                out[str(p)] = p.read_text(errors="replace")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--devkit", type=Path, default=Path("/work/ext/real/asc-devkit"))
    ap.add_argument("--records", type=Path,
                    default=ROOT.parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl")
    ap.add_argument("--npukernelbench", type=Path, default=Path("/work/ext/NPUKernelBench"))
    ap.add_argument("--real", type=Path, nargs="*",
                    default=[Path(f"/work/ext/real/ops-{n}") for n in ("math", "nn", "transformer")])
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    from rust_sim import _sim

    names = adv_api_names(args.devkit)
    from ascendir.lower import softmax_tiling_impl

    # the simulator's calls, and the library functions the lowering computes itself (no simulator call)
    modelled = {c.split(".")[0] for c in _sim.supported_calls()} | set(softmax_tiling_impl.FUNCTIONS)
    populations: dict[str, dict[str, str]] = {}
    if args.records.is_file():
        populations["KernelHive records"] = kernelhive_sources(args.records)
    if args.npukernelbench.is_dir():
        populations["NPUKernelBench answers"] = files(args.npukernelbench / "tasks", ["*/*/*/answer/**/*.cpp",
                                                                                      "*/*/*/answer/**/*.h"])
    real: dict[str, str] = {}
    for root in args.real:
        if root.is_dir():
            real.update(files(root, ["**/*.cpp", "**/*.h"], need="op_kernel"))
    if real:
        populations["vendor op_kernel"] = real
    table: dict[str, dict[str, list[int]]] = defaultdict(dict)  # name -> population -> [files, sites]
    for pop, texts in populations.items():
        for text in texts.values():
            for name, n in calls(text, names).items():
                row = table[name].setdefault(pop, [0, 0])
                row[0] += 1
                row[1] += n
    pops = list(populations)
    print(f"adv_api vector names: {len(names)}; modelled: {len(names & modelled)}; sources: "
          + ", ".join(f"{p} {len(populations[p])}" for p in pops))
    print("| API | modelled | " + " | ".join(f"{p}: files (sites)" for p in pops) + " |")
    print("|---|---|" + "---|" * len(pops))
    order = sorted(table, key=lambda n: (n in modelled, -sum(v[0] for v in table[n].values()), n))
    for name in order:
        cells = [f"{table[name][p][0]} ({table[name][p][1]})" if p in table[name] else "" for p in pops]
        print(f"| {name} | {'yes' if name in modelled else 'no'} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps({"names": sorted(names), "modelled": sorted(names & modelled),
                                         "sources": {p: len(t) for p, t in populations.items()},
                                         "calls": table}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
