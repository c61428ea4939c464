// RUN: ascendir-opt %s | filecheck %s

// The cube path (LoadData L1 -> L0A/L0B, Mmad into L0C, Fixpipe to GM) and the high-level Matmul
// object: its declaration and method calls, which take the object as their first operand.

builtin.module {
  ascendc.kernel @cube(%workspace: !ascendc.gm_ptr<ui8>) {
    %a1 = ascendc.undef : !ascendc.local_tensor<f16, A1>
    %a2 = ascendc.undef : !ascendc.local_tensor<f16, A2>
    %b2 = ascendc.undef : !ascendc.local_tensor<f16, B2>
    %c = ascendc.undef : !ascendc.local_tensor<f32, CO1>
    %gm = ascendc.undef : !ascendc.global_tensor<f32>
    %lp = ascendc.undef : !ascendc.struct<"LoadData2DParams">
    ascendc.cube "LoadData"(%a2, %a1, %lp) {overload = "2d"} : (!ascendc.local_tensor<f16, A2>, !ascendc.local_tensor<f16, A1>, !ascendc.struct<"LoadData2DParams">) -> ()
    %mp = ascendc.undef : !ascendc.struct<"MmadParams">
    ascendc.cube "Mmad"(%c, %a2, %b2, %mp) {overload = "plain"} : (!ascendc.local_tensor<f32, CO1>, !ascendc.local_tensor<f16, A2>, !ascendc.local_tensor<f16, B2>, !ascendc.struct<"MmadParams">) -> ()
    %fp = ascendc.undef : !ascendc.struct<"FixpipeParamsV220">
    ascendc.cube "Fixpipe"(%gm, %c, %fp) {overload = "gm", template_args = [f32, f32, "CFG_ROW_MAJOR"]} : (!ascendc.global_tensor<f32>, !ascendc.local_tensor<f32, CO1>, !ascendc.struct<"FixpipeParamsV220">) -> ()

    %pipe = ascendc.tpipe "pipe" : !ascendc.tpipe
    %mm = ascendc.matmul "mm" "MatmulType<GM, ND, half>, MatmulType<GM, ND, half>, MatmulType<GM, ND, float>" : !ascendc.object<"Matmul">
    %td = ascendc.undef : !ascendc.tiling<"TCubeTiling">
    ascendc.matmul_call "REGIST_MATMUL_OBJ"(%pipe, %workspace, %mm, %td) {overload = "one"} : (!ascendc.tpipe, !ascendc.gm_ptr<ui8>, !ascendc.object<"Matmul">, !ascendc.tiling<"TCubeTiling">) -> ()
    %aGm = ascendc.undef : !ascendc.global_tensor<f16>
    ascendc.matmul_call "SetTensorA"(%mm, %aGm) {overload = "gm"} : (!ascendc.object<"Matmul">, !ascendc.global_tensor<f16>) -> ()
    %more = ascendc.matmul_call "Iterate"(%mm) {overload = "plain"} : (!ascendc.object<"Matmul">) -> i1
    ascendc.matmul_call "IterateAll"(%mm, %gm) {overload = "gm"} : (!ascendc.object<"Matmul">, !ascendc.global_tensor<f32>) -> ()
    ascendc.matmul_call "End"(%mm) {overload = "plain"} : (!ascendc.object<"Matmul">) -> ()
    ascendc.return
  }
}

// CHECK:      ascendc.cube "LoadData"(%a2, %a1, %lp) {overload = "2d"} : (!ascendc.local_tensor<f16, A2>, !ascendc.local_tensor<f16, A1>, !ascendc.struct<"LoadData2DParams">) -> ()
// CHECK:      ascendc.cube "Mmad"(%c, %a2, %b2, %mp) {overload = "plain"} : (!ascendc.local_tensor<f32, CO1>, !ascendc.local_tensor<f16, A2>, !ascendc.local_tensor<f16, B2>, !ascendc.struct<"MmadParams">) -> ()
// CHECK:      ascendc.cube "Fixpipe"(%gm, %c, %fp) {overload = "gm", template_args = [f32, f32, "CFG_ROW_MAJOR"]}
// CHECK:      %mm = ascendc.matmul "mm" "MatmulType<GM, ND, half>, MatmulType<GM, ND, half>, MatmulType<GM, ND, float>" : !ascendc.object<"Matmul">
// CHECK:      ascendc.matmul_call "REGIST_MATMUL_OBJ"(%pipe, %workspace, %mm, %td) {overload = "one"}
// CHECK:      ascendc.matmul_call "SetTensorA"(%mm, %aGm) {overload = "gm"} : (!ascendc.object<"Matmul">, !ascendc.global_tensor<f16>) -> ()
// CHECK-NEXT: %more = ascendc.matmul_call "Iterate"(%mm) {overload = "plain"} : (!ascendc.object<"Matmul">) -> i1
// CHECK-NEXT: ascendc.matmul_call "IterateAll"(%mm, %gm) {overload = "gm"}
// CHECK-NEXT: ascendc.matmul_call "End"(%mm) {overload = "plain"} : (!ascendc.object<"Matmul">) -> ()
