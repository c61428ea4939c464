// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// struct_init names one field per value.

builtin.module {
  ascendc.kernel @bad() {
    %one = arith.constant 1 : i32
    %p = ascendc.struct_init ["blockCount", "blockLen"](%one) : (i32) -> !ascendc.struct<"DataCopyParams">
    ascendc.return
  }
}

// CHECK: the IR does not verify: 2 field names for 1 values
