// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// DeQue returns a tensor in the queue's own position.

builtin.module {
  ascendc.kernel @bad() {
    %q = ascendc.tque "outQueueZ" : !ascendc.tque<VECOUT, 1>
    %t = ascendc.deque %q : !ascendc.tque<VECOUT, 1> -> !ascendc.local_tensor<f32, VECCALC>
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.deque': DeQue returns a tensor in VECOUT, not VECCALC
