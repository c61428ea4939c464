// RUN: ascendir-opt %s | filecheck %s

// ascendc.data_copy: DataCopy by element count and by DataCopyParams in both directions, and
// DataCopyPad with its extended parameter structs.

builtin.module {
  ascendc.kernel @copies() {
    %gm = ascendc.undef : !ascendc.global_tensor<f16>
    %in = ascendc.undef : !ascendc.local_tensor<f16, VECIN>
    %out = ascendc.undef : !ascendc.local_tensor<f16, VECOUT>
    %n = arith.constant 256 : i32
    ascendc.data_copy "DataCopy"(%in, %gm, %n) {overload = "count_gm_to_local"} : (!ascendc.local_tensor<f16, VECIN>, !ascendc.global_tensor<f16>, i32) -> ()
    ascendc.data_copy "DataCopy"(%gm, %out, %n) {overload = "count_local_to_gm"} : (!ascendc.global_tensor<f16>, !ascendc.local_tensor<f16, VECOUT>, i32) -> ()
    %p = ascendc.undef : !ascendc.struct<"DataCopyParams">
    ascendc.data_copy "DataCopy"(%in, %gm, %p) {overload = "params_gm_to_local"} : (!ascendc.local_tensor<f16, VECIN>, !ascendc.global_tensor<f16>, !ascendc.struct<"DataCopyParams">) -> ()
    %ext = ascendc.undef : !ascendc.struct<"DataCopyExtParams">
    %pad = ascendc.undef : !ascendc.struct<"DataCopyPadExtParams">
    ascendc.data_copy "DataCopyPad"(%in, %gm, %ext, %pad) {overload = "ext_gm_to_local"} : (!ascendc.local_tensor<f16, VECIN>, !ascendc.global_tensor<f16>, !ascendc.struct<"DataCopyExtParams">, !ascendc.struct<"DataCopyPadExtParams">) -> ()
    ascendc.data_copy "DataCopyPad"(%gm, %out, %ext) {overload = "ext_local_to_gm"} : (!ascendc.global_tensor<f16>, !ascendc.local_tensor<f16, VECOUT>, !ascendc.struct<"DataCopyExtParams">) -> ()
    ascendc.return
  }
}

// CHECK:      ascendc.data_copy "DataCopy"(%in, %gm, %n) {overload = "count_gm_to_local"} : (!ascendc.local_tensor<f16, VECIN>, !ascendc.global_tensor<f16>, i32) -> ()
// CHECK-NEXT: ascendc.data_copy "DataCopy"(%gm, %out, %n) {overload = "count_local_to_gm"} : (!ascendc.global_tensor<f16>, !ascendc.local_tensor<f16, VECOUT>, i32) -> ()
// CHECK:      ascendc.data_copy "DataCopy"(%in, %gm, %p) {overload = "params_gm_to_local"}
// CHECK:      ascendc.data_copy "DataCopyPad"(%in, %gm, %ext, %pad) {overload = "ext_gm_to_local"}
// CHECK-NEXT: ascendc.data_copy "DataCopyPad"(%gm, %out, %ext) {overload = "ext_local_to_gm"} : (!ascendc.global_tensor<f16>, !ascendc.local_tensor<f16, VECOUT>, !ascendc.struct<"DataCopyExtParams">) -> ()
