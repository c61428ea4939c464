// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// local_alloc allocates from a LocalMemAllocator, not from another library object.

builtin.module {
  ascendc.kernel @bad() {
    %sync = ascendc.object "sync" : !ascendc.object<"TQueSync">
    %n = arith.constant 64 : i32
    %t = ascendc.local_alloc %sync count %n : !ascendc.object<"TQueSync">, i32 -> !ascendc.local_tensor<f32, VECCALC>
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.local_alloc': local_alloc needs a LocalMemAllocator
