"""Real-world recall and false alarms of ascendc-check on the KernelHive failure records.

    .venv/bin/python bench/perf/realworld.py [RECORDS.jsonl] [--json OUT] [--chip 910B2] [--misses]
                                             [--references MULTIKERNELBENCH_REFERENCE_DIR]

Every record holds an operator written by an LLM agent that failed a real CANN build or a real run, and
(for most) the project that finally passed. Two figures:

- false alarms: `check_program` on every `files_after` (the passing project) must report no error;
  goal zero programs with an error. A passing project can still hold a real defect its test does not
  see (a value it corrupts is never used): `realworld_misses.toml`'s `[after.ID]` tables name such errors
  by code, with the evidence; they are listed apart and not counted, and any other error still is;
- recall: `check_program` on `files_before` of the records whose verifier tier is `static` or `host_exec`
  (a source-level checker could have caught them); goal at least 80% flagged, shown per bug kind, with
  the misses listed (id, bug kind, the record's real error line) and explained: `realworld_misses.toml`
  beside this script says, per missed record, why no rule flags it (a category, a reason, the evidence).
  The summary counts the misses per reason; a miss without an entry shows as `unexplained`, and an entry
  whose record is flagged now is listed so that it can go.

A project is read as the MultiKernelBench answer it came from (the `<op>.py` file of the record); an answer
that computes its sources at run time (not plain string literals) is read from the record's split files as
an op project folder instead. Prints a table and writes JSON (default bench/perf/results/realworld.json).

The records do not carry the test shapes (`model_src.py` is the ModelNew wrapper). Without them only what
holds for every input is reported; with `--references DIR` (the reference programs of MultiKernelBench,
`<task>.py` with `get_inputs()`, not part of this repository) every project is checked with its task's
shapes: the host tiling function runs on them and the capacity, alignment and coverage rules see numbers.
Where ModelNew also passes its weights or converts its inputs, the op's arguments come from evaluating
ModelNew over `ast` (`ascendir.model_args`); where op.cpp computes an input itself, no shapes are given.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_RECORDS = ROOT.parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl"
DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "realworld.json"
DEFAULT_EXPLANATIONS = Path(__file__).with_name("realworld_misses.toml")
RECALL_TIERS = ("static", "host_exec")
RECALL_GOAL = 0.80
# the re-scoped goal: among the records whose failing code is in the record, i.e. all but the misses whose
# explanation says the cause lies outside the record's sources
IN_RECORD_GOAL = 0.90
OUTSIDE_THE_RECORD = ("not-in-files", "environment")


def answer_of(files: dict[str, str], op: str) -> tuple[str, str] | None:
    """The record's MultiKernelBench answer: `<op>.py`, else any .py assigning kernel_src."""
    if f"{op}.py" in files:
        return f"{op}.py", files[f"{op}.py"]
    for name, text in files.items():
        if name.endswith(".py") and name != "model_src.py" and re.search(r"\bkernel_src\s*=", text):
            return name, text
    return None


def check_files(files: dict[str, str], op: str, chip: str, reference: Path | None = None) -> list[Any] | None:
    from frontend.pipeline import read_text
    from passes.verify import check_program, load_for_check

    found = answer_of(files, op)
    if found is None:
        return None
    name, text = found
    # read as `ascendc-check --chip <chip>` reads it: the chip's macros for the device compile
    program, _ = load_for_check(read_text(text, name, fmt="multikernelbench"), chip)
    if any(d.code == NOT_A_LITERAL for d in program.diagnostics) and any(k.startswith("op_kernel/") for k in files):
        # the answer computes its sources at run time; the record also holds them as the files written
        program = _load_split_project(files, chip)
    shapes = reference_shapes(reference, program, chip, files.get("model_src.py"))
    return check_program(program, chip=chip, shapes=shapes)


