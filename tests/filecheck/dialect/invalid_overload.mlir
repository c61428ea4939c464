// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// The overload id must name one of the catalog entry's overloads.

builtin.module {
  ascendc.kernel @bad() {
    %t = ascendc.undef : !ascendc.local_tensor<f16, VECCALC>
    %n = arith.constant 128 : i32
    ascendc.vec_binary "Add"(%t, %t, %t, %n) {overload = "vector"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, i32) -> ()
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.vec_binary': 'Add' has no overload 'vector'
