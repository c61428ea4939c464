"""Vendor API functions and types the catalog does not model: calls of them are opaque, not unknown APIs (ASC100),
declarations of them are not unknown types (ASC105); and overloads of the vendor API the catalog holds."""

from __future__ import annotations

from ascendir.catalog import (
    compiler_intrinsics,
    load_catalog,
    matmul_library_functions,
    vendor_functions,
    vendor_types,
)
from ascendir.catalog.resolve import ArgInfo, Resolution, resolve
from frontend.pipeline import load_text
from passes.verify import check_program

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void where(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    LocalTensor<bool> mask = buf.Get<bool>();
    AscendC::CALLEE(t, t, t, mask, 256);
}
"""


def local(dtype: str, position: str | None = None) -> ArgInfo:
    return ArgInfo("local_tensor", dtype, position)


def gm(dtype: str) -> ArgInfo:
    return ArgInfo("global_tensor", dtype)


def lit(dtype: str = "int32_t") -> ArgInfo:
    return ArgInfo("scalar", dtype, is_literal=True)


def struct(name: str) -> ArgInfo:
    return ArgInfo("struct", type_name=name)


def enum(name: str) -> ArgInfo:
    return ArgInfo("enum", type_name=name)


def test_the_list_holds_vendor_functions_and_no_member_definitions() -> None:
    names = vendor_functions()
    assert {"Where", "Rint", "TransData", "MrgSort4", "DropOut", "Add", "DataCopy"} <= names
    assert not {"Process", "CopyIn", "AllocTensor", "EnQue"} & names  # members, not free functions


def test_a_call_of_a_vendor_function_is_opaque_and_a_misspelt_one_is_unknown() -> None:
    def codes(callee: str) -> list[str]:
        return [d.code for d in check_program(load_text(KERNEL.replace("CALLEE", callee), "where.cpp")) if d.is_error]

    assert codes("AntiQuantize") == []  # declared by the vendor headers, not catalogued
    assert codes("AntiQuantise") == ["ASC100"]


def test_the_list_holds_the_basic_api_implementation_helpers_kernels_call() -> None:
    names = vendor_functions()
    assert {"GetScalarBitcodeValue", "DataCopyPadGm2UBImpl"} <= names  # impl/basic_api utils and dav_c220
    # the Matmul library's internal helper comes with lib/matmul_intf.h only, and nobody declares VecAdd
    assert not {"CeilDiv", "VecAdd"} & names


def test_the_matmul_librarys_helpers_are_declared_where_the_kernel_includes_it() -> None:
    # hicann ops-nn rotate_quant: `CeilAlign(n, 32)` and `CeilDiv(a, b)` from lib/matmul_intf.h's AscendC namespace
    assert {"CeilDiv", "CeilAlign"} <= matmul_library_functions()
    call = "uint32_t n = CeilAlign(100U, 32U) + CeilDiv(100U, 32U); (void)n;"
    header = '#include "kernel_operator.h"'
    with_library = KERNEL.replace(header, header + '\n#include "lib/matmul_intf.h"')
    for text, expected in ((with_library, []), (KERNEL, ["ASC100", "ASC100"])):
        src = text.replace("AscendC::CALLEE(t, t, t, mask, 256);", call)
        assert [d.code for d in check_program(load_text(src, "k.cpp")) if d.is_error] == expected


def test_the_compiler_intrinsics_list_holds_what_the_implementation_calls_and_no_host_code() -> None:
    names = compiler_intrinsics()
    assert {"trap", "set_atomic_none", "set_atomic_f16", "copy_gm_to_ubuf", "pipe_barrier", "set_flag", "vadd",
            "preload"} <= names
    # the SIMT builtins its SIMT API calls (`__simt_vf__` kernels call them too), not the methods it defines
    assert {"laneid", "__shfl_down", "__threadfence"} <= names
    assert not {"thread_rank", "dim_threads", "coalesced_group"} & names
    # the C library of the CPU-debug and host builds, pragmas, keywords and the AscendC API itself are not in it
    assert not {"fprintf", "abort", "raise", "begin_pipe", "sizeof", "constexpr", "DataCopy", "uint64_t"} & names


def test_vendor_types_are_known_and_a_misspelt_one_is_not() -> None:
    assert {"LoadData2dTransposeParams", "DataCopyCO12DstParams", "VdeqInfo", "TBufPool", "LoadData2dParams"} \
        <= vendor_types()

    def codes(decl: str) -> list[str]:
        src = KERNEL.replace("AscendC::CALLEE(t, t, t, mask, 256);", decl)
        return [d.code for d in check_program(load_text(src, "types.cpp")) if d.is_error]

    assert codes("LoadData2dTransposeParams params; params.repeatTimes = 1; (void)params;") == []
    assert codes("float zero = GetScalarBitcodeValue(0.0f); (void)zero;") == []
    assert codes("LoadData2dTransposParams params; (void)params;") == ["ASC105"]
    assert codes("AscendC::VecAdd(t, t, t, 256);") == ["ASC100"]


def test_a_struct_alias_names_its_catalogued_struct() -> None:
    cat = load_catalog()
    assert cat.struct("LoadData2dParams") is cat.struct("LoadData2DParams")


def test_vendor_overloads_the_catalog_holds() -> None:
    cat = load_catalog()
    shape = ArgInfo("mask_array", "uint32_t")
    matmuls = [ArgInfo("object", type_name="Matmul"), ArgInfo("pointer", type_name="TCubeTiling")] * 5
    cases = [
        # five Matmul objects on 910B (ops-transformer nsa_selected_attention_grad): its KFC server holds eight
        ("REGIST_MATMUL_OBJ", [ArgInfo("pointer", type_name="TPipe"), ArgInfo("pointer", "uint8_t"), *matmuls],
         (), None, "five"),
        ("Fixpipe", [gm("half"), local("float", "CO1"), struct("FixpipeParams")], (), None, "gm_params"),
        ("LoadData", [local("half", "A2"), local("half", "A1"), struct("LoadData3DParamsV2Pro")], (), None, "3dv2pro"),
        ("LoadData", [local("half", "A2"), local("half", "A1"), struct("LoadData3DParamsV2")],
         ("half", "IS_RESER_LOAD3D_DEFAULT_CONFIG"), None, "3dv2"),
        ("DataCopy", [gm("float"), local("float"), ArgInfo("pointer", type_name="SliceInfo"),
                      ArgInfo("pointer", type_name="SliceInfo")], (), None, "slice_local_to_gm"),
        ("Compare", [local("float"), local("float"), enum("CMPMODE"), lit("uint64_t"), struct("BinaryRepeatParams")],
         (), None, "cmpmask"),
        ("Select", [local("float"), local("uint8_t"), local("float"), lit(), struct("BinaryRepeatParams")], (), None,
         "selmask_scalar"),
        ("SetDeqScale", [lit("float"), lit("int16_t"), lit("bool")], (), None, "scale_offset"),
        ("SetDeqScale", [local("uint64_t"), struct("VdeqInfo")], (), None, "vdeq"),
        ("SwiGLU", [local("half")] * 3 + [lit("float")], (), None, "whole"),
        ("Axpy", [local("float"), local("half"), lit("half"), local("uint8_t"), lit()], (), None, "tmp"),
        ("BroadCast", [local("float"), local("float"), shape, shape], ("float", "2", "1"), None, "plain"),
        ("LayerNorm", [local("half"), local("float"), local("float"), local("half"), local("float"), local("float"),
                       lit("float"), struct("LayerNormPara"), struct("LayerNormSeparateTiling")],
         ("float", "half"), None, "rstd"),
        ("Fill", [local("half", "A2"), struct("InitConstValueParams")], (), None, "local"),
        ("GetTensorC", [], (), "Matmul", "workspace"),
        ("SetQuantScalar", [lit("uint64_t")], (), "Matmul", "plain"),
        ("ReinterpretCast", [], ("int32_t",), "GlobalTensor<float>", "plain"),
        ("InitBuffer", [lit(), lit()], (), "LocalTensor<half>", "plain"),
    ]
    for name, args, targs, receiver, overload in cases:
        result = resolve(cat, name, args, targs, receiver=receiver)
        assert isinstance(result, Resolution), (name, result)
        assert result.overload.id == overload, name


def test_matmul_and_pipe_methods_from_the_vendor_headers() -> None:
    cat = load_catalog()
    cases = [
        ("WaitIterateAll", [], (), "Matmul", "plain"),
        ("IterateAll", [gm("float"), lit(), lit("bool"), lit("bool")], ("false",), "Matmul", "gm"),
        ("Iterate", [lit("bool"), local("float", "CO1")], (), "Matmul", "co1"),
        ("SetSelfDefineData", [lit("uint64_t")], (), "Matmul", "plain"),
        ("SetSparseIndex", [gm("uint8_t")], (), "MatmulImpl", "gm"),
        ("IterateNBatch", [lit("uint32_t")] * 4 + [lit()] * 5, (), "Matmul", "plain"),
        # the lowering holds a TBufPool it does not model as an opaque struct value
        ("InitBufPool", [struct("TBufPool"), lit()], (), "TPipe", "own"),
        ("InitBufPool", [ArgInfo("object", type_name="TBufPool<TPosition::VECCALC, 8>"), lit(),
                         struct("TBufPool")], (), "TPipe", "shared"),
    ]
    for name, args, targs, receiver, overload in cases:
        result = resolve(cat, name, args, targs, receiver=receiver)
        assert isinstance(result, Resolution), (name, result)
        assert result.overload.id == overload, name
    # an object parameter still takes no struct of another name
    assert not isinstance(resolve(cat, "InitBufPool", [struct("TCubeTiling"), lit()], receiver="TPipe"), Resolution)


def test_a_static_member_of_an_unmodelled_vendor_class_is_not_the_free_api() -> None:
    def codes(call: str) -> list[str]:
        src = KERNEL.replace("AscendC::CALLEE(t, t, t, mask, 256);", call)
        return [d.code for d in check_program(load_text(src, "limits.cpp")) if d.is_error]

    # NumericLimits<T>::Lowest(dst, n) fills dst; the free API of that name does not exist
    assert codes("AscendC::NumericLimits<float>::Lowest(t, 64);") == []
    assert codes("NumericLimits<float>::Max(t, 64);") == []
    assert codes("AscendC::Lowest(t, 64);") == ["ASC100"]


CUBE_COPIES = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copies(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::A1> l1;
    TBuf<TPosition::CO1> l0c;
    TBuf<TPosition::VECIN> ub;
    pipe.InitBuffer(l1, 16384);
    pipe.InitBuffer(l0c, 16384);
    pipe.InitBuffer(ub, 16384);
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 4096);
    GlobalTensor<half> yGm;
    yGm.SetGlobalBuffer((__gm__ half*)y, 4096);
    LocalTensor<float> a1 = l1.Get<float>();
    LocalTensor<float> c1 = l0c.Get<float>();
    LocalTensor<half> u = ub.Get<half>();
    Nd2NzParams nd2nz{1, 16, 16, 0, 16, 16, 1, 0};
    DataCopy(u, xGm, nd2nz);
    DataCopyParams params{1, 2, 0, 0};
    DataCopyEnhancedParams enhanced;
    DataCopy(c1, a1, params, enhanced);
    DataCopyCO12DstParams co12(16, 16, 16, 16, QuantMode_t::F322F16, 0, false, true);
    DataCopy(yGm, c1, co12);
    DataCopy(l1.Get<half>(), c1, co12);
}
"""


def test_data_copy_routes_of_the_vendor_overloads() -> None:
    # GM -> UB with Nd2NzParams, L1 -> L0C with DataCopyEnhancedParams, L0C -> GM/L1 with DataCopyCO12DstParams
    codes = [d.code for d in check_program(load_text(CUBE_COPIES, "copies.cpp")) if d.is_error]
    assert "ASC101" not in codes and "ASC506" not in codes, codes
    cat = load_catalog()
    co12 = struct("DataCopyCO12DstParams")
    assert resolve(cat, "DataCopy", [gm("half"), local("float", "CO1"), co12]).overload.id == "co1_to_gm"  # type: ignore[union-attr]
    assert resolve(cat, "DataCopy", [local("half", "A1"), local("float", "CO1"), co12]).overload.id == "co1_to_l1"  # type: ignore[union-attr]
    assert cat.route_allowed("DataCopy", "GM", "VECIN", overload="nd2nz")
    assert cat.route_allowed("DataCopy", "A1", "CO1", overload="enhanced")
