// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// The count form of Add takes dst, src0, src1 and a count: three operands are too few.

builtin.module {
  ascendc.kernel @bad() {
    %t = ascendc.undef : !ascendc.local_tensor<f16, VECCALC>
    %n = arith.constant 128 : i32
    ascendc.vec_binary "Add"(%t, %t, %n) {overload = "count"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, i32) -> ()
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.vec_binary': 'Add' overload 'count' cannot take 3 operands
