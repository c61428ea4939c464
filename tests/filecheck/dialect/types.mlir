// RUN: ascendir-opt %s | filecheck %s

// Every ascendc type parses and prints back unchanged, including the unknown position `?`.

builtin.module {
  ascendc.kernel @types() {
    %0 = ascendc.undef : !ascendc.tpipe
    %1 = ascendc.undef : !ascendc.tque<VECIN, 2>
    %2 = ascendc.undef : !ascendc.tque<CO1, 1>
    %3 = ascendc.undef : !ascendc.tbuf<VECCALC>
    %4 = ascendc.undef : !ascendc.global_tensor<f16>
    %5 = ascendc.undef : !ascendc.local_tensor<bf16, VECOUT>
    %6 = ascendc.undef : !ascendc.local_tensor<si32, ?>
    %7 = ascendc.undef : !ascendc.gm_ptr<ui8>
    %8 = ascendc.undef : !ascendc.struct<"DataCopyParams">
    %9 = ascendc.undef : !ascendc.tiling<"TilingData">
    %10 = ascendc.undef : !ascendc.enum<"RoundMode">
    %11 = ascendc.undef : !ascendc.event_id<"MTE2_V">
    %12 = ascendc.undef : !ascendc.object<"Matmul">
    ascendc.return
  }
}

// CHECK:      ascendc.kernel @types() attributes {kernel_type = "default"} {
// CHECK-NEXT:   %0 = ascendc.undef : !ascendc.tpipe
// CHECK-NEXT:   %1 = ascendc.undef : !ascendc.tque<VECIN, 2>
// CHECK-NEXT:   %2 = ascendc.undef : !ascendc.tque<CO1, 1>
// CHECK-NEXT:   %3 = ascendc.undef : !ascendc.tbuf<VECCALC>
// CHECK-NEXT:   %4 = ascendc.undef : !ascendc.global_tensor<f16>
// CHECK-NEXT:   %5 = ascendc.undef : !ascendc.local_tensor<bf16, VECOUT>
// CHECK-NEXT:   %6 = ascendc.undef : !ascendc.local_tensor<si32, ?>
// CHECK-NEXT:   %7 = ascendc.undef : !ascendc.gm_ptr<ui8>
// CHECK-NEXT:   %8 = ascendc.undef : !ascendc.struct<"DataCopyParams">
// CHECK-NEXT:   %9 = ascendc.undef : !ascendc.tiling<"TilingData">
// CHECK-NEXT:   %10 = ascendc.undef : !ascendc.enum<"RoundMode">
// CHECK-NEXT:   %11 = ascendc.undef : !ascendc.event_id<"MTE2_V">
// CHECK-NEXT:   %12 = ascendc.undef : !ascendc.object<"Matmul">
// CHECK-NEXT:   ascendc.return
// CHECK-NEXT: }
