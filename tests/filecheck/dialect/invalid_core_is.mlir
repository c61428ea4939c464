// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// ASCEND_IS_AIV / ASCEND_IS_AIC are the only core kinds.

builtin.module {
  ascendc.kernel @bad() {
    %c = ascendc.core_is "AICPU" -> i1
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.core_is': core kind must be AIV or AIC, not 'AICPU'
