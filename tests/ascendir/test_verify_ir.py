"""ascendir.verify.verify_ir: every op that does not verify, with its whole message and a source location."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.ir import Block, Region

from ascendir.text import parse_ir
from ascendir.verify import verify_ir

KERNEL = """builtin.module {
  ascendc.kernel @k(%n: i32) {
    %c = arith.constant 1 : i32 loc("k.cpp":3:5)
    %q = ascendc.tque "q" : !ascendc.tque<VECIN, 2> loc("k.cpp":4:5)
    %t = ascendc.alloc_tensor %q : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECOUT> loc("k.cpp":5:5)
    %u = ascendc.alloc_tensor %q : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECCALC> loc("k.cpp":6:5)
    ascendc.return loc("k.cpp":7:1)
  } loc("k.cpp":2:1)
}
"""


def test_every_failing_op_is_reported_with_its_location() -> None:
    failures = verify_ir(parse_ir(KERNEL))
    assert [str(f) for f in failures] == [
        "k.cpp:5:5: 'ascendc.alloc_tensor': AllocTensor returns a tensor in VECIN, not VECOUT",
        "k.cpp:6:5: 'ascendc.alloc_tensor': AllocTensor returns a tensor in VECIN, not VECCALC"]


def test_a_valid_module_has_no_failures_and_a_second_walk_agrees() -> None:
    module = parse_ir(KERNEL.replace("VECOUT>", "VECIN>").replace("VECCALC>", "VECIN>"))
    assert verify_ir(module) == [] and verify_ir(module) == []


def test_a_use_outside_the_scope_of_its_definition_is_reported() -> None:
    # a value defined in the then-branch of an scf.if, used in its else-branch: xDSL's verify lets it through
    module = parse_ir(KERNEL.replace("VECOUT>", "VECIN>").replace("VECCALC>", "VECIN>"))
    kernel = next(op for op in module.walk() if op.name == "ascendc.kernel")
    block = kernel.regions[0].block
    cond = arith.ConstantOp(IntegerAttr(1, i1))
    inner = arith.ConstantOp(IntegerAttr(2, i32))
    then, otherwise = Block([inner, scf.YieldOp()]), Block()
    use = arith.AddiOp(inner.result, inner.result)
    otherwise.add_ops([use, scf.YieldOp()])
    branch = scf.IfOp(cond.result, [], Region(then), Region(otherwise))
    block.insert_ops_before([cond, branch], block.last_op)  # type: ignore[arg-type]
    failures = verify_ir(module)
    assert len(failures) == 1 and failures[0].op is use
    assert failures[0].message.endswith("outside the scope of its definition")
    assert failures[0].where == "k.cpp:2:1"  # the op has no location: the kernel's


def test_a_block_that_does_not_end_in_a_terminator_is_reported_even_for_a_known_signature() -> None:
    module = parse_ir(KERNEL.replace("VECOUT>", "VECIN>").replace("VECCALC>", "VECIN>"))
    verify_ir(module)  # the alloc_tensor's signature is known to verify now
    kernel = next(op for op in module.walk() if op.name == "ascendc.kernel")
    last = kernel.regions[0].block.last_op
    assert last is not None and last.name == "ascendc.return"
    last.detach()
    failures = verify_ir(module)
    assert [(f.op.name, f.message) for f in failures] == [
        ("ascendc.alloc_tensor", "ends its block but is not a terminator")]
