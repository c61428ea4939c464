"""Vendor op projects end to end (issue 28): each op folder of the ops repositories run by `ascendir run OPDIR`
WITH its host code (the host tiling interpreted for blockDim, tiling data and tiling key), against a numpy
model of the op's documented formula.

    nice -n 10 .venv/bin/python bench/perf/vendor_ops.py [--real /work/ext/real] [--ops NAME,...]
        [--timeout 600] [--json OUT]

The op folders are read where they are checked out (never copied). Shapes are those of each op's own example
(examples/test_aclnn_*.cpp), made a little larger where the example is a toy; inputs are seeded. Per op the
table says how far the run got:

    host parses  - no ASC001 in the op's sources
    tiling runs  - the host tiling function ran to a success status (no ASC602 "host tiling fails")
    kernel runs  - the simulator ran the kernel to its end on the blockDim the host chose
    matches      - every output within the op's tolerance of the numpy model (the benchmark's Tolerance)

and the first error that stopped it. A missing op folder is skipped. Prints a Markdown table; --json writes
the rows. The cases of session 11's ops-nn activations, norms, losses, index and pooling ops and ops-math ops are in
vendor_ops_nn.py, session 12's optimiser, pooling, loss-gradient, vfusion and diagonal / padding ops in
vendor_ops_optim_pool.py, session 13's activation gradients, index / scatter, conversion and loss ops in
vendor_ops_grad_index.py, session 14's ops that accumulate into their outputs (SetNeedAtomic, atomic adds) in
vendor_ops_atomic.py and its ops-math elementwise, select, reduction and grouped ops in vendor_ops_math.py; OpCase
and the tolerances in vendor_op_case.py.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the repository's packages (bench.suites) before bench/perf's own modules
# the case modules beside this script, found last (bench/perf's frontend.py, sim.py ... must not shadow packages)
sys.path.append(str(Path(__file__).resolve().parent))

from vendor_op_case import DEFAULT_TOLERANCE, Arrays, OpCase, layer_norm as _layer_norm  # noqa: E402
from vendor_op_case import f32 as _f32, unpack_int4, with_specials as _with_specials, within as _within  # noqa: E402
from vendor_ops_atomic import atomic_cases  # noqa: E402
from vendor_ops_cube import cube_cases  # noqa: E402
from vendor_ops_grad_index import grad_index_cases  # noqa: E402
from vendor_ops_math import math_cases  # noqa: E402
from vendor_ops_nn import nn_and_math_cases  # noqa: E402
from vendor_ops_optim_pool import optim_pool_cases  # noqa: E402


def _rms(x: np.ndarray, eps: float) -> np.ndarray:
    return 1.0 / np.sqrt(np.mean(x.astype(np.float64) ** 2, axis=-1, keepdims=True) + eps)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _cases() -> list[OpCase]:
    rows, cols = 8, 64
    return [
        OpCase("rms_norm", "ops-nn/norm/rms_norm",
               lambda r: {"x": _f32(r, rows, cols), "gamma": _f32(r, cols)},
               {"y": ((rows, cols), "float32"), "rstd": ((rows, 1), "float32")},
               lambda a: {"y": a["x"] * _rms(a["x"], 1e-6) * a["gamma"], "rstd": _rms(a["x"], 1e-6)},
               note="y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + eps), eps 1e-6 (README)"),
        OpCase("add_rms_norm", "ops-nn/norm/add_rms_norm",
               lambda r: {"x1": _f32(r, rows, cols), "x2": _f32(r, rows, cols), "gamma": _f32(r, cols)},
               {"y": ((rows, cols), "float32"), "rstd": ((rows, 1), "float32"), "x": ((rows, cols), "float32")},
               lambda a: {"y": (a["x1"] + a["x2"]) * _rms(a["x1"] + a["x2"], 1e-6) * a["gamma"],
                          "rstd": _rms(a["x1"] + a["x2"], 1e-6), "x": a["x1"] + a["x2"]},
               note="x = x1 + x2, then rms_norm's formula"),
        OpCase("gemma_rms_norm", "ops-nn/norm/gemma_rms_norm",
               lambda r: {"x": _f32(r, rows, cols), "gamma": _f32(r, cols)},
               {"y": ((rows, cols), "float32"), "rstd": ((rows, 1), "float32")},
               lambda a: {"y": a["x"] * _rms(a["x"], 1e-6) * (1.0 + a["gamma"]), "rstd": _rms(a["x"], 1e-6)},
               note="y = x * rstd * (1 + gamma)"),
        OpCase("add_layer_norm", "ops-nn/norm/add_layer_norm",
               lambda r: {"x1": _f32(r, 2, rows, cols), "x2": _f32(r, 2, rows, cols), "gamma": _f32(r, cols),
                          "beta": _f32(r, cols), "bias": _f32(r, cols)},
               {"y": ((2, rows, cols), "float32"), "mean": ((2, rows, 1), "float32"),
                "rstd": ((2, rows, 1), "float32"), "x": ((2, rows, cols), "float32")},
               lambda a: {**_layer_norm(a["x1"] + a["x2"] + a["bias"], a["gamma"], a["beta"], 1e-5),
                          "x": a["x1"] + a["x2"] + a["bias"]},
               # additional_output (default false) asks for x: without it the kernel (tiling key < 100,
               # IS_ADDITIONAL_OUTPUT_ENABLE) rightly leaves x unwritten
               attrs=["1e-5", "true"],
               note="x = x1 + x2 + bias, y = (x - mean) * rstd * gamma + beta, eps 1e-5"),
        OpCase("deep_norm", "ops-nn/norm/deep_norm",
               lambda r: {"x": _f32(r, 3, rows, cols), "gx": _f32(r, 3, rows, cols), "beta": _f32(r, cols),
                          "gamma": _f32(r, cols)},
               {"mean": ((3, rows, 1), "float32"), "rstd": ((3, rows, 1), "float32"),
                "y": ((3, rows, cols), "float32")},
               lambda a: _layer_norm(a["x"] * 0.3 + a["gx"], a["gamma"], a["beta"], 1e-6),
               note="x' = alpha * x + gx (alpha 0.3), then layer norm, eps 1e-6"),
        OpCase("dynamic_quant", "ops-nn/quant/dynamic_quant",
               lambda r: {"x": (_f32(r, rows, cols) * 4).astype(np.float16)},
               {"y": ((rows, cols), "int8"), "scale": ((rows,), "float32")},
               lambda a: _dynamic_quant(a["x"]), tolerance={"y": _within(1.0), "scale": _within(1e-6)},
               note="scale = max|x| / 127 per row, y = round(x / scale) (no smooth_scales)"),
        OpCase("ascend_quant_v2", "ops-nn/quant/ascend_quant_v2",
               lambda r: {"x": _f32(r, rows, cols) * 20, "scale": np.full(cols, 1.5, np.float32),
                          "offset": np.full(cols, 0.5, np.float32)},
               {"y": ((rows, cols), "int8")},
               lambda a: {"y": np.clip(np.rint(a["x"] * a["scale"] + a["offset"]), -128, 127)},
               tolerance={"y": _within(1.0)},
               note="y = round(x * scale + offset) saturated to int8 (round_mode round)"),
        OpCase("moe_gating_top_k_softmax", "ops-transformer/moe/moe_gating_top_k_softmax",
               lambda r: {"x": _f32(r, rows, 16)},
               {"y": ((rows, 2), "float32"), "expert_idx": ((rows, 2), "int32"), "row_idx": ((rows, 2), "int32")},
               lambda a: _gating(a["x"], 2), attrs=["2"],
               note="softmax over experts, top-k values and indices, row_idx[i][j] = j * rows + i"),
        OpCase("moe_init_routing", "ops-transformer/moe/moe_init_routing",
               lambda r: {"x": _f32(r, rows, 32),
                          "row_idx": np.arange(rows * 2, dtype=np.int32).reshape(2, rows).T.copy(),
                          "expert_idx": r.integers(0, 4, (rows, 2)).astype(np.int32)},
               {"expanded_x": ((rows * 2, 32), "float32"), "expanded_row_idx": ((rows * 2,), "int32"),
                "expanded_expert_idx": ((rows * 2,), "int32")},
               lambda a: _init_routing(a["x"], a["row_idx"], a["expert_idx"], rows * 2), attrs=[str(rows * 2)],
               note="stable sort of the expert ids; expanded_x[p] = x[row of sorted p]; expanded_row_idx "
                    "the inverse permutation"),
        OpCase("moe_token_permute", "ops-transformer/moe/moe_token_permute",
               lambda r: {"tokens": _f32(r, rows, 32), "indices": r.integers(0, 4, (rows, 2)).astype(np.int64)},
               {"permute_tokens": ((rows * 2, 32), "float32"), "sorted_indices": ((rows * 2,), "int32")},
               lambda a: _permute(a["tokens"], a["indices"]),
               note="stable argsort of the flattened indices; permute_tokens[p] = tokens[sorted[p] // topk]"),
    ] + _math_and_transformer_cases(rows, cols) + nn_and_math_cases(rows, cols) + cube_cases() + \
        optim_pool_cases(rows, cols) + grad_index_cases() + atomic_cases() + math_cases()


def _math_and_transformer_cases(rows: int, cols: int) -> list[OpCase]:
    """ops-math and ops-transformer projects of other kinds (session 10, engineer V3): elementwise with a
    broadcast scalar, a float-class test, a generator, a transpose, MoE gather / combine, rotary embedding.
    /work/ext/real holds no docs for these ops: each formula is the public CANN aclnn API page's (named in the
    note) and agrees with the op's own example (examples/test_aclnn_*.cpp)."""
    tokens, topk, hidden, experts = rows, 2, cols, 4
    return [
        OpCase("pows", "ops-math/math/pows",
               lambda r: {"x1": r.uniform(0.5, 2.0, (rows, cols)).astype(np.float32),
                          "x2": np.array([3.0], np.float32)},
               {"y": ((rows, cols), "float32")},
               lambda a: {"y": a["x1"].astype(np.float64) ** a["x2"][0]},
               note="y = x1 ^ x2, x2 a one-element exponent broadcast (aclnnPowTensorScalar / Pows)"),
        OpCase("is_inf", "ops-math/math/is_inf",
               lambda r: {"x": _with_specials(_f32(r, rows, cols))},
               {"y": ((rows, cols), "bool")},
               lambda a: {"y": np.isinf(a["x"])},
               note="y = (|x| == inf): true for +inf and -inf, false for nan and finite x (aclnnIsInf)"),
        OpCase("lin_space", "ops-math/math/lin_space",
               lambda r: {"start": np.array(-3.0, np.float32), "stop": np.array(5.0, np.float32),
                          "num": np.array(40, np.int32)},
               {"output": ((40,), "float32")},
               lambda a: {"output": np.linspace(-3.0, 5.0, 40)},
               note="output[i] = start + i * (stop - start) / (num - 1), i < num (aclnnLinspace)"),
        OpCase("transpose_v2", "ops-math/conversion/transpose_v2",
               lambda r: {"x": _f32(r, 2, 16, 32), "perm": np.array([0, 2, 1], np.int32)},
               {"y": ((2, 32, 16), "float32")},
               lambda a: {"y": np.transpose(a["x"], a["perm"])},
               note="y = x with its axes permuted by perm (TransposeV2, the numpy transpose)"),
        OpCase("moe_finalize_routing", "ops-transformer/moe/moe_finalize_routing",
               lambda r: {"expanded_x": _f32(r, tokens * topk, hidden), "x1": _f32(r, tokens, hidden),
                          "x2": _f32(r, tokens, hidden), "bias": _f32(r, experts, hidden),
                          "scales": r.uniform(0.0, 1.0, (tokens, topk)).astype(np.float32),
                          "expanded_row_idx": r.permutation(tokens * topk).astype(np.int32),
                          "expanded_expert_idx": r.integers(0, experts, (tokens, topk)).astype(np.int32)},
               {"y": ((tokens, hidden), "float32")},
               lambda a: {"y": _finalize_routing(a)},
               note="y[i] = x1[i] + x2[i] + sum_k scales[i,k] * (expanded_x[expanded_row_idx[i + k*rows]] "
                    "+ bias[expanded_expert_idx[i,k]]) (aclnnMoeFinalizeRouting)"),
        OpCase("apply_rotary_pos_emb", "ops-transformer/posembedding/apply_rotary_pos_emb",
               lambda r: {"query": _f32(r, 2, 8, 4, 64), "key": _f32(r, 2, 8, 4, 64),
                          "cos": _f32(r, 2, 8, 1, 64), "sin": _f32(r, 2, 8, 1, 64)},
               {"query": ((2, 8, 4, 64), "float32"), "key": ((2, 8, 4, 64), "float32")},
               lambda a: {n: _rope_half(a[n], a["cos"], a["sin"]) for n in ("query", "key")},
               attrs=["1", "half"],
               note="layout 1 (BSND), rotary_mode half: out = x * cos + rotate_half(x) * sin, rotate_half(x) = "
                    "concat(-x[..., d/2:], x[..., :d/2]) (aclnnApplyRotaryPosEmb), in place on query and key"),
        OpCase("moe_compute_expert_tokens", "ops-transformer/moe/moe_compute_expert_tokens",
               lambda r: {"sorted_experts": np.sort(r.integers(0, 8, 64)).astype(np.int32)},
               {"total_rows_before_expert": ((8,), "int32")},
               lambda a: {"total_rows_before_expert": np.searchsorted(a["sorted_experts"], np.arange(8),
                                                                      side="right")},
               attrs=["8"],
               note="total_rows_before_expert[e] = how many of the sorted expert ids are <= e, the end row of "
                    "expert e (aclnnMoeComputeExpertTokens)"),
        OpCase("moe_token_unpermute", "ops-transformer/moe/moe_token_unpermute",
               lambda r: {"permuted_tokens": _f32(r, tokens * topk, hidden),
                          "sorted_indices": r.permutation(tokens * topk).astype(np.int32),
                          "probs": r.uniform(0.0, 1.0, (tokens, topk)).astype(np.float32)},
               {"unpermuted_tokens": ((tokens, hidden), "float32")},
               lambda a: {"unpermuted_tokens": _unpermute(a)},
               note="unpermuted[t] = sum_k permuted_tokens[sorted_indices[t*topk + k]] * probs[t,k] "
                    "(aclnnMoeTokenUnpermute, padded_mode false)"),
    ]


