// RUN: ascendir-opt %s | filecheck %s

// Library operators with temp space (ascendc.high_level) and the vector mask state (ascendc.mask).

builtin.module {
  ascendc.kernel @high_level_and_mask() {
    %src = ascendc.undef : !ascendc.local_tensor<f16, VECIN>
    %dst = ascendc.undef : !ascendc.local_tensor<f16, VECOUT>
    %tmp = ascendc.undef : !ascendc.local_tensor<ui8, VECCALC>
    %n = arith.constant 2048 : i32
    ascendc.high_level "Sigmoid"(%dst, %src, %tmp, %n) {overload = "tmp"} : (!ascendc.local_tensor<f16, VECOUT>, !ascendc.local_tensor<f16, VECIN>, !ascendc.local_tensor<ui8, VECCALC>, i32) -> ()
    ascendc.mask "SetMaskCount"() {overload = "plain"} : () -> ()
    %count = arith.constant 300 : i64
    ascendc.mask "SetVectorMask"(%count) {overload = "count", template_args = [f16, "MaskMode::COUNTER"]} : (i64) -> ()
    ascendc.mask "SetMaskNorm"() {overload = "plain"} : () -> ()
    ascendc.mask "ResetMask"() {overload = "plain"} : () -> ()
    ascendc.return
  }
}

// CHECK:      ascendc.high_level "Sigmoid"(%dst, %src, %tmp, %n) {overload = "tmp"} : (!ascendc.local_tensor<f16, VECOUT>, !ascendc.local_tensor<f16, VECIN>, !ascendc.local_tensor<ui8, VECCALC>, i32) -> ()
// CHECK-NEXT: ascendc.mask "SetMaskCount"() {overload = "plain"} : () -> ()
// CHECK:      ascendc.mask "SetVectorMask"(%count) {overload = "count", template_args = [f16, "MaskMode::COUNTER"]} : (i64) -> ()
// CHECK-NEXT: ascendc.mask "SetMaskNorm"() {overload = "plain"} : () -> ()
// CHECK-NEXT: ascendc.mask "ResetMask"() {overload = "plain"} : () -> ()
