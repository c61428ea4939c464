// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// A TPosition must be one of AscendC's: UB is a memory, not a position.

builtin.module {
  ascendc.kernel @bad() {
    %q = ascendc.undef : !ascendc.tque<UB, 2>
    ascendc.return
  }
}

// CHECK: unknown TPosition 'UB'
