// RUN: ascendir-opt %s | filecheck %s

// Flags and barriers (ascendc.sync), core queries (ascendc.system) and the method families of the
// runtime objects (pipe_call, queue_call, global_tensor_call, local_tensor_call).

builtin.module {
  ascendc.kernel @sync() {
    %pipe = ascendc.tpipe "pipe" : !ascendc.tpipe
    %e = ascendc.enum_constant "MTE2_V" : !ascendc.enum<"HardEvent">
    %id = ascendc.pipe_call "FetchEventID"(%pipe, %e) {overload = "argument"} : (!ascendc.tpipe, !ascendc.enum<"HardEvent">) -> i8
    ascendc.sync "SetFlag"(%id) {overload = "plain", template_args = ["MTE2_V"]} : (i8) -> ()
    ascendc.sync "WaitFlag"(%id) {overload = "plain", template_args = ["MTE2_V"]} : (i8) -> ()
    ascendc.sync "PipeBarrier"() {overload = "plain", template_args = ["PIPE_ALL"]} : () -> ()
    ascendc.sync "SyncAll"() {overload = "hard"} : () -> ()
    %idx = ascendc.system "GetBlockIdx"() {overload = "plain"} : () -> i64
    %num = ascendc.system "GetBlockNum"() {overload = "plain"} : () -> i64
    %q = ascendc.tque "q" : !ascendc.tque<VECOUT, 1>
    %vacant = ascendc.queue_call "VacantInQue"(%q) {overload = "plain"} : (!ascendc.tque<VECOUT, 1>) -> i1
    %g = ascendc.undef : !ascendc.global_tensor<f16>
    %gsize = ascendc.global_tensor_call "GetSize"(%g) {overload = "plain"} : (!ascendc.global_tensor<f16>) -> i64
    %l = ascendc.undef : !ascendc.local_tensor<f16, VECOUT>
    %lsize = ascendc.local_tensor_call "GetSize"(%l) {overload = "plain"} : (!ascendc.local_tensor<f16, VECOUT>) -> i32
    ascendc.return
  }
}

// CHECK:      %id = ascendc.pipe_call "FetchEventID"(%pipe, %e) {overload = "argument"} : (!ascendc.tpipe, !ascendc.enum<"HardEvent">) -> i8
// CHECK-NEXT: ascendc.sync "SetFlag"(%id) {overload = "plain", template_args = ["MTE2_V"]} : (i8) -> ()
// CHECK-NEXT: ascendc.sync "WaitFlag"(%id) {overload = "plain", template_args = ["MTE2_V"]} : (i8) -> ()
// CHECK-NEXT: ascendc.sync "PipeBarrier"() {overload = "plain", template_args = ["PIPE_ALL"]} : () -> ()
// CHECK-NEXT: ascendc.sync "SyncAll"() {overload = "hard"} : () -> ()
// CHECK-NEXT: %idx = ascendc.system "GetBlockIdx"() {overload = "plain"} : () -> i64
// CHECK-NEXT: %num = ascendc.system "GetBlockNum"() {overload = "plain"} : () -> i64
// CHECK:      %vacant = ascendc.queue_call "VacantInQue"(%q) {overload = "plain"} : (!ascendc.tque<VECOUT, 1>) -> i1
// CHECK:      %gsize = ascendc.global_tensor_call "GetSize"(%g) {overload = "plain"} : (!ascendc.global_tensor<f16>) -> i64
// CHECK:      %lsize = ascendc.local_tensor_call "GetSize"(%l) {overload = "plain"} : (!ascendc.local_tensor<f16, VECOUT>) -> i32
