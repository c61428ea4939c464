// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// An API call must use the op of the API's family: Add is vec_binary, not vec_unary.

builtin.module {
  ascendc.kernel @bad() {
    %t = ascendc.undef : !ascendc.local_tensor<f16, VECCALC>
    %n = arith.constant 128 : i32
    ascendc.vec_unary "Add"(%t, %t, %n) {overload = "count"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, i32) -> ()
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.vec_unary': 'Add' is not a catalogued API of the vec_unary family
