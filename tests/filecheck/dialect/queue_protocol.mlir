// RUN: ascendir-opt %s | filecheck %s

// The TPipe/TQue protocol: declarations, InitBuffer with a buffer count, and
// AllocTensor -> EnQue -> DeQue -> FreeTensor.

builtin.module {
  ascendc.kernel @queue() {
    %pipe = ascendc.tpipe "pipe" : !ascendc.tpipe
    %inQ = ascendc.tque "inQueueX" : !ascendc.tque<VECIN, 2>
    %len = arith.constant 512 : i32
    %num = arith.constant 2 : i32
    ascendc.init_buffer %pipe, %inQ num %num : i32 len %len : !ascendc.tpipe, !ascendc.tque<VECIN, 2>, i32
    %t = ascendc.alloc_tensor %inQ : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECIN>
    %ok = ascendc.enque %inQ, %t : !ascendc.tque<VECIN, 2>, !ascendc.local_tensor<f16, VECIN> -> i1
    %d = ascendc.deque %inQ : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECIN>
    ascendc.free_tensor %inQ, %d : !ascendc.tque<VECIN, 2>, !ascendc.local_tensor<f16, VECIN>
    // a tensor of unknown position may come out of any queue
    %u = ascendc.alloc_tensor %inQ : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, ?>
    ascendc.return
  }
}

// CHECK:      %pipe = ascendc.tpipe "pipe" : !ascendc.tpipe
// CHECK-NEXT: %inQ = ascendc.tque "inQueueX" : !ascendc.tque<VECIN, 2>
// CHECK:      ascendc.init_buffer %pipe, %inQ num %num : i32 len %len : !ascendc.tpipe, !ascendc.tque<VECIN, 2>, i32
// CHECK-NEXT: %t = ascendc.alloc_tensor %inQ : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECIN>
// CHECK-NEXT: %ok = ascendc.enque %inQ, %t : !ascendc.tque<VECIN, 2>, !ascendc.local_tensor<f16, VECIN> -> i1
// CHECK-NEXT: %d = ascendc.deque %inQ : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECIN>
// CHECK-NEXT: ascendc.free_tensor %inQ, %d : !ascendc.tque<VECIN, 2>, !ascendc.local_tensor<f16, VECIN>
// CHECK-NEXT: %u = ascendc.alloc_tensor %inQ : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, ?>
