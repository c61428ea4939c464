// RUN: ascendir-opt %s | filecheck %s

// Enumerators and parameter structs: built from named fields, read, and copied with one field replaced.

builtin.module {
  ascendc.kernel @structs() {
    %mode = ascendc.enum_constant "CAST_RINT" : !ascendc.enum<"RoundMode">
    %one = arith.constant 1 : i32
    %len = arith.constant 16 : i32
    %p = ascendc.struct_init ["blockCount", "blockLen"](%one, %len) : (i32, i32) -> !ascendc.struct<"DataCopyParams">
    %empty = ascendc.struct_init []() : () -> !ascendc.struct<"BinaryRepeatParams">
    %bl = ascendc.struct_get %p "blockLen" : !ascendc.struct<"DataCopyParams"> -> i32
    %p2 = ascendc.struct_set %p "srcStride", %one : !ascendc.struct<"DataCopyParams">, i32 -> !ascendc.struct<"DataCopyParams">
    ascendc.return
  }
}

// CHECK:      %mode = ascendc.enum_constant "CAST_RINT" : !ascendc.enum<"RoundMode">
// CHECK:      %p = ascendc.struct_init ["blockCount", "blockLen"](%one, %len) : (i32, i32) -> !ascendc.struct<"DataCopyParams">
// CHECK-NEXT: %empty = ascendc.struct_init []() : () -> !ascendc.struct<"BinaryRepeatParams">
// CHECK-NEXT: %bl = ascendc.struct_get %p "blockLen" : !ascendc.struct<"DataCopyParams"> -> i32
// CHECK-NEXT: %p2 = ascendc.struct_set %p "srcStride", %one : !ascendc.struct<"DataCopyParams">, i32 -> !ascendc.struct<"DataCopyParams">
