// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// struct_init names one field per value.

builtin.module {
  ascendc.kernel @bad() {
    %one = arith.constant 1 : i32
    %p = ascendc.struct_init ["blockCount", "blockLen"](%one) : (i32) -> !ascendc.struct<"DataCopyParams">
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.struct_init': 2 field names for 1 values
