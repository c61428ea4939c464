// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// GetWithOffset takes an element count before its byte offset.

builtin.module {
  ascendc.kernel @bad() {
    %b = ascendc.tbuf "tmp" : !ascendc.tbuf<VECCALC>
    %off = arith.constant 64 : i32
    %t = ascendc.tbuf_get %b offset %off : i32 : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f16, VECCALC>
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.tbuf_get': GetWithOffset needs an element count
