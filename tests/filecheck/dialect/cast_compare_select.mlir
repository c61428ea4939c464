// RUN: ascendir-opt %s | filecheck %s

// Cast with a RoundMode, Compare/CompareScalar into a ui8 bit mask, Select by that mask.

builtin.module {
  ascendc.kernel @cast_compare_select() {
    %x = ascendc.undef : !ascendc.local_tensor<f16, VECIN>
    %y = ascendc.undef : !ascendc.local_tensor<f16, VECIN>
    %wide = ascendc.undef : !ascendc.local_tensor<f32, VECCALC>
    %bits = ascendc.undef : !ascendc.local_tensor<ui8, VECCALC>
    %out = ascendc.undef : !ascendc.local_tensor<f16, VECOUT>
    %n = arith.constant 128 : i32
    %none = ascendc.enum_constant "CAST_NONE" : !ascendc.enum<"RoundMode">
    ascendc.cast "Cast"(%wide, %x, %none, %n) {overload = "count", template_args = [f32, f16]} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<f16, VECIN>, !ascendc.enum<"RoundMode">, i32) -> ()
    %lt = ascendc.enum_constant "LT" : !ascendc.enum<"CMPMODE">
    ascendc.compare "Compare"(%bits, %x, %y, %lt, %n) {overload = "count"} : (!ascendc.local_tensor<ui8, VECCALC>, !ascendc.local_tensor<f16, VECIN>, !ascendc.local_tensor<f16, VECIN>, !ascendc.enum<"CMPMODE">, i32) -> ()
    %zero = arith.constant 0.000000e+00 : f32
    ascendc.compare "CompareScalar"(%bits, %wide, %zero, %lt, %n) {overload = "count"} : (!ascendc.local_tensor<ui8, VECCALC>, !ascendc.local_tensor<f32, VECCALC>, f32, !ascendc.enum<"CMPMODE">, i32) -> ()
    %mode = ascendc.enum_constant "VSEL_TENSOR_TENSOR_MODE" : !ascendc.enum<"SELMODE">
    ascendc.select "Select"(%out, %bits, %x, %y, %mode, %n) {overload = "tensor_count"} : (!ascendc.local_tensor<f16, VECOUT>, !ascendc.local_tensor<ui8, VECCALC>, !ascendc.local_tensor<f16, VECIN>, !ascendc.local_tensor<f16, VECIN>, !ascendc.enum<"SELMODE">, i32) -> ()
    ascendc.return
  }
}

// CHECK:      ascendc.cast "Cast"(%wide, %x, %none, %n) {overload = "count", template_args = [f32, f16]} : (!ascendc.local_tensor<f32, VECCALC>, !ascendc.local_tensor<f16, VECIN>, !ascendc.enum<"RoundMode">, i32) -> ()
// CHECK:      ascendc.compare "Compare"(%bits, %x, %y, %lt, %n) {overload = "count"}
// CHECK:      ascendc.compare "CompareScalar"(%bits, %wide, %zero, %lt, %n) {overload = "count"} : (!ascendc.local_tensor<ui8, VECCALC>, !ascendc.local_tensor<f32, VECCALC>, f32, !ascendc.enum<"CMPMODE">, i32) -> ()
// CHECK:      ascendc.select "Select"(%out, %bits, %x, %y, %mode, %n) {overload = "tensor_count"}
