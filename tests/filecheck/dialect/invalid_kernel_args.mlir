// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// The kernel body's arguments are the kernel's arguments.

builtin.module {
  "ascendc.kernel"() <{sym_name = "bad", function_type = (!ascendc.gm_ptr<ui8>) -> (), kernel_type = "aiv"}> ({
  ^bb0(%x: !ascendc.gm_ptr<f16>):
    ascendc.return
  }) : () -> ()
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.kernel': kernel block arguments must match the kernel's argument types
