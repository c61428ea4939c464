// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// InitBuffer on a TBuf takes only a length: a TBuf has no buffer count.

builtin.module {
  ascendc.kernel @bad() {
    %pipe = ascendc.tpipe "pipe" : !ascendc.tpipe
    %b = ascendc.tbuf "tmp" : !ascendc.tbuf<VECCALC>
    %num = arith.constant 2 : i32
    %len = arith.constant 1024 : i32
    ascendc.init_buffer %pipe, %b num %num : i32 len %len : !ascendc.tpipe, !ascendc.tbuf<VECCALC>, i32
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.init_buffer': a TBuf has exactly one buffer: InitBuffer takes no buffer count
