// RUN: ascendir-opt %s | filecheck %s

// The Matmul high-level API: the object becomes ascendc.matmul (its type arguments kept as text),
// REGIST_MATMUL_OBJ and every method call become ascendc.matmul_call with the object first, and
// `while (mm.Iterate())` becomes an scf.while whose condition is the Iterate call.

#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

struct MmTiling {
    TCubeTiling cube;
};

extern "C" __global__ __aicore__ void mm_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    GlobalTensor<half> aGm;
    GlobalTensor<half> bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, 1024);
    bGm.SetGlobalBuffer((__gm__ half *)b, 1024);
    cGm.SetGlobalBuffer((__gm__ float *)c, 1024);
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    while (mm.Iterate()) {
        mm.GetTensorC(cGm);
    }
    mm.End();
}

// CHECK-LABEL: ascendc.kernel @mm_custom
// CHECK:       %[[TD:.*]] = ascendc.get_tiling_data %tiling : !ascendc.gm_ptr<ui8> -> !ascendc.tiling<"MmTiling">
// CHECK:       %[[MM:.*]] = ascendc.matmul "mm" "Matmul<{{.+}}>" : !ascendc.object<"Matmul">
// CHECK:       %[[WS:.*]] = ascendc.system "GetSysWorkSpacePtr"() {overload = "plain"} : () -> !ascendc.gm_ptr<ui8>
// CHECK:       %[[CUBE:.*]] = ascendc.tiling_field %[[TD]] "cube" : !ascendc.tiling<"MmTiling"> -> !ascendc.tiling<"TCubeTiling">
// CHECK-NEXT:  ascendc.matmul_call "REGIST_MATMUL_OBJ"(%pipe, %[[WS]], %[[MM]], %[[CUBE]]) {overload = "one"}
// CHECK-NEXT:  ascendc.matmul_call "SetTensorA"(%[[MM]], %aGm) {overload = "gm"} : (!ascendc.object<"Matmul">, !ascendc.global_tensor<f16>) -> ()
// CHECK-NEXT:  ascendc.matmul_call "SetTensorB"(%[[MM]], %bGm) {overload = "gm"}
// CHECK-NEXT:  scf.while () : () -> () {
// CHECK-NEXT:    %[[MORE:.*]] = ascendc.matmul_call "Iterate"(%[[MM]]) {overload = "plain"} : (!ascendc.object<"Matmul">) -> i1
// CHECK-NEXT:    scf.condition(%[[MORE]])
// CHECK-NEXT:  } do {
// CHECK-NEXT:    ascendc.matmul_call "GetTensorC"(%[[MM]], %cGm{{.*}}) {overload = "gm"
// CHECK:       ascendc.matmul_call "End"(%[[MM]]) {overload = "plain"} : (!ascendc.object<"Matmul">) -> ()
