// RUN: ascendir-opt %s | filecheck %s

// TBuf: InitBuffer without a buffer count, and the three forms of Get.

builtin.module {
  ascendc.kernel @tbuf() {
    %pipe = ascendc.tpipe "pipe" : !ascendc.tpipe
    %tmp = ascendc.tbuf "tmpBuf" : !ascendc.tbuf<VECCALC>
    %len = arith.constant 1024 : i32
    ascendc.init_buffer %pipe, %tmp len %len : !ascendc.tpipe, !ascendc.tbuf<VECCALC>, i32
    %whole = ascendc.tbuf_get %tmp : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f32, VECCALC>
    %n = arith.constant 128 : i32
    %part = ascendc.tbuf_get %tmp count %n : i32 : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f32, VECCALC>
    %off = arith.constant 512 : i32
    %at = ascendc.tbuf_get %tmp count %n : i32 offset %off : i32 : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f16, VECCALC>
    ascendc.return
  }
}

// CHECK:      %tmp = ascendc.tbuf "tmpBuf" : !ascendc.tbuf<VECCALC>
// CHECK:      ascendc.init_buffer %pipe, %tmp len %len : !ascendc.tpipe, !ascendc.tbuf<VECCALC>, i32
// CHECK-NEXT: %whole = ascendc.tbuf_get %tmp : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f32, VECCALC>
// CHECK:      %part = ascendc.tbuf_get %tmp count %n : i32 : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f32, VECCALC>
// CHECK:      %at = ascendc.tbuf_get %tmp count %n : i32 offset %off : i32 : !ascendc.tbuf<VECCALC> -> !ascendc.local_tensor<f16, VECCALC>
