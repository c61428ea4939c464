"""Arrays of user-class objects indexed at run time, held as one memref per field
(ascendir/lower/object_arrays.py): catlass's grouped GEMMs keep 32 layouts and coordinates per kernel
(`params.layoutAList[groupIdx]`), more than the 16 objects modelled one per element, and its multi-stage
workspaces pick cross-core flags by stage (`flagList[stageId].id`), which only a constant index could
select."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.ir import Operation, OpResult

from ascendir.lower import lower_program
from passes.sim import run
from frontend.pipeline import load_text

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "object_arrays"


def test_objects_written_and_read_at_run_time_indices() -> None:
    groups = [(3, 4), (5, 6), (7, 1)]
    sizes = np.zeros(1 + 2 * 24, dtype=np.uint32)
    sizes[0] = len(groups)
    for g, (rows, cols) in enumerate(groups):
        sizes[1 + 2 * g: 3 + 2 * g] = (rows, cols)
    result = run(str(CORPUS / "group_shapes.cpp"), {"sizes": sizes}, block_dim=1,
                 outputs={"out": ((24,), "uint32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    expected = [r * c + c for r, c in groups] + [1 * 2 + 2] * (24 - len(groups))
    assert result.outputs["out"].tolist() == expected


def test_cross_core_flags_picked_by_a_run_time_stage() -> None:
    x = np.arange(256, dtype=np.float32)
    result = run(str(CORPUS / "flag_list.cpp"), {"x": x.copy()}, block_dim=2,
                 outputs={"y": ((256,), "float32"), "z": ((256,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 2)
    swapped = np.concatenate([x[64:128], x[:64], x[192:], x[128:192]]) * 2
    assert np.array_equal(result.outputs["z"], swapped)


def test_elements_are_plain_value_objects_only() -> None:
    # an element holding a tensor keeps the one-object-per-element model: no memref of tensors per field
    source = (CORPUS / "group_shapes.cpp").read_text().replace(
        "    uint32_t dims[2];\n};", "    uint32_t dims[2];\n    GlobalTensor<float> gm;\n};", 1)
    module = lower_program(load_text(source, "k.cpp")).module
    shapes = [str(op.results[0].type) for op in module.walk() if op.name == "memref.alloca"]
    assert "memref<24x2xi32>" not in shapes
    plain = lower_program(load_text((CORPUS / "group_shapes.cpp").read_text(), "k.cpp")).module
    allocas = [str(op.results[0].type) for op in plain.walk() if op.name == "memref.alloca"]
    assert "memref<24x2xi32>" in allocas


def test_array_size_named_by_the_enclosing_class() -> None:
    # `struct Params { LayoutA layoutAList[MAX_TENSOR_COUNT]; }` in the kernel class declaring the constant
    source = """#include "kernel_operator.h"
template <typename T>
class Kernel {
public:
    static constexpr uint32_t COUNT = 5;
    struct Params {
        T values[COUNT];
    };
    __aicore__ inline void Run(GM_ADDR y) {
        Params p;
        for (uint32_t i = 0; i < COUNT; ++i) { p.values[i] = i; }
        ((__gm__ T *)y)[0] = p.values[4];
    }
};
extern "C" __global__ __aicore__ void k(GM_ADDR y) {
    Kernel<float> op;
    op.Run(y);
}
"""
    module = lower_program(load_text(source, "k.cpp")).module
    assert "memref<5xf32>" in [str(op.results[0].type) for op in module.walk() if op.name == "memref.alloca"]


def test_a_constant_position_read_in_a_branch_and_after_it(tmp_path: Path) -> None:
    # each use makes its own view: one made inside the `if` holds an index constant the later read can't see
    source = (CORPUS / "group_shapes.cpp").read_text().replace(
        "    for (uint32_t g = 0; g < GROUPS; ++g) {",
        "    res[24] = 0;\n    if (groups.count > 5) {\n        res[24] = groups.shapes[2].Rows();\n    }\n"
        "    res[25] = groups.shapes[2].Cols();\n    for (uint32_t g = 0; g < GROUPS; ++g) {", 1)
    path = tmp_path / "branch.cpp"
    path.write_text(source)
    sizes = np.zeros(1 + 2 * 24, dtype=np.uint32)
    sizes[:7] = (3, 3, 4, 5, 6, 7, 1)
    result = run(str(path), {"sizes": sizes}, block_dim=1, outputs={"out": ((26,), "uint32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert result.outputs["out"].tolist()[24:] == [0, 1]
    module = lower_program(load_text(source, "k.cpp")).module
    assert [op.name for op in module.walk() if not _operands_dominate(op)] == []


def _operands_dominate(op: Operation) -> bool:
    """Whether each operand op uses is defined before it in its block or in a block that holds it."""
    for operand in op.operands:
        if not isinstance(operand, OpResult):
            continue
        defining = operand.op
        block, user = op.parent_block(), op
        while block is not None and block is not defining.parent_block():
            user = block.parent_op()
            block = user.parent_block() if user is not None else None
        if block is None or block.get_operation_index(defining) > block.get_operation_index(user):
            return False
    return True
