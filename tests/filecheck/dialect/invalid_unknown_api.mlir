// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// An API the catalog does not have is rejected whatever the family.

builtin.module {
  ascendc.kernel @bad() {
    %t = ascendc.undef : !ascendc.local_tensor<f16, VECCALC>
    %n = arith.constant 128 : i32
    ascendc.vec_binary "Addd"(%t, %t, %t, %n) {overload = "count"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, !ascendc.local_tensor<f16, VECCALC>, i32) -> ()
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.vec_binary': 'Addd' is not a catalogued API of the vec_binary family
