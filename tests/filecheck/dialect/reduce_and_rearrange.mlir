// RUN: ascendir-opt %s | filecheck %s

// ascendc.reduce, brcb, gather, transpose and sort.

builtin.module {
  ascendc.kernel @reduce_and_rearrange() {
    %src = ascendc.undef : !ascendc.local_tensor<f32, VECIN>
    %tmp = ascendc.undef : !ascendc.local_tensor<f32, VECCALC>
    %dst = ascendc.undef : !ascendc.local_tensor<f32, VECOUT>
    %n = arith.constant 512 : i32
    ascendc.reduce "ReduceSum"(%dst, %src, %tmp, %n) {overload = "count", template_args = [f32]} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, !ascendc.local_tensor<f32, VECCALC>, i32) -> ()
    %c64 = arith.constant 64 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    ascendc.reduce "WholeReduceSum"(%dst, %src, %c64, %c8, %c1, %c1, %c8) {overload = "mask", template_args = [f32]} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, i32, i32, i32, i32, i32) -> ()
    %rep = arith.constant 2 : i8
    %bp = ascendc.undef : !ascendc.struct<"BrcbRepeatParams">
    ascendc.brcb "Brcb"(%tmp, %src, %rep, %bp) {overload = "params"} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<f32, VECIN>, i8, !ascendc.struct<"BrcbRepeatParams">) -> ()
    %offsets = ascendc.undef : !ascendc.local_tensor<ui32, VECCALC>
    %base = arith.constant 0 : i32
    ascendc.gather "Gather"(%dst, %src, %offsets, %base, %n) {overload = "count"} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, !ascendc.local_tensor<ui32, VECCALC>, i32, i32) -> ()
    %h = ascendc.undef : !ascendc.local_tensor<f16, VECIN>
    %ht = ascendc.undef : !ascendc.local_tensor<f16, VECOUT>
    ascendc.transpose "Transpose"(%ht, %h) {overload = "block16"} : (!ascendc.local_tensor<f16, VECOUT>, !ascendc.local_tensor<f16, VECIN>) -> ()
    %idx = ascendc.undef : !ascendc.local_tensor<ui32, VECIN>
    ascendc.sort "Sort"(%dst, %src, %idx, %tmp, %c8) {overload = "plain", template_args = [f32, i1]} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, !ascendc.local_tensor<ui32, VECIN>, !ascendc.local_tensor<f32, VECCALC>, i32) -> ()
    ascendc.return
  }
}

// CHECK:      ascendc.reduce "ReduceSum"(%dst, %src, %tmp, %n) {overload = "count", template_args = [f32]}
// CHECK:      ascendc.reduce "WholeReduceSum"(%dst, %src, %c64, %c8, %c1, %c1, %c8) {overload = "mask", template_args = [f32]} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, i32, i32, i32, i32, i32) -> ()
// CHECK:      ascendc.brcb "Brcb"(%tmp, %src, %rep, %bp) {overload = "params"} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<f32, VECIN>, i8, !ascendc.struct<"BrcbRepeatParams">) -> ()
// CHECK:      ascendc.gather "Gather"(%dst, %src, %offsets, %base, %n) {overload = "count"}
// CHECK:      ascendc.transpose "Transpose"(%ht, %h) {overload = "block16"} : (!ascendc.local_tensor<f16, VECOUT>, !ascendc.local_tensor<f16, VECIN>) -> ()
// CHECK:      ascendc.sort "Sort"(%dst, %src, %idx, %tmp, %c8) {overload = "plain", template_args = [f32, i1]}