def _finalize_routing(a: Arrays) -> np.ndarray:
    rows, topk = a["scales"].shape
    y = a["x1"].astype(np.float64) + a["x2"]
    for k in range(topk):
        src = a["expanded_x"][a["expanded_row_idx"][np.arange(rows) + k * rows]]
        y += a["scales"][:, k:k + 1] * (src + a["bias"][a["expanded_expert_idx"][:, k]])
    return y


def _rope_half(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x.astype(np.float64) * cos + rotated * sin


def _unpermute(a: Arrays) -> np.ndarray:
    tokens, topk = a["probs"].shape
    picked = a["permuted_tokens"][a["sorted_indices"]].reshape(tokens, topk, -1).astype(np.float64)
    return (picked * a["probs"][:, :, None]).sum(axis=1)


def _dynamic_quant(x: np.ndarray) -> Arrays:
    xf = x.astype(np.float32)
    scale = np.abs(xf).max(axis=-1) / 127.0
    return {"y": np.clip(np.rint(xf / scale[:, None]), -128, 127), "scale": scale}


def _gating(x: np.ndarray, k: int) -> Arrays:
    p = _softmax(x.astype(np.float64))
    idx = np.argsort(-p, axis=-1, kind="stable")[:, :k]
    rows = x.shape[0]
    return {"y": np.take_along_axis(p, idx, axis=-1), "expert_idx": idx,
            "row_idx": np.arange(k)[None, :] * rows + np.arange(rows)[:, None]}


def _init_routing(x: np.ndarray, row_idx: np.ndarray, expert_idx: np.ndarray, active: int) -> Arrays:
    flat_e, flat_r = expert_idx.reshape(-1), row_idx.reshape(-1)
    order = np.argsort(flat_e, kind="stable")
    rows = x.shape[0]
    expanded_row = np.empty_like(flat_r)
    expanded_row[flat_r[order]] = np.arange(len(order))
    return {"expanded_x": x[flat_r[order] % rows][:active], "expanded_row_idx": expanded_row,
            "expanded_expert_idx": flat_e[order]}


def _permute(tokens: np.ndarray, indices: np.ndarray) -> Arrays:
    topk = indices.shape[1]
    order = np.argsort(indices.reshape(-1), kind="stable")
    sorted_indices = np.empty_like(order)
    sorted_indices[order] = np.arange(len(order))
    return {"permute_tokens": tokens[order // topk], "sorted_indices": sorted_indices}


def _cause(message: str) -> str:
    """A host-tiling failure lists every gap of the lowering before the failure itself: the errors among them
    and the last clause (what the function returned, or the input it stopped at), file paths shortened."""
    parts = message.split("; ")
    keep = [p for p in parts[:-1] if " error: " in p][:2] + parts[-1:]
    text = "; ".join(keep)
    return text.replace("/work/ext/real/", "")[:400]


def _stage(findings: list[dict], completed: bool, outputs: dict,
           unwritten: list[str] | None = None) -> tuple[str, str]:
    """(how far, the first error) from `ascendir run --format json`'s findings; an output of `unwritten` that no
    core writes (ASC961) is what the op documents, not an error."""
    errors = [f for f in findings if f.get("severity") == "error" and not (
        f.get("code") == "ASC961" and any(f"output '{name}'" in f.get("message", "") for name in unwritten or []))]
    first = ""
    if errors:
        message = errors[0]["message"]
        first = f"{errors[0]['code']}: " + (_cause(message) if errors[0]["code"] == "ASC602"
                                            else message.replace("/work/ext/real/", "")[:400])
    if any(f["code"] == "ASC001" for f in errors):
        return "host/kernel does not parse", first
    if any(f["code"] in ("ASC602", "ASC601", "ASC603") or "host tiling" in f["message"] for f in errors):
        return "parses; tiling stops", first
    if not completed or not outputs or errors:  # (a core stopped at an unmodelled call: its outputs are not all)
        return "tiling runs; kernel stops", first
    return "kernel runs", first


def _compare(case: OpCase, got: Arrays, want: Arrays, inputs: Arrays | None = None) -> tuple[bool, str]:
    """Each output against the numpy model under the benchmark's tolerance model (Tolerance.compare, as the
    benchmark's correctness stage compares): the case's own for that output, else DEFAULT_TOLERANCE. An
    in-place input's result has the input's shape and dtype."""
    given = inputs or {}
    specs = {**case.outputs, **{n: (given[n].shape, str(given[n].dtype)) for n in case.inplace if n in given}}
    worst = []
    ok = True
    for name, ref in want.items():
        if name not in got:
            ok = False
            worst.append(f"{name}: missing")
            continue
        tolerance = case.tolerance.get(name, DEFAULT_TOLERANCE)
        shape, dtype = specs[name]
        value = got[name]
        if dtype == "int4":  # the packed bytes, as int8 values (np.dtype("int4") is a 4-byte int)
            value, dtype = unpack_int4(value, shape), "int8"
        result = tolerance.compare(np.asarray(ref), value, dtype)
        ok &= result.ok
        worst.append(f"{name}: max err {result.max_abs:.3g}" + (f" ({result.reason})" if result.reason else ""))
    return ok, "; ".join(worst)


def run_case(case: OpCase, real: Path, timeout: int, seed: int = 0) -> dict:
    folder = real / case.folder
    row: dict = {"op": case.name, "folder": case.folder, "formula": case.note}
    if not folder.is_dir():
        row.update(stage="absent", detail=f"{folder} not found")
        return row
    rng = np.random.default_rng(seed)
    inputs = case.inputs(rng)
    with tempfile.TemporaryDirectory(prefix="vendor_ops_") as tmp:
        cmd = [sys.executable, "-m", "cli.main", "run", str(folder), "--format", "json", "--output-dir",
               os.path.join(tmp, "out")]
        for name, arr in inputs.items():
            path = os.path.join(tmp, f"{name}.npy")
            np.save(path, arr)
            cmd += ["--input", f"{name}={path}"]
        for name, (shape, dtype) in case.outputs.items():
            cmd += ["--output", f"{name}={','.join(map(str, shape))}:{dtype}"]
        for name in case.inplace:
            cmd += ["--inplace", name]
        for a in case.attrs:
            cmd += ["--attr", a]
        if case.chip:
            cmd += ["--chip", case.chip]
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        except subprocess.TimeoutExpired:
            row.update(stage="timeout", detail=f"over {timeout} s", seconds=timeout)
            return row
        row["seconds"] = round(time.monotonic() - start, 1)
        try:
            report = json.loads(proc.stdout)
        except json.JSONDecodeError:
            row.update(stage="no result", detail=(proc.stderr.strip().splitlines() or ["(no output)"])[-1][:300])
            return row
        stage, first = _stage(report.get("findings", []), bool(report.get("completed")), report.get("outputs", {}),
                              case.unwritten)
        row.update(stage=stage, detail=first, block_dim=report.get("block_dim"),
                   errors=sum(f.get("severity") == "error" for f in report.get("findings", [])))
        if stage == "kernel runs":
            got = {n: np.load(o["path"]) for n, o in report["outputs"].items() if o.get("path")}
            ok, text = _compare(case, got, case.reference(inputs), inputs)
            row.update(stage="matches numpy" if ok else "kernel runs; differs", detail=text)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real", type=Path, default=Path("/work/ext/real"))
    ap.add_argument("--ops", help="comma-separated op names (default: all)")
    # (group_norm_swish and layer_norm_v4 take 240-380 s at a load average of 10 on the 2-core machine)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    cases = _cases()
    if args.ops:
        wanted = set(args.ops.split(","))
        cases = [c for c in cases if c.name in wanted]
    rows = []
    print("| op | stage | seconds | detail |\n|---|---|---|---|")
    for case in cases:
        row = run_case(case, args.real, args.timeout)
        rows.append(row)
        print(f"| {row['op']} | {row['stage']} | {row.get('seconds', '')} | {row.get('detail', '')} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
