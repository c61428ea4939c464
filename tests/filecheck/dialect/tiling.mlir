// RUN: ascendir-opt %s | filecheck %s

// Tiling data: GET_TILING_DATA, scalar, nested and array fields, TILING_KEY_IS, ASCEND_IS_AIV/AIC.

builtin.module {
  ascendc.kernel @tiling(%tiling: !ascendc.gm_ptr<ui8>) {
    %td = ascendc.get_tiling_data %tiling : !ascendc.gm_ptr<ui8> -> !ascendc.tiling<"TilingData">
    %total = ascendc.tiling_field %td "totalLength" : !ascendc.tiling<"TilingData"> -> i32
    %m = ascendc.tiling_field %td "cubeTiling.M" : !ascendc.tiling<"TilingData"> -> i32
    %i = arith.constant 2 : i32
    %len = ascendc.tiling_field %td "tileLens"[%i : i32] : !ascendc.tiling<"TilingData"> -> i32
    %key = ascendc.tiling_key_is 7 : i64 -> i1
    %aiv = ascendc.core_is "AIV" -> i1
    %aic = ascendc.core_is "AIC" -> i1
    ascendc.return
  }
}

// CHECK:      %td = ascendc.get_tiling_data %tiling : !ascendc.gm_ptr<ui8> -> !ascendc.tiling<"TilingData">
// CHECK-NEXT: %total = ascendc.tiling_field %td "totalLength" : !ascendc.tiling<"TilingData"> -> i32
// CHECK-NEXT: %m = ascendc.tiling_field %td "cubeTiling.M" : !ascendc.tiling<"TilingData"> -> i32
// CHECK:      %len = ascendc.tiling_field %td "tileLens"[%i : i32] : !ascendc.tiling<"TilingData"> -> i32
// CHECK-NEXT: %key = ascendc.tiling_key_is 7 : i64 -> i1
// CHECK-NEXT: %aiv = ascendc.core_is "AIV" -> i1
// CHECK-NEXT: %aic = ascendc.core_is "AIC" -> i1
