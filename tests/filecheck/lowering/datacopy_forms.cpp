// RUN: ascendir-opt %s | filecheck %s

// DataCopy resolves to the overload its arguments select: an element count or a DataCopyParams, GM to
// UB or UB to GM. A braced DataCopyParams becomes struct_init with the fields in declaration order;
// DataCopyPad takes DataCopyExtParams and DataCopyPadExtParams.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_forms(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 2048);
    yGm.SetGlobalBuffer((__gm__ half *)y, 2048);
    LocalTensor<half> t = buf.Get<half>();

    DataCopy(t, xGm, 1024);
    DataCopyParams rows{4, 8, 0, 0};
    DataCopy(yGm, t, rows);
    DataCopyExtParams ext{1, 100, 0, 0, 0};
    DataCopyPadExtParams<half> pad{true, 0, 14, 0};
    DataCopyPad(t, xGm, ext, pad);
    DataCopyPad(yGm, t, ext);
}

// CHECK-LABEL: ascendc.kernel @copy_forms
// CHECK:       ascendc.data_copy "DataCopy"(%[[T:.*]], %xGm, %{{.*}}) {overload = "count_gm_to_local"} : (!ascendc.local_tensor<f16, VECCALC>, !ascendc.global_tensor<f16>, i32) -> ()
// CHECK:       %[[ROWS:.*]] = ascendc.struct_init ["blockCount", "blockLen", "srcStride", "dstStride"](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i16, i16, i16, i16) -> !ascendc.struct<"DataCopyParams">
// CHECK:       ascendc.data_copy "DataCopy"(%yGm, %[[T]], %{{.*}}) {overload = "params_local_to_gm"} : (!ascendc.global_tensor<f16>, !ascendc.local_tensor<f16, VECCALC>, !ascendc.struct<"DataCopyParams">) -> ()
// CHECK:       %[[EXT:.*]] = ascendc.struct_init ["blockCount", "blockLen", "srcStride", "dstStride", "rsv"]({{.*}}) : (i16, i32, i32, i32, i32) -> !ascendc.struct<"DataCopyExtParams">
// CHECK:       %[[PAD:.*]] = ascendc.struct_init ["isPad", "leftPadding", "rightPadding", "paddingValue"]({{.*}}) -> !ascendc.struct<"DataCopyPadExtParams">
// CHECK-NEXT:  ascendc.data_copy "DataCopyPad"(%[[T]], %xGm, %[[EXT]], %[[PAD]]) {overload = "ext_gm_to_local"}
// CHECK-NEXT:  ascendc.data_copy "DataCopyPad"(%yGm, %[[T]], %[[EXT]]) {overload = "ext_local_to_gm"}
