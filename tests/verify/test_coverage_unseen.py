"""What the coverage rules (ASC603, ASC606, ASC607) treat as code they do not see into. A call on a Matmul
object is one: its library code splits the work by block itself and writes GM. From C++ the object's own
declaration (ascendc.matmul) is always in the kernel too, which hides the predicate for the calls; here the
object comes from outside the kernel's walk, so only the calls show it."""

from __future__ import annotations

from ascendir.dialects import ascendc as asc
from ascendir.text import parse_ir
from passes.verify.coverage_gm_ops import _unseen_or_atomic, tells_cores_apart

KERNEL = """
builtin.module {
  ascendc.kernel @mm_from_outside(%mm: !ascendc.object<"Matmul">) {
    %gm = ascendc.undef : !ascendc.global_tensor<f32>
    ascendc.matmul_call "IterateAll"(%mm, %gm) {overload = "gm"} : (!ascendc.object<"Matmul">, !ascendc.global_tensor<f32>) -> ()
    ascendc.data_copy "DataCopy"(%gm, %gm) {overload = "plain"} : (!ascendc.global_tensor<f32>, !ascendc.global_tensor<f32>) -> ()
    ascendc.return
  }
}
"""


def test_a_matmul_object_call_is_code_the_checker_does_not_see_into() -> None:
    module = parse_ir(KERNEL)
    calls = [op for op in module.walk() if isinstance(op, asc.ApiCallOp)]
    (iterate_all,) = [op for op in calls if op.api.data == "IterateAll"]
    assert iterate_all.FAMILY == "matmul"
    assert tells_cores_apart(iterate_all)  # the library splits C by GetBlockIdx() itself
    assert _unseen_or_atomic(iterate_all)
    (copy,) = [op for op in calls if op.api.data == "DataCopy"]
    assert not tells_cores_apart(copy) and not _unseen_or_atomic(copy)
