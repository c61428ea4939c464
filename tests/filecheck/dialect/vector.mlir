// RUN: ascendir-opt %s | filecheck %s

// The element-wise families: vec_binary (count and mask forms), vec_scalar, vec_unary, duplicate.
// Explicit template arguments are kept in `template_args`.

builtin.module {
  ascendc.kernel @vector() {
    %a = ascendc.undef : !ascendc.local_tensor<f32, VECIN>
    %b = ascendc.undef : !ascendc.local_tensor<f32, VECIN>
    %dst = ascendc.undef : !ascendc.local_tensor<f32, VECOUT>
    %n = arith.constant 1024 : i32
    ascendc.vec_binary "Add"(%dst, %a, %b, %n) {overload = "count"} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, !ascendc.local_tensor<f32, VECIN>, i32) -> ()
    %mask = arith.constant 64 : i64
    %rep = arith.constant 4 : i8
    %params = ascendc.undef : !ascendc.struct<"BinaryRepeatParams">
    ascendc.vec_binary "Mul"(%dst, %a, %b, %mask, %rep, %params) {overload = "mask", template_args = [f32, i1]} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, !ascendc.local_tensor<f32, VECIN>, i64, i8, !ascendc.struct<"BinaryRepeatParams">) -> ()
    %s = arith.constant 2.000000e+00 : f32
    ascendc.vec_scalar "Muls"(%dst, %a, %s, %n) {overload = "count"} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, f32, i32) -> ()
    ascendc.vec_unary "Exp"(%dst, %a, %n) {overload = "count"} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, i32) -> ()
    ascendc.duplicate "Duplicate"(%dst, %s, %n) {overload = "count", template_args = [f32]} : (!ascendc.local_tensor<f32, VECOUT>, f32, i32) -> ()
    ascendc.return
  }
}

// CHECK:      ascendc.vec_binary "Add"(%dst, %a, %b, %n) {overload = "count"} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, !ascendc.local_tensor<f32, VECIN>, i32) -> ()
// CHECK:      ascendc.vec_binary "Mul"(%dst, %a, %b, %mask, %rep, %params) {overload = "mask", template_args = [f32, i1]}
// CHECK:      ascendc.vec_scalar "Muls"(%dst, %a, %s, %n) {overload = "count"} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, f32, i32) -> ()
// CHECK-NEXT: ascendc.vec_unary "Exp"(%dst, %a, %n) {overload = "count"} : (!ascendc.local_tensor<f32, VECOUT>, !ascendc.local_tensor<f32, VECIN>, i32) -> ()
// CHECK-NEXT: ascendc.duplicate "Duplicate"(%dst, %s, %n) {overload = "count", template_args = [f32]} : (!ascendc.local_tensor<f32, VECOUT>, f32, i32) -> ()
