// RUN: ascendir-opt %s | filecheck %s

// GlobalTensor and LocalTensor views: SetGlobalBuffer with and without an element count, `t[offset]`,
// GetValue/SetValue and ReinterpretCast.

builtin.module {
  ascendc.kernel @tensors(%x: !ascendc.gm_ptr<f16>) {
    %xGm = ascendc.global_tensor "xGm" : !ascendc.global_tensor<f16>
    %n = arith.constant 4096 : i64
    ascendc.set_global_buffer %xGm, %x count %n : i64 : !ascendc.global_tensor<f16>, !ascendc.gm_ptr<f16>
    ascendc.set_global_buffer %xGm, %x : !ascendc.global_tensor<f16>, !ascendc.gm_ptr<f16>
    %off = arith.constant 256 : i32
    %gsub = ascendc.subtensor %xGm[%off] : !ascendc.global_tensor<f16>, i32 -> !ascendc.global_tensor<f16>
    %g = ascendc.get_value %xGm[%off] : !ascendc.global_tensor<f16>, i32 -> f16
    %l = ascendc.undef : !ascendc.local_tensor<f16, VECCALC>
    %lsub = ascendc.subtensor %l[%off] : !ascendc.local_tensor<f16, VECCALC>, i32 -> !ascendc.local_tensor<f16, VECCALC>
    %v = ascendc.get_value %l[%off] : !ascendc.local_tensor<f16, VECCALC>, i32 -> f16
    ascendc.set_value %l[%off], %v : !ascendc.local_tensor<f16, VECCALC>, i32, f16
    %bits = ascendc.reinterpret_cast %l : !ascendc.local_tensor<f16, VECCALC> -> !ascendc.local_tensor<ui16, VECCALC>
    ascendc.return
  }
}

// CHECK:      ascendc.set_global_buffer %xGm, %x count %n : i64 : !ascendc.global_tensor<f16>, !ascendc.gm_ptr<f16>
// CHECK-NEXT: ascendc.set_global_buffer %xGm, %x : !ascendc.global_tensor<f16>, !ascendc.gm_ptr<f16>
// CHECK:      %gsub = ascendc.subtensor %xGm[%off] : !ascendc.global_tensor<f16>, i32 -> !ascendc.global_tensor<f16>
// CHECK-NEXT: %g = ascendc.get_value %xGm[%off] : !ascendc.global_tensor<f16>, i32 -> f16
// CHECK:      %lsub = ascendc.subtensor %l[%off] : !ascendc.local_tensor<f16, VECCALC>, i32 -> !ascendc.local_tensor<f16, VECCALC>
// CHECK-NEXT: %v = ascendc.get_value %l[%off] : !ascendc.local_tensor<f16, VECCALC>, i32 -> f16
// CHECK-NEXT: ascendc.set_value %l[%off], %v : !ascendc.local_tensor<f16, VECCALC>, i32, f16
// CHECK-NEXT: %bits = ascendc.reinterpret_cast %l : !ascendc.local_tensor<f16, VECCALC> -> !ascendc.local_tensor<ui16, VECCALC>
