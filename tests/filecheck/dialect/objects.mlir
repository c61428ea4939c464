// RUN: ascendir-opt %s | filecheck %s

// TPipe-free allocation (a LocalMemAllocator object and local_alloc), other library objects, calls the
// lowering could not resolve (opaque_call, with and without a result), and undef.

builtin.module {
  ascendc.kernel @objects() {
    %ub = ascendc.object "ub" : !ascendc.object<"LocalMemAllocator<UB>">
    %n = arith.constant 2048 : i32
    %x = ascendc.local_alloc %ub count %n : !ascendc.object<"LocalMemAllocator<UB>">, i32 -> !ascendc.local_tensor<f32, VECCALC>
    %sync = ascendc.object "sync" : !ascendc.object<"TQueSync">
    ascendc.opaque_call "MyHelper"(%x, %n) : (!ascendc.local_tensor<f32, VECCALC>, i32) -> ()
    %r = ascendc.opaque_call "Unknown"() : () -> i32
    %u = ascendc.undef : f32
    ascendc.return
  }
}

// CHECK:      %ub = ascendc.object "ub" : !ascendc.object<"LocalMemAllocator<UB>">
// CHECK:      %x = ascendc.local_alloc %ub count %n : !ascendc.object<"LocalMemAllocator<UB>">, i32 -> !ascendc.local_tensor<f32, VECCALC>
// CHECK-NEXT: %sync = ascendc.object "sync" : !ascendc.object<"TQueSync">
// CHECK-NEXT: ascendc.opaque_call "MyHelper"(%x, %n) : (!ascendc.local_tensor<f32, VECCALC>, i32) -> ()
// CHECK-NEXT: %r = ascendc.opaque_call "Unknown"() : () -> i32
// CHECK-NEXT: %u = ascendc.undef : f32