def passes_inputs_through(model_src: str | None) -> bool:
    """Whether ModelNew.forward hands its arguments to the custom op unchanged and in order (then the
    reference's get_inputs shapes are the op's input shapes). Read with `ast`, never run."""
    import ast

    if not model_src:
        return False
    try:
        tree = ast.parse(model_src)
    except SyntaxError:
        return False
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"):
            params = [a.arg for a in fn.args.args[1:]]
            body = [n for n in fn.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
            if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
                return False
            args = body[0].value.args
            return [a.id for a in args if isinstance(a, ast.Name)] == params and len(args) == len(params)
    return False


def find_references(folder: Path | None) -> dict[str, Path]:
    """MultiKernelBench reference programs under `folder`, by task name (the file's stem), and by the name
    without underscores (see reference_of)."""
    refs: dict[str, Path] = {}
    for p in sorted(folder.rglob("*.py")) if folder is not None else []:
        refs[p.stem] = p
        refs.setdefault("~" + p.stem.replace("_", ""), p)
    return refs


def reference_of(refs: dict[str, Path], task: str) -> Path | None:
    """The task's reference program; the records spell some tasks without an underscore the file has
    (`max_pooling1d` for `max_pooling_1d.py`)."""
    return refs.get(task) or refs.get("~" + task.replace("_", ""))


def reference_shapes(reference: Path | None, program: Any, chip: str, model_src: str | None = None) -> Any:
    """The TilingInputs the op gets in the task's test (read with `ast`, never run), or None.

    When ModelNew.forward hands its own arguments to the op, they are the reference's get_inputs shapes;
    otherwise (the op also takes the model's weights, or forward converts its inputs first) `ModelNew` is
    evaluated on the reference's get_init_inputs and get_inputs up to the custom op call
    (`ascendir.model_args`). Either way the Python binding (op.cpp) then computes what it hands to
    `EXEC_NPU_CMD(aclnn<Op>, ...)` (`ascendir.binding_args`: reshapes, expands, broadcasts): None where it
    computes an input in a way not followed. An attribute op.cpp computes leaves it and the rest unset."""
    if reference is None:
        return None
    from ascendir.binding_args import exec_arguments
    from ascendir.host_eval import TensorSpec
    from ascendir.testcase import read_test_case
    from passes.verify.binding import op_binding_call
    from passes.verify.concrete_inputs import ConcreteInputs

    case = read_test_case(reference)
    if not case.inputs or any(p.severity == "error" for p in case.diagnostics):
        return None
    op_json = (program.bundle.op_json or [{}])[0]
    declared = len(op_json.get("input_desc") or [])
    found = op_binding_call(program)
    if found is None:
        return None  # op.cpp does not call the op (it calls a built-in aclnn op, or computes in torch)
    if passes_inputs_through(model_src) and declared == len(case.inputs):
        fn, call = found
        if len(fn.params) != len(case.call_args):
            return None
        tensors = exec_arguments(fn, call, case.call_args)[:declared]
        if len(tensors) < declared or not all(isinstance(t, TensorSpec) for t in tensors):
            return None
        attrs: list[object] = [v for v in [*case.init_args, *case.scalars]
                               if isinstance(v, (int, float, bool, str, list))]
        concrete = ConcreteInputs([(None, tuple(t.shape), t.dtype) for t in tensors], attrs)
        return concrete.for_program(program, chip)
    return _model_shapes(model_src, case, program, found, chip)


def _model_shapes(model_src: str | None, case: Any, program: Any, binding: tuple[Any, Any], chip: str) -> Any:
    """The op's TilingInputs from the custom op call ModelNew.forward makes (tensors and attributes routed
    through the binding's EXEC_NPU_CMD), or None."""
    from ascendir.binding_args import UNKNOWN, exec_arguments
    from ascendir.host_eval import AttrValue, TensorSpec, TilingInputs
    from ascendir.model_args import custom_op_arguments

    if not model_src:
        return None
    args, _ = custom_op_arguments(model_src, case)
    fn, call = binding
    if args is None or len(args) != len(fn.params):
        return None  # not evaluated, or the Python call does not fit the bound function
    op_json = (program.bundle.op_json or [{}])[0]
    declared = len(op_json.get("input_desc") or [])
    attr_types = [str(a.get("type", "")) for a in op_json.get("attr") or [] if isinstance(a, dict)]
    values = exec_arguments(fn, call, args)
    if len(values) < declared:
        return None
    tensors: list[TensorSpec | None] = []
    for value in values[:declared]:
        if not (value is None or isinstance(value, TensorSpec)):
            return None  # op.cpp computes this input in a way not followed, or pybind refuses the value
        tensors.append(value)  # None: an absent optional input
    attrs: list[AttrValue | None] = []
    for value, kind in zip(values[declared:declared + len(attr_types)], attr_types):
        if value is UNKNOWN:
            break  # computed in op.cpp: this one and the rest stay unknown
        if not _fits_attr(value, kind):
            return None  # pybind would refuse this value: the reference is not the test this model ran
        attrs.append(list(value) if isinstance(value, tuple) else value)  # type: ignore[arg-type]
    return TilingInputs(tensors, attrs=attrs, chip=chip)


def _fits_attr(value: Any, kind: str) -> bool:
    """Whether a Python value passes pybind's conversion for an op attribute of this json type."""
    if kind in ("int", "int64", "int32"):
        return isinstance(value, int)
    if kind in ("float", "float32", "double"):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind in ("listInt", "list_int", "listInt64"):
        return isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if kind in ("listFloat", "list_float"):
        return isinstance(value, tuple) and all(isinstance(v, (int, float)) for v in value)
    if kind in ("str", "string"):
        return isinstance(value, str)
    return False


NOT_A_LITERAL = "ASC012"


def _load_split_project(files: dict[str, str], chip: str) -> Any:
    """The record's op_host/, op_kernel/ and op json files, read as an op project folder."""
    import tempfile

    from frontend.readers import read_input
    from passes.verify import load_for_check

    with tempfile.TemporaryDirectory(prefix="realworld-") as tmp:
        root = Path(tmp)
        for rel, text in files.items():
            if rel.startswith(("op_host/", "op_kernel/")) or (rel.endswith(".json") and "/" not in rel):
                target = root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        program, _ = load_for_check(read_input(str(root)), chip)
        for unit in program.units:  # read every text now: the folder is gone afterwards
            program.line(unit.unit.file, 1)
        return program


# Why a record is missed; realworld_misses.toml gives one of these per missed record, with the evidence.
MISS_CATEGORIES = {
    "not-in-files": "the failing code the error quotes is not in the record's files_before",
    "needs-shapes": "provable only with the task's test shapes, which the records do not carry",
    "matmul-tiling": "the Matmul API's host tiling (GetTiling) failed; its tiling algorithm is not modelled",
    "runtime-semantics": "wrong program logic that no source rule can tell from a correct program",
    "environment": "a build or harness failure not caused by the record's sources",
    "catchable": "a sound source rule could flag it; none does yet",
    "unknown": "the cause could not be established from the record",
}


# Why an error on a passing project (files_after) is not a false alarm; realworld_misses.toml's [after.ID]
# tables name the codes they explain, and an error of any other code still counts.
AFTER_CATEGORIES = {
    "masked-defect": "a real defect the passing project still has, which its test cannot see (the value it "
                     "corrupts is never used)",
}


def load_explanations(path: Path) -> dict[str, dict[str, str]]:
    """The per-record miss explanations: {id: {category, reason, evidence, rule}}. A missing file is empty;
    an entry with an unknown category is an error, so the table of reasons stays honest."""
    return _load_table(path, "miss", MISS_CATEGORIES)


def load_after_explanations(path: Path) -> dict[str, dict[str, Any]]:
    """The explained errors on passing projects: {id: {category, codes, reason, evidence}}."""
    table = _load_table(path, "after", AFTER_CATEGORIES)
    for rid, entry in table.items():
        if not entry.get("codes"):
            raise SystemExit(f"{path}: after {rid!r} names no codes; it must say which errors it explains")
    return table


@lru_cache(maxsize=4)
def _read_toml(path: Path) -> dict[str, Any]:
    """The explanations file, read once for both of its tables ({} when it does not exist)."""
    import tomllib

    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _load_table(path: Path, name: str, categories: dict[str, str]) -> dict[str, dict[str, Any]]:
    table = _read_toml(path).get(name, {})
    for rid, entry in table.items():
        if entry.get("category") not in categories:
            raise SystemExit(f"{path}: {name} {rid!r} has category {entry.get('category')!r}; "
                             f"expected one of {', '.join(categories)}")
    return table


def error_line(record: dict[str, Any]) -> str:
    """The first line of the record's error text that says what went wrong."""
    lines = [ln.strip() for ln in str(record.get("error", "")).splitlines() if ln.strip()]
    for ln in lines:
        if re.search(r"error|fail|not implement|No such file|not in libopapi", ln, re.IGNORECASE) and \
                not ln.startswith(("Exit Code", "Error Output")):
            return ln[:220]
    return (lines[0] if lines else "")[:220]


def _explained(explanations: dict[str, dict[str, str]], rid: str) -> dict[str, str]:
    entry = explanations.get(rid)
    if entry is None:
        return {"category": "unexplained", "reason": ""}
    return {"category": entry["category"], "reason": entry.get("reason", "")}


def describe(d: Any) -> str:
    where = f"{Path(d.span.file).name}:{d.span.line}: " if d.span is not None else ""
    return f"{where}{d.message} [{d.code}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="?", type=Path, default=DEFAULT_RECORDS)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--chip", default="910B2")
    parser.add_argument("--misses", action="store_true", help="print every miss, not only the count per kind")
    parser.add_argument("--references", type=Path, default=None, metavar="DIR",
                        help="MultiKernelBench reference programs (<task>.py with get_inputs): check every project "
                             "with its task's test shapes, as `ascendc-check --test-case` does")
    parser.add_argument("--explanations", type=Path, default=DEFAULT_EXPLANATIONS, metavar="TOML",
                        help="why each missed record is missed (default: realworld_misses.toml beside this script)")
    parser.add_argument("--simulate", action="store_true",
                        help="with --references: run each record the static check misses, and its passing project, "
                             "on the simulator with the reference's inputs (bench/perf/realworld_sim.py); the "
                             "static+sim column counts it when the failing version fails at run time and the "
                             "passing one is correct")
    parser.add_argument("--sim-results", type=Path, default=None, metavar="R.jsonl",
                        help="the simulator's verdicts, appended as they finish; a rerun resumes from them")
    parser.add_argument("--sim-max-elements", type=int, default=1 << 25)
    parser.add_argument("--sim-workers", type=int, default=None)
    args = parser.parse_args()
    if args.simulate and args.references is None:
        parser.error("--simulate needs --references (the reference programs give the inputs)")
    explanations = load_explanations(args.explanations)
    after_explanations = load_after_explanations(args.explanations)
    references = find_references(args.references)
    if not args.records.exists():
        print(f"no records at {args.records} (pass the path of kernelhive-failures/records.jsonl)", file=sys.stderr)
        return 2
    records = [json.loads(line) for line in args.records.read_text(encoding="utf-8").splitlines() if line.strip()]

    t0 = time.perf_counter()
    # ---- false alarms on the passing projects
    after_checked = 0
    false_alarms: list[dict[str, Any]] = []
    masked_defects: list[dict[str, Any]] = []  # errors on passing projects that realworld_misses.toml explains
    unreadable_after: list[str] = []
    seen_after: set[str] = set()
    for r in records:
        files = r.get("files_after") or {}
        if not files:
            continue
        key = json.dumps(files, sort_keys=True)
        if key in seen_after:  # attempts of one op share the final project
            continue
        seen_after.add(key)
        diags = check_files(files, r["op"], args.chip, reference_of(references, r["op"]))
        if diags is None:
            continue
        errors = [d for d in diags if d.is_error]
        if errors and all(d.code == NOT_A_LITERAL for d in errors):
            # the answer builds its sources at run time from files outside the record: nothing to check
            unreadable_after.append(r["id"])
            continue
        after_checked += 1
        if errors:
            found = {"id": r["id"], "op": r["op"], "errors": [describe(d) for d in errors]}
            explained = after_explanations.get(r["id"])
            if explained is not None and all(d.code in explained["codes"] for d in errors):
                masked_defects.append({**found, "category": explained["category"], "reason": explained["reason"]})
            else:
                false_alarms.append(found)

    # ---- recall on the failing projects
    per_kind: dict[str, Counter[str]] = defaultdict(Counter)
    misses: list[dict[str, Any]] = []
    hits: list[dict[str, Any]] = []
    for r in records:
        if r.get("verifier_tier") not in RECALL_TIERS or not r.get("files_before"):
            continue
        kind = r.get("bug_kind", "unknown")
        diags = check_files(r["files_before"], r["op"], args.chip, reference_of(references, r["op"]))
        per_kind[kind]["total"] += 1
        if diags is None:
            per_kind[kind]["unreadable"] += 1
            misses.append({"id": r["id"], "bug_kind": kind, "error": error_line(r), "why": "no answer file",
                           **_explained(explanations, r["id"])})
            continue
        errors = [d for d in diags if d.is_error]
        if errors:
            per_kind[kind]["flagged"] += 1
            hits.append({"id": r["id"], "bug_kind": kind, "error": error_line(r),
                         "findings": [describe(d) for d in errors[:6]]})
        else:
            warnings = [describe(d) for d in diags]
            misses.append({"id": r["id"], "bug_kind": kind, "error": error_line(r), "warnings": warnings[:4],
                           **_explained(explanations, r["id"])})
    if args.simulate:
        from bench.harness.results import OptionsDiffer
        from bench.perf.realworld_sim import simulate_misses

        by_id = {r["id"]: r for r in records}
        try:
            outcomes = simulate_misses([by_id[m["id"]] for m in misses if by_id[m["id"]].get("files_before")],
                                       args.references, args.sim_results, args.sim_max_elements, args.sim_workers)
        except OptionsDiffer as exc:
            print(f"realworld: {exc}; {exc.advice('--sim-results')}",
                  file=sys.stderr)
            return 2
        for m in misses:
            outcome = outcomes.get(m["id"])
            m["simulator"] = outcome.why if outcome is not None else "not run"
            if outcome is not None and outcome.caught:
                m["caught_by_simulator"] = True
                per_kind[m["bug_kind"]]["sim"] += 1
    elapsed = time.perf_counter() - t0

    total = sum(c["total"] for c in per_kind.values())
    flagged = sum(c["flagged"] for c in per_kind.values())
    share = flagged / total if total else 0.0
    rows = [{"bug_kind": k, "total": c["total"], "flagged": c["flagged"],
             "share": c["flagged"] / c["total"] if c["total"] else 0.0,
             **({"flagged_with_sim": c["flagged"] + c["sim"]} if args.simulate else {})}
            for k, c in sorted(per_kind.items(), key=lambda kv: (-kv[1]["total"], kv[0]))]
    with_sim = flagged + sum(c["sim"] for c in per_kind.values())
    # records whose failing code is in the record: the misses explained as outside it do not count
    outside = [m for m in misses if m["category"] in OUTSIDE_THE_RECORD and not m.get("caught_by_simulator")]
    in_record = total - len(outside)

    try:
        from rich.console import Console
        from rich.table import Table

        console = Console(width=160)
        shapes = "with the reference shapes" if args.references else "without shapes"
        table = Table(title=f"files_before flagged (tiers {', '.join(RECALL_TIERS)}), chip {args.chip}, {shapes}")
        columns = ("bug kind", "records", "static", "share") + (("static+sim", "share") if args.simulate else ())
        for col in columns:
            table.add_column(col, justify="left" if col == "bug kind" else "right")
        for row in rows:
            sim_cells = (str(row["flagged_with_sim"]), f"{row['flagged_with_sim'] / row['total']:.0%}") \
                if args.simulate else ()
            table.add_row(row["bug_kind"], str(row["total"]), str(row["flagged"]), f"{row['share']:.0%}", *sim_cells)
        table.add_row("all", str(total), str(flagged), f"{share:.0%}",
                      *((str(with_sim), f"{with_sim / max(total, 1):.0%}") if args.simulate else ()), style="bold")
        console.print(table)
    except ImportError:  # pragma: no cover
        for row in rows:
            print(f"{row['bug_kind']:32} {row['total']:4} {row['flagged']:4} {row['share']:6.0%}")
        print(f"{'all':32} {total:4} {flagged:4} {share:6.0%}")
    if args.misses:
        print("misses:")
        for m in misses:
            print(f"  {m['id']:52} {m['bug_kind']:30} {m['category']:17} {m['error'][:100]}")
            if m["reason"]:
                print(f"  {'':52} {m['reason']}")
            if "simulator" in m:
                caught = "CAUGHT by the simulator" if m.get("caught_by_simulator") else "simulator"
                print(f"  {'':52} {caught}: {m['simulator']}")
    else:
        by_kind = Counter(m["bug_kind"] for m in misses)
        print("misses per bug kind: " + ", ".join(f"{k} {n}" for k, n in by_kind.most_common()) + " (--misses lists them)")
    by_category = Counter(m["category"] for m in misses)
    print("misses by reason: " + ", ".join(f"{c} {n}" for c, n in by_category.most_common()))
    for category in by_category:
        print(f"  {category}: {MISS_CATEGORIES.get(category, 'no entry in ' + args.explanations.name)}")
    stale = sorted(set(explanations) & {h["id"] for h in hits})
    if stale:
        print(f"flagged now, so their entries in {args.explanations.name} can go: {', '.join(stale)}")
    for fa in false_alarms:
        print(f"FALSE ALARM {fa['id']}: " + "; ".join(fa["errors"][:3]))
    for md in masked_defects:
        print(f"explained ({md['category']}) {md['id']}: " + "; ".join(md["errors"][:3]))
        print(f"  {md['reason']}")
    print(f"files_after: {len(false_alarms)} of {after_checked} passing projects with a false alarm (goal 0): "
          f"{'PASS' if not false_alarms else 'MISS'}"
          + (f"; {len(unreadable_after)} not checkable (sources computed at run time from files outside the "
             f"record: {', '.join(unreadable_after)})" if unreadable_after else "")
          + (f"; {len(masked_defects)} more with a real defect their test cannot see (listed above)"
             if masked_defects else ""))
    print(f"files_before: {flagged} of {total} flagged = {share:.1%} (goal {RECALL_GOAL:.0%}): "
          f"{'PASS' if share >= RECALL_GOAL else 'MISS'}   [{elapsed:.1f} s]")
    in_share = flagged / in_record if in_record else 0.0
    print(f"files_before whose failing code is in the record (all but the misses explained as "
          f"{' or '.join(OUTSIDE_THE_RECORD)}): static {flagged} of {in_record} = {in_share:.1%} "
          f"(goal {IN_RECORD_GOAL:.0%}): {'PASS' if in_share >= IN_RECORD_GOAL else 'MISS'}")
    if args.simulate:
        sim_share = with_sim / in_record if in_record else 0.0
        print(f"  static+sim (a miss the simulator catches on the reference inputs while the passing project runs "
              f"correct): {with_sim} of {in_record} = {sim_share:.1%}; of all {total}: {with_sim / max(total, 1):.1%}")

    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "records": str(args.records), "chip": args.chip, "tiers": list(RECALL_TIERS),
        "shapes": f"reference programs in {args.references} ({sum(not k.startswith('~') for k in references)} found)" if args.references
        else "none (only what holds for every input)",
        "files_after": {"checked": after_checked, "with_errors": len(false_alarms), "goal": 0,
                        "false_alarms": false_alarms, "masked_defects": masked_defects,
                        "not_checkable": unreadable_after},
        "files_before": {"checked": total, "flagged": flagged, "share": share, "goal": RECALL_GOAL,
                         "in_record": {"checked": in_record, "flagged": flagged, "goal": IN_RECORD_GOAL,
                                       "outside": [m["id"] for m in outside],
                                       **({"flagged_with_sim": with_sim} if args.simulate else {})},
                         "per_bug_kind": rows, "misses": misses, "hits": hits,
                         "misses_by_reason": dict(by_category.most_common()), "explained_but_flagged": stale},
        "seconds": elapsed,
    }, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
