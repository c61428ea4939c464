"""The dataset card: README.md of the output folder, with the Hugging Face `configs` header that lets
`datasets.load_dataset(folder, "sft")` find the files, and every count recomputed from the written files."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

CONFIGS = ("sft", "dpo", "grpo")


def read_split_files(out: Path) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """config -> split -> records, as written."""
    data: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for config in CONFIGS:
        for split in ("train", "test"):
            path = out / config / f"{split}.jsonl"
            rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
            data.setdefault(config, {})[split] = rows
    return data


def counts(out: Path) -> dict[str, Any]:
    """The counts the card shows, from the files: per source, bug operator, rule code, category, tier and split."""
    data = read_split_files(out)
    table: dict[str, Any] = {"records": {}, "source": Counter(), "operator": Counter(), "code": Counter(),
                             "category": Counter(), "tier": Counter(), "bug_kind": Counter(), "tasks": {}}
    for config in ("sft", "dpo"):
        for split, rows in data[config].items():
            table["records"][f"{config}/{split}"] = len(rows)
            for r in rows:
                kind = "sft" if config == "sft" else "pairs"
                table["source"][f"{r['source']} {kind} {split}"] += 1
                if r["operator"]:
                    table["operator"][f"{r['operator']} {kind}"] += 1
                for code in r["codes"]:
                    table["code"][f"{code} {kind}"] += 1
                if r["category"]:
                    table["category"][f"{r['category']} {kind}"] += 1
                if r["tier"]:
                    table["tier"][f"{r['source']} {r['tier']} {kind}"] += 1
                if r["bug_kind"]:
                    table["bug_kind"][f"{r['bug_kind']} {kind}"] += 1
    for split, rows in data["grpo"].items():
        table["records"][f"grpo/{split}"] = len(rows)
    for split in ("train", "test"):
        table["tasks"][split] = sorted({r["group"] for c in ("sft", "dpo") for r in data[c][split]
                                        if r["source"] != "docs"})
    return {k: dict(v) if isinstance(v, Counter) else v for k, v in table.items()}


def _rows(counter: Mapping[str, int], header: str) -> list[str]:
    lines = [f"| {header} | records |", "|---|---:|"]
    lines += [f"| {k} | {v} |" for k, v in sorted(counter.items())]
    return lines


def write_card(out: Path, build_info: Mapping[str, Any]) -> dict[str, Any]:
    """Writes README.md and stats.json; returns the counts."""
    c = counts(out)
    header = ["---", "configs:"]
    for config in CONFIGS:
        header += [f"- config_name: {config}", "  data_files:"]
        header += [f"  - split: {s}\n    path: {config}/{s}.jsonl" for s in ("train", "test")]
    header += ["license: apache-2.0", "---", ""]
    mutants = build_info.get("mutants", {})
    lines = header + [
        "# AscendIR AscendC dataset", "",
        "Built by `ascendir data build` from the toolchain's own data and checks: documentation-grounded records "
        "(the API catalog, the rule pages, the chip files), code-centric records (the bundled tasks' reference "
        "solutions with reasoning derived from their IR), error-derived records (bugs of real kinds seeded into "
        "those solutions by passes/mutate and kept only when a checker flags them; repair examples and "
        "preference pairs) and real repairs (failing and passing attempts of the KernelHive failure records, "
        "read at build time).", "",
        "Configs: `sft` (chat `messages`), `dpo` (`prompt`, `chosen`, `rejected`), `grpo` (`prompt`, `task`: the "
        "benchmark's verdict is the reward). Every record carries `source`, `group` (the operator; the split "
        "never puts one group in both splits), `task`, `suite`, `category`, `level`, `operator`, `bug_kind`, "
        "`codes` (the rule codes of its diagnostics) and `tier` (who flagged the bug).", "",
        "## Build", "", "```json", json.dumps(build_info.get("options", {}), indent=1, sort_keys=True), "```", "",
        "## Records per file", ""] + _rows(c["records"], "file") + [
        "", "## Records per source, kind and split", ""] + _rows(c["source"], "source kind split") + [
        "", "## Records per bug operator", ""] + _rows(c["operator"], "operator kind") + [
        "", "## Records per rule code", ""] + _rows(c["code"], "code kind") + [
        "", "## Records per task category", ""] + _rows(c["category"], "category kind") + [
        "", "## Records per flagging tier", "",
        "`static`: ascendc-check without shapes; `static-shapes`: with a test case's shapes; `simulator`: only the "
        "simulated run; `recorded`: only the real build or run of the failure record.", ""] + _rows(
        c["tier"], "source tier kind") + [
        "", "## Mutants tried and flagged, per operator", "",
        "| operator | tried | static | static-shapes | simulator | not flagged |", "|---|---:|---:|---:|---:|---:|"]
    for op in sorted(mutants.get("tried", {})):
        f = mutants.get("flagged", {})
        lines.append(f"| {op} | {mutants['tried'][op]} | {f.get('static', {}).get(op, 0)} | "
                     f"{f.get('static-shapes', {}).get(op, 0)} | {f.get('simulator', {}).get(op, 0)} | "
                     f"{mutants.get('unflagged', {}).get(op, 0)} |")
    lines += ["", "## Splits", "", f"Test groups ({len(c['tasks']['test'])}): {', '.join(c['tasks']['test'])}", "",
              f"Near-duplicate components joined before splitting: {build_info.get('components', [])}", "",
              f"Exact duplicates removed: {build_info.get('duplicates', 0)}", ""]
    if build_info.get("skipped"):
        lines += ["## Left out", "", "```json", json.dumps(build_info["skipped"], indent=1, sort_keys=True), "```",
                  ""]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")
    (out / "stats.json").write_text(json.dumps({"counts": c, **build_info}, indent=1, sort_keys=True),
                                    encoding="utf-8")
    return c
