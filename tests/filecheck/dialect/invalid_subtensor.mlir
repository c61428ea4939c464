// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// t[offset] has the type of t.

builtin.module {
  ascendc.kernel @bad() {
    %t = ascendc.undef : !ascendc.local_tensor<f16, VECIN>
    %i = arith.constant 16 : i32
    %s = ascendc.subtensor %t[%i] : !ascendc.local_tensor<f16, VECIN>, i32 -> !ascendc.local_tensor<f32, VECIN>
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.subtensor': a sub-tensor has the type of the tensor it is taken from
