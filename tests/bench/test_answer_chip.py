"""The chip an answer runs on (bench/harness/answer_chip.py): the task's, unless the kernel calls APIs that exist only
on another architecture its op definition builds for (NPUKernelBench TopKV3's answer sorts with the region-proposal
instructions of the 310P, which the 910B devkit aborts on, and is built for ascend310p, ascend910b, ascend910_93).
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.harness.answer_chip import answer_chip

OP_DEF = """
class TopK : public OpDef {
public:
    explicit TopK(const char* name) : OpDef(name) {
        this->AICore().AddConfig("ascend310p", cfg);
        this->AICore().AddConfig("ascend910b").AddConfig("ascend910_93");
    }
};
"""
SORT_310P = "void f() { ProposalConcat(p, x, 4, 4); RpSort16(p, p, 4); MrgSort4(d, lists, info); }"
SORT_910B = "void f() { Sort32(d, x, idx, 4); MrgSort(d, lists, info); }"


@dataclass
class Unit:
    path: str
    text: str


@dataclass
class Bundle:
    units: list[Unit]


def test_region_proposal_kernel_of_a_310p_project_runs_on_310p() -> None:
    bundle = Bundle([Unit("a/op_host/topk_def.cpp", OP_DEF), Unit("a/op_kernel/topk.cpp", SORT_310P)])
    assert answer_chip(bundle, "910_93") == "310P"


def test_other_answers_keep_the_task_chip() -> None:
    # 910B sorts: nothing restricted
    assert answer_chip(Bundle([Unit("a/op_host/topk_def.cpp", OP_DEF), Unit("a/op_kernel/k.cpp", SORT_910B)]),
                       "910_93") == "910_93"
    # a kernel-only answer (no op definition) that calls them: the task's chip, where ASC516 reports the calls
    assert answer_chip(Bundle([Unit("a/op_kernel/k.cpp", SORT_310P)]), "910_93") == "910_93"
    # an op definition for the 910B only
    only_b = OP_DEF.replace('AddConfig("ascend310p", cfg);', "")
    assert answer_chip(Bundle([Unit("a/op_host/d_def.cpp", only_b), Unit("a/op_kernel/k.cpp", SORT_310P)]),
                       "910_93") == "910_93"
