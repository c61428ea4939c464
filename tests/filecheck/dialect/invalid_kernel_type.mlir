// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// A kernel type must be one of KERNEL_TASK_TYPE's (aiv, aic, mix_aic_1_2, ...).

builtin.module {
  "ascendc.kernel"() <{sym_name = "bad", function_type = () -> (), kernel_type = "aicpu"}> ({
    ascendc.return
  }) : () -> ()
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.kernel': unknown kernel type 'aicpu'
