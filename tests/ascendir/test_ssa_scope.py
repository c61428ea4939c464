"""ascendir.lower.ssa_scope: a value the lowering holds beside a variable (a pointer member set to the tiling
data) read outside the region it was made in is rebuilt at the read from its pure definition, so the IR stays
valid. ops-transformer's matmul_all_reduce set `block_.matmulTilingData_` inside an `if` of a loop and read it
after: 'ascendc.tiling_field ... outside the scope of its definition' (ASC000) before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, StringAttr, i1, i8
from xdsl.ir import Block, Region

from ascendir.dialects import ascendc as asc
from ascendir.lower import ssa_scope


def _tiling_view_inside_an_if() -> tuple[Block, scf.IfOp, asc.TilingFieldOp]:
    """A function body: `if (c) { td = tiling view of an unknown pointer; f = td.inner }`."""
    body = Block()
    cond = arith.ConstantOp(IntegerAttr(1, i1))
    pointer = asc.UndefOp.create(result_types=[asc.GmPtrType(i8)])
    tiling = asc.GetTilingDataOp.create(operands=[pointer.results[0]], result_types=[asc.TilingType("Outer")])
    field = asc.TilingFieldOp.create(operands=[tiling.results[0]], properties={"field": StringAttr("inner")},
                                     result_types=[asc.TilingType("Inner")])
    branch = scf.IfOp(cond.result, [], Region(Block([pointer, tiling, field, scf.YieldOp()])))
    body.add_ops([cond, branch])
    return body, branch, field


def test_a_value_visible_at_the_read_is_used_as_it_is() -> None:
    body, branch, field = _tiling_view_inside_an_if()
    inner = branch.true_region.block
    built = []
    assert ssa_scope.usable_at(field.results[0], inner, built.append, {}, body) is field.results[0]
    assert built == []


def test_a_value_made_inside_an_if_is_rebuilt_after_it() -> None:
    body, branch, field = _tiling_view_inside_an_if()
    built = []
    value = ssa_scope.usable_at(field.results[0], body, lambda op: built.append(body.add_op(op) or op), {}, body)
    assert value is not None and value is not field.results[0]
    assert [op.name for op in built] == ["ascendc.undef", "ascendc.get_tiling_data", "ascendc.tiling_field"]
    assert value.owner is built[-1] and built[-1].field.data == "inner"
    assert built[1].operands[0] is built[0].results[0]  # the copy reads the copied pointer, not the one in the if


def test_a_body_built_apart_is_judged_where_its_op_will_go() -> None:
    body, branch, field = _tiling_view_inside_an_if()
    loop_body = Block()  # a loop body not in the IR yet; its op goes at the end of the function body
    assert ssa_scope.enclosing_blocks(loop_body, {}, body) is None
    assert ssa_scope.enclosing_blocks(loop_body, {id(loop_body): body}, body) == {id(loop_body), id(body)}
    built = []
    value = ssa_scope.usable_at(field.results[0], loop_body, lambda op: built.append(op) or op,
                                {id(loop_body): body}, body)
    assert value is not None and len(built) == 3
    # where the destination is not known, the value is left as it is for the IR verifier to judge
    assert ssa_scope.usable_at(field.results[0], loop_body, built.append, {}, body) is field.results[0]


def test_a_value_defined_by_an_op_with_regions_cannot_be_had() -> None:
    body, branch, field = _tiling_view_inside_an_if()
    inner = branch.true_region.block
    cond = arith.ConstantOp(IntegerAttr(0, i1))
    chosen = scf.IfOp(cond.result, [asc.TilingType("Inner")], Region(Block([scf.YieldOp(field.results[0])])),
                      Region(Block([scf.YieldOp(field.results[0])])))
    inner.insert_op_before(cond, inner.last_op)
    inner.insert_op_before(chosen, inner.last_op)
    built = []
    assert ssa_scope.usable_at(chosen.results[0], body, built.append, {}, body) is None and built == []


REAL = Path(os.environ.get("ASCENDIR_REAL_KERNELS", "/work/ext/real"))
MATMUL_ALL_REDUCE = REAL / "ops-transformer/mc2/matmul_all_reduce/op_kernel/matmul_all_reduce.cpp"


@pytest.mark.skipif(not MATMUL_ALL_REDUCE.exists(), reason=f"needs an export of ops-transformer at {REAL}")
def test_matmul_all_reduce_lowers_to_valid_ir() -> None:
    from frontend.pipeline import load
    from passes.verify import check_program

    diagnostics = check_program(load(str(MATMUL_ALL_REDUCE)))
    assert [str(d) for d in diagnostics if d.code == "ASC000"] == []
