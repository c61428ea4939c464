// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// TBuf::Get returns a tensor in the buffer's position.

builtin.module {
  ascendc.kernel @bad() {
    %b = ascendc.tbuf "tmp" : !ascendc.tbuf<VECCALC>
    %t = ascendc.tbuf_get %b : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f16, A1>
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.tbuf_get': Get returns a tensor in VECCALC, not A1
