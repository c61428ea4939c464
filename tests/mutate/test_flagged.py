"""Every mutation operator yields, on a correct reference kernel, a mutant the verifier flags with a finding of
the rule family the operator names: the operators put real, detectable bugs in, and the rules catch them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from frontend.diagnostics import Diagnostic
from passes.mutate import OPERATORS, Operator, judge, mutants_of, operator

CLEAN = Path(__file__).resolve().parents[1] / "corpus" / "clean"

# op projects of the corpus with shapes for their host tiling (a tail that is no 32-byte multiple, 3 rows)
SHAPES = {
    "projects/add_custom": TilingInputs([TensorSpec((3, 1001), "float32"), TensorSpec((3, 1001), "float32")]),
    "projects/leaky_relu_custom": TilingInputs([TensorSpec((3, 1001), "float16")], attrs=[0.01]),
    "bundled/relu": TilingInputs([TensorSpec((7, 1000), "float16")]),
}
BUNDLED = Path(__file__).resolve().parents[2] / "bench" / "tasks" / "level1" / "activation"

# operator -> a clean kernel of the corpus where the static verifier can prove its edit wrong without shapes
STATIC_REFERENCES = {
    **dict.fromkeys(["drop-free", "double-free", "drop-enque", "alloc-for-deque", "free-before-use", "double-enque",
                     "init-twice", "free-wrong-queue", "deque-wrong-queue", "veccalc-queue", "queue-without-count",
                     "oversize-buffer", "misalign-copy", "drop-core-offset", "unqualify"],
                    "kernels/gm_tiling/add_reinterpret_tiling.cpp"),
    **dict.fromkeys(["double-scalar", "scalar-as-tensor", "retype-tensor", "drop-setflag", "drop-waitflag",
                     "reverse-set-event"], "kernels/gm_tiling/batchnorm_infer_struct.cpp"),
    "drop-using": "kernels/gm_tiling/scalar_walk_tiling.cpp",
    "sizeof-mismatch": "kernels/legacy/mul_add_custom.cpp",
    "cast-round-mode": "kernels/memalloc/dequant_cast_flags.cpp",
    "reduce-without-work": "kernels/memalloc/softmax_row.asc",
    "libm-call": "kernels/memalloc/softmax_row.asc",
    "second-pipe": "kernels/tpipe/add_template.cpp",
    "unsigned-cast": "kernels/tpipe/layernorm_rows.cpp",
    # only provable with the shapes: the footprint of every core's GM accesses then shows the gap or overrun
    "floor-division": "projects/add_custom",
    "core-offset-plus-one": "projects/add_custom",
    "copy-elements-as-bytes": "projects/add_custom",
    "loop-off-by-one": "projects/leaky_relu_custom",
    "drop-tail": "bundled/relu",
}

# A dropped PipeBarrier is a race between instructions of one pipe: only a run shows it (the simulator's race
# check); no static rule can prove it, so no reference here flags it.
ONLY_DYNAMIC = {"drop-barrier"}


def sources(rel: str) -> dict[str, str]:
    path = BUNDLED / rel.removeprefix("bundled/") / "solution" if rel.startswith("bundled/") else CLEAN / rel
    if path.is_dir():
        return {str(p.relative_to(path)): p.read_text() for p in sorted(path.rglob("*")) if p.is_file()}
    return {str(path): path.read_text()}


@cache
def original_findings(rel: str) -> tuple[Diagnostic, ...]:
    found = judge.check_sources(sources(rel), shapes=SHAPES.get(rel), name=rel)
    assert not any(d.is_error for d in found), f"{rel} is not clean"
    return tuple(found)


@pytest.mark.parametrize("name", sorted(STATIC_REFERENCES))
def test_static_verifier_flags_the_operator(name: str) -> None:
    op = operator(name)
    assert isinstance(op, Operator)
    rel = STATIC_REFERENCES[name]
    files = sources(rel)
    codes = []
    sites = 0
    for path, text in files.items():
        for mutant in mutants_of(text, [op], 2):
            sites += 1
            verdict = judge.static(files, {**files, path: mutant.text}, op.family, shapes=SHAPES.get(rel), name=rel,
                                   before=original_findings(rel))
            codes += [d.code for d in verdict.findings]
            if any(d.code.startswith(op.family) for d in verdict.findings):
                return
    assert sites, f"{name} finds no site in {rel}"
    pytest.fail(f"no mutant of {name} in {rel} is flagged by {op.family}: found {codes}")


def test_every_operator_has_a_reference() -> None:
    assert {op.name for op in OPERATORS} == set(STATIC_REFERENCES) | ONLY_DYNAMIC
