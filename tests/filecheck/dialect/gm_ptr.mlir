// RUN: ascendir-opt %s | filecheck %s

// Raw `__gm__` pointers: casts, element offsets, loads and stores.

builtin.module {
  ascendc.kernel @pointers(%arg: !ascendc.gm_ptr<ui8>) {
    %p = ascendc.gm_ptr_cast %arg : !ascendc.gm_ptr<ui8> -> !ascendc.gm_ptr<f32>
    %n = arith.constant 64 : i64
    %q = ascendc.gm_ptr_offset %p, %n : !ascendc.gm_ptr<f32>, i64 -> !ascendc.gm_ptr<f32>
    %i = arith.constant 3 : i32
    %v = ascendc.gm_load %q[%i] : !ascendc.gm_ptr<f32>, i32 -> f32
    ascendc.gm_store %p[%i], %v : !ascendc.gm_ptr<f32>, i32, f32
    ascendc.return
  }
}

// CHECK:      %p = ascendc.gm_ptr_cast %arg : !ascendc.gm_ptr<ui8> -> !ascendc.gm_ptr<f32>
// CHECK-NEXT: %n = arith.constant 64 : i64
// CHECK-NEXT: %q = ascendc.gm_ptr_offset %p, %n : !ascendc.gm_ptr<f32>, i64 -> !ascendc.gm_ptr<f32>
// CHECK-NEXT: %i = arith.constant 3 : i32
// CHECK-NEXT: %v = ascendc.gm_load %q[%i] : !ascendc.gm_ptr<f32>, i32 -> f32
// CHECK-NEXT: ascendc.gm_store %p[%i], %v : !ascendc.gm_ptr<f32>, i32, f32
