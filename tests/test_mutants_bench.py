"""The edits of bench/perf/mutants.py: each operator changes exactly what its name says, at the sites it finds."""

from __future__ import annotations

from bench.perf.mutants import OPERATORS, PROJECT_OPERATORS, mutants_of

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
class K {
    __aicore__ inline void Compute() {
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        Muls(y, x, scale, n);
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
};
/* inQ.FreeTensor(x); in a comment is not a site */
"""


def edits(name: str) -> list[tuple[int, list[str]]]:
    op = next(o for o in OPERATORS if o.name == name)
    before = KERNEL.split("\n")
    out = []
    for m in mutants_of(KERNEL, [op], 10):
        after = m.text.split("\n")
        changed = [line for line in after if line not in before] + [f"-{line}" for line in before if line not in after]
        out.append((m.line, changed))
    return out


def test_kernel_operators_edit_one_statement() -> None:
    assert edits("drop-free") == [(9, ["-        inQ.FreeTensor(x);"])]
    assert edits("drop-enque") == [(8, ["-        outQ.EnQue(y);"])]
    assert edits("double-scalar") == [(7, ["        Muls(y, x, static_cast<double>(scale), n);",
                                           "-        Muls(y, x, scale, n);"])]
    assert edits("alloc-for-deque") == [(5, ["        LocalTensor<float> x = inQ.AllocTensor<float>();",
                                             "-        LocalTensor<float> x = inQ.DeQue<float>();"])]
    assert edits("free-wrong-queue") == [(9, ["        outQ.FreeTensor(x);", "-        inQ.FreeTensor(x);"])]
    assert edits("veccalc-queue") == [(11, ["    TQue<TPosition::VECCALC, 1> inQ;",
                                            "-    TQue<TPosition::VECIN, 1> inQ;"])]


KERNEL_WITH_COPIES = """#include "kernel_operator.h"
using namespace AscendC;
class K {
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQ, 2, tileLength * sizeof(half));
    }
    __aicore__ inline void CopyOut(int32_t i) {
        LocalTensor<half> y = inQ.DeQue<half>();
        Cast(f, y, RoundMode::CAST_NONE, tileLength);
        DataCopy(yGm[i * tileLength], y, tileLength);
    }
    TQue<TPosition::VECIN, 2> inQ;
    TQue<TPosition::VECOUT, 2> outQ;
};
"""


def copy_edits(name: str) -> list[tuple[int, list[str]]]:
    op = next(o for o in OPERATORS if o.name == name)
    before = KERNEL_WITH_COPIES.split("\n")
    return [(m.line, [line for line in m.text.split("\n") if line not in before])
            for m in mutants_of(KERNEL_WITH_COPIES, [op], 10)]


def test_operators_of_the_other_rule_families() -> None:
    assert copy_edits("deque-wrong-queue") == [(10, ["        LocalTensor<half> y = outQ.DeQue<half>();"])]
    assert copy_edits("retype-tensor") == [(10, ["        LocalTensor<float> y = inQ.DeQue<float>();"])]
    assert copy_edits("oversize-buffer") == [(7, ["        pipe.InitBuffer(inQ, 2, 1048608);"])]
    assert copy_edits("misalign-copy") == [(12, ["        DataCopy(yGm[i * tileLength], y, (tileLength) + 1);"])]
    assert copy_edits("cast-round-mode") == [(11, ["        Cast(f, y, RoundMode::CAST_ODD, tileLength);"])]
    # only the tensor a DataCopy writes to loses its offset: an input read whole by every core is legal
    assert copy_edits("drop-core-offset") == [(6, ["        yGm.SetGlobalBuffer((__gm__ half *)y, blockLength);"])]


def test_free_before_use_moves_the_free_above_the_last_use() -> None:
    (mutant,) = mutants_of(KERNEL, [next(o for o in OPERATORS if o.name == "free-before-use")], 10)
    lines = mutant.text.split("\n")
    assert lines.index("        inQ.FreeTensor(x);") < lines.index("        Muls(y, x, scale, n);")


def test_project_operators_find_host_and_kernel_sites() -> None:
    files = {
        "op_host/add_tiling.h": ["BEGIN_TILING_DATA_DEF(AddTilingData)",
                                 "  TILING_DATA_FIELD_DEF(uint32_t, totalLength);", "END_TILING_DATA_DEF;",
                                 "REGISTER_TILING_DATA_CLASS(AddCustom, AddTilingData)"],
        "op_host/add.cpp": ["    tiling.set_totalLength(n);", "    context->SetBlockDim(8);"],
        "op_kernel/add.cpp": ["    uint32_t total = td.totalLength;"],
    }
    found = {op.name: [(rel, line) for rel, line, _ in op.sites(files)] for op in PROJECT_OPERATORS}
    assert found == {
        "drop-set-block-dim": [("op_host/add.cpp", 1)],
        "register-other-op": [("op_host/add_tiling.h", 3)],
        "kernel-field-typo": [("op_kernel/add.cpp", 0)],
        "host-field-typo": [("op_host/add.cpp", 0)],
        "drop-field-set": [("op_host/add.cpp", 0)],
    }
