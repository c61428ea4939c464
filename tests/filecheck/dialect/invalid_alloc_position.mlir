// RUN: not ascendir-opt %s 2>&1 | filecheck %s

// AllocTensor hands out buffers of its queue's position: a VECIN queue cannot give a VECOUT tensor.

builtin.module {
  ascendc.kernel @bad() {
    %q = ascendc.tque "inQueueX" : !ascendc.tque<VECIN, 2>
    %t = ascendc.alloc_tensor %q : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECOUT>
    ascendc.return
  }
}

// CHECK: ascendir-opt: the input does not verify (1 op):
// CHECK-NEXT: 'ascendc.alloc_tensor': AllocTensor returns a tensor in VECIN, not VECOUT
