// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// struct_set returns the struct type it was given.

builtin.module {
  ascendc.kernel @bad() {
    %one = arith.constant 1 : i32
    %p = ascendc.undef : !ascendc.struct<"DataCopyParams">
    %q = ascendc.struct_set %p "blockLen", %one : !ascendc.struct<"DataCopyParams">, i32 -> !ascendc.tiling<"DataCopyParams">
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.struct_set': struct_set keeps the struct type
