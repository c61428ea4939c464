"""What the frontend knows about the AscendC / CANN environment without reading vendor headers.

Vendor headers are never read (they are not ours to ship); instead this module lists the headers
that are skipped, the macros they would define that change how code parses, and the type and
template names they would declare. The parser needs the names to tell `T x;` from `a * b;`
and `Foo<T>(x)` from `a < b > (c)` the way a C++ compiler that had read the headers would.
"""

from __future__ import annotations

# Headers from CANN / AscendC that are recognised and skipped. Any `<...>` include is skipped too
# (system headers); a quoted include that matches one of these names (by basename) is skipped
# instead of being looked up next to the including file.
KNOWN_HEADERS: frozenset[str] = frozenset(
    {
        "kernel_operator.h",
        "kernel_tiling/kernel_tiling.h",
        "kernel_tiling.h",
        "register/tilingdata_base.h",
        "register/op_def_registry.h",
        "tiling/platform/platform_ascendc.h",
        "tiling/tiling_api.h",
        "tiling/softmax/softmax_tiling.h",
        "platform/platform_ascendc.h",
        "lib/matmul_intf.h",
        "lib/matrix/matmul/matmul.h",
        "acl/acl.h",
        "aclrtlaunch_kernel.h",
        "tikicpulib.h",
        "graph/utils/type_utils.h",
        "graph/tensor.h",
        "exe_graph/runtime/tiling_context.h",
        "op_log.h",
        "torch/extension.h",
        "torch_npu/csrc/core/npu/NPUStream.h",
        "pytorch_npu_helper.hpp",
        "simt_api/asc_simt.h",
        "adv_api/kernel_api.h",
        "data_utils.h",
        # the tiling-template macros (ASCENDC_TPL_SEL ...), under the paths the op repositories write
        "ascendc/host_api/tiling/template_argument.h",
        "utils/tiling/template_argument.h",
    }
)

# Headers the CANN build generates per kernel (`aclrtlaunch_add_custom.h` for ACLRT_LAUNCH_KERNEL).
GENERATED_HEADER_PREFIXES: tuple[str, ...] = ("aclrtlaunch_", "aclnn_")

# The ops repositories' shared tiling framework and logging headers (in `common/inc` of ops-nn / ops-math): the host
# lowering models what they declare (tiling_framework.py, the log macros of host_calls.py) and is not fed their
# text when an op project's includes are looked up in the repository's `common/inc`
# (frontend/preprocess_includes.py): read, their macros expand into runtime calls it does not know
# (REPORT_INNER_ERR_MSG) and their classes replace the modelled ones
REPOSITORY_FRAMEWORK_HEADERS: frozenset[str] = frozenset(
    {"tiling_base.h", "tiling_templates_registry.h", "tiling_util.h", "error_util.h"}
)

_MATMUL_IMPL_TYPE = "MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>"

# Macros the vendor headers (or the msopgen build) define whose expansion matters for parsing.
# Values are replacement text; function-like macros are written "NAME(params)".
PREDEFINED_MACROS: dict[str, str] = {
    "GM_ADDR": "__gm__ uint8_t*",
    # `if ASCEND_IS_AIV { ... }` is legal because the macro brings its own `constexpr (...)`.
    "ASCEND_IS_AIV": "constexpr (g_coreType == AscendC::AIV)",
    "ASCEND_IS_AIC": "constexpr (g_coreType == AscendC::AIC)",
    "ASCEND_IS_NOT_AIV": "constexpr (g_coreType != AscendC::AIV)",
    "ASCEND_IS_NOT_AIC": "constexpr (g_coreType != AscendC::AIC)",
    "ASC_IS_AIV": "constexpr (g_coreType == AscendC::AIV)",
    "ASC_IS_AIC": "constexpr (g_coreType == AscendC::AIC)",
    # kernel_macros.h's ASSERT is assert() in the CPU-debug build and nothing in the NPU build, the one
    # checked: what it asserts is not compiled there (vendor kernels assert on names they never declare).
    "ASSERT(x)": "",
    # kernel_log.h's ASSERT_MSG: in the NPU build it prints the message and traps when expr is false.
    "ASSERT_MSG(expr, fmt, ...)": "do { if (!(expr)) { trap(); } } while (0)",
    # kernel_utils_ceil_oom_que.h's PRELOAD: an instruction-cache preload of the next len blocks (inline asm
    # and the compiler's preload intrinsic), nothing the checks follow.
    "PRELOAD(len)": "",
    # The CPU-debug assertion; its second argument is a statement block, so it must expand to parse.
    "ASCENDC_ASSERT(cond, behavior)": "do { if (!(cond)) { behavior; } } while (0)",
    # `REGISTER_NONE_TILING;` tells the build that a kernel has no tiling struct (a marker declaration the
    # build reads; nothing the kernel runs)
    "REGISTER_NONE_TILING": "",
    # `__VEC_SCOPE__ { ... }` opens a vector-function scope; to the parser the braces are a compound
    # statement (the vendor's CPU-debug headers define it empty too).
    "__VEC_SCOPE__": "",
    # Address-space and placement words the vendor headers define in terms of the compiler's own.
    "__local_mem__": "__ubuf__",
    "__tiling_data_ptr__": "__gm__ const",
    "__BLOCK_LOCAL__": "[[block_local]]",
    "__WORKGROUP_LOCAL__": "[[workgroup_local]]",
    # The compiler's mark on the kernel parameter that receives the system workspace a Matmul object's
    # messages use (`__kfc_workspace__ __gm__ uint8_t* workspace`); the parameter is an ordinary GM pointer.
    "__kfc_workspace__": "",
    # Pipe annotations on intrinsic wrappers: `__aicore__ inline __inout_pipe__(MTE2) void f(...)`.
    "__in_pipe__(...)": "",
    "__out_pipe__(...)": "",
    "__inout_pipe__(...)": "",
    # Ops::Base's DAG placeholders: `using ConstOne = MAKE_CONST(float, 1);` names a struct holding the value
    # (the vendor's gives the struct a unique name; unnamed, the alias names it).
    "MAKE_CONST(t, v)": "struct { constexpr static bool IsConstValue_ = true; static constexpr t value = v; }",
    # The Matmul API's policy parameter: `template <class A_TYPE, ..., MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>`.
    "MATMUL_POLICY_DEFAULT_OF(DEFAULT)":
        "template <const auto& = MM_CFG, typename ...> class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT",
    "MATMUL_POLICY_TEMPLATE_OF(NAME)": "template <const auto& = MM_CFG, typename ...> class NAME",
    # kernel_utils_macros.h expands these to nothing in the device build, so kernels may leave out the `;`
    # (ops-math stateless_random_uniform_v2); kept as the calls the lowering reads the kernel type from, with
    # their own `;` (a second one is an empty statement)
    "KERNEL_TASK_TYPE_DEFAULT(value)": "KERNEL_TASK_TYPE_DEFAULT(value);",
    "KERNEL_TASK_TYPE(key, value)": "KERNEL_TASK_TYPE(key, value);",
    # opdev/op_dfx.h's L0_DFX expands to statements that end in their own `;` (a static_assert, InitL0Context(...);,
    # L0_OP_PROF(...);), so the l0op files of aclnn op projects write it without one (NPUKernelBench's
    # MseLossGradV2); kept as the call, with the `;`
    "L0_DFX(profilingName, ...)": "L0_DFX(profilingName, __VA_ARGS__);",
    # the cann-ops host checking macros of log/ops_log.h (included through error/ops_error.h): on the condition, or on
    # a null pointer, the log call and then the given statement (`return ge::GRAPH_FAILED`). Host files that
    # define them themselves replace these silently.
    "OPS_CHECK(COND, LOG_FUNC, EXPR)": "if (COND) { LOG_FUNC; EXPR; }",
    "OPS_LOG_E_IF_NULL(OPS_DESC, PTR, EXPR)": "if ((PTR) == nullptr) { EXPR; }",
    # <cstddef>'s offsetof, as the compiler's builtin
    "offsetof(type, member)": "__builtin_offsetof(type, member)",
    # ATen's dispatch macros (Dispatch.h) in op bindings: a switch over the tensor's scalar type whose cases run the
    # lambda with `scalar_t` bound; the FLOATING_TYPES forms are read as their float case.
    "AT_DISPATCH_SWITCH(TYPE, NAME, ...)": "[&] { switch (TYPE) { __VA_ARGS__ default: break; } }()",
    "AT_DISPATCH_CASE(enum_type, ...)": "case enum_type: { __VA_ARGS__(); break; }",
    "AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)": "[&] { using scalar_t = float; return __VA_ARGS__(); }()",
    "AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)": "[&] { using scalar_t = float; return __VA_ARGS__(); }()",
    "AT_DISPATCH_FLOATING_TYPES_AND(SCALARTYPE, TYPE, NAME, ...)":
        "[&] { using scalar_t = float; return __VA_ARGS__(); }()",
    # matmul_module.h: a MatmulImpl (re)definition inherits its modules from the policy, or from the private
    # modules, instantiated for itself: `class MatmulImpl : MATMUL_IMPORT_MODULE(CubeInBufferA), ...`.
    "MATMUL_IMPORT_MODULE(...)": "protected MATMUL_POLICY<MM_CFG, " + _MATMUL_IMPL_TYPE
                                 + ", A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>::__VA_ARGS__",
    "MATMUL_IMPORT_MODULE_PRIVATE(...)": "protected AscendC::Impl::Detail::MatmulPrivateModules<MM_CFG, "
                                         + _MATMUL_IMPL_TYPE + ", A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MATMUL_POLICY>"
                                         "::__VA_ARGS__",
}

# Object-like macros kernel_operator.h brings in through kernel_type.h: the ge data type and format codes
# that the build's ORIG_DTYPE_<NAME> / FORMAT_<NAME> defines are compared with in `#if`. Defined when a
# source includes one of KERNEL_TYPE_HEADERS (host code uses the ge::DT_* / ge::FORMAT_* enumerators instead),
# except in `.asc` sources: for ascc's host and device passes kernel_type.h makes them AscendC enumerators.
KERNEL_TYPE_HEADERS: frozenset[str] = frozenset({"kernel_operator.h", "kernel_type.h"})
DT_CODES: dict[str, int] = {
    "DT_FLOAT": 0, "DT_FLOAT16": 1, "DT_INT8": 2, "DT_INT32": 3, "DT_UINT8": 4, "DT_INT16": 6, "DT_UINT16": 7,
    "DT_UINT32": 8, "DT_INT64": 9, "DT_UINT64": 10, "DT_DOUBLE": 11, "DT_BOOL": 12, "DT_BF16": 27, "DT_INT4": 29,
    "DT_HIFLOAT8": 34, "DT_FLOAT8_E5M2": 35, "DT_FLOAT8_E4M3FN": 36,
}  # fmt: skip
FORMAT_CODES: dict[str, int] = {
    "FORMAT_NCHW": 0, "FORMAT_NHWC": 1, "FORMAT_ND": 2, "FORMAT_NC1HWC0": 3, "FORMAT_FRACTAL_Z": 4,
    "FORMAT_HWCN": 16, "FORMAT_NDHWC": 27, "FORMAT_FRACTAL_NZ": 29, "FORMAT_NCDHW": 30, "FORMAT_DHWCN": 31,
    "FORMAT_NDC1HWC0": 32, "FORMAT_FRACTAL_Z_3D": 33, "FORMAT_NC": 35,
}  # fmt: skip
KERNEL_TYPE_MACROS: dict[str, str] = {name: str(code) for name, code in {**DT_CODES, **FORMAT_CODES}.items()}

# The tiling-template macros of template_argument.h: the device build (ASCENDC_TPL_KERNEL) defines each of them
# to nothing, so a kernel's `ASCENDC_TPL_SEL(...)` lists are never compiled there (ops-nn's conv tiling keys
# even juxtapose two ASCENDC_TPL_UINT_SEL without a comma). Defined so when a device source includes the header;
# host sources build ParamStruct lists from them instead, read as calls. The declaration, ASCENDC_TPL_ARGS_DECL
# with its parameter macros, is kept on the device side too (read as a macro declaration, nothing is lowered
# from it): a kernel file run alone with `--tiling-key K` has no host source to bring it, and its template entry
# is instantiated from the key by it (ascendir/lower/tpl_tiling_key.py).
TEMPLATE_ARGUMENT_HEADER = "template_argument.h"
TEMPLATE_ARGUMENT_KERNEL_MACROS: tuple[str, ...] = tuple(
    f"ASCENDC_TPL_{name}(...)" for name in (
        "DTYPE_SEL", "DATATYPE_SEL", "FORMAT_SEL", "UINT_SEL", "BOOL_SEL", "TILING_STRUCT_SEL", "KERNEL_TYPE_SEL",
        "DETERMINISTIC_SEL", "SHARED_KERNEL_TYPE_SEL", "ARGS_SEL", "SEL"))

# Defines in force for a device compile unless the user changes them (`--define`, `--undefine`).
DEFAULT_DEFINES: dict[str, str] = {
    "__NPU_ARCH__": "2201",
    "__CCE_AICORE__": "220",
    "__CCE__": "1",
    "__cplusplus": "201703L",
}

# Non-template types: C/C++ fixed-width integers, AscendC element types, parameter structs,
# host-side framework types. Builtin keywords (int, float, ...) are grammar keywords instead.
KNOWN_TYPES: frozenset[str] = frozenset(
    {
        # element and integer types
        "half", "bfloat16_t", "float16_t", "float32_t", "int4b_t", "hifloat8_t", "fp8_e4m3fn_t", "fp8_e5m2_t",
        "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
        "size_t", "ssize_t", "intptr_t", "uintptr_t", "ptrdiff_t", "aclFloat16", "aclrtStream",
        "aclrtContext", "aclError", "aclDataType", "aclTensor", "aclOpExecutor", "aclrtRunMode",
        # AscendC parameter structs and enums used as types
        "TPipe", "TPosition", "QuePosition", "HardEvent", "pipe_t", "event_t", "RoundMode", "CMPMODE",
        "SELMODE", "DataCopyParams", "DataCopyExtParams", "DataCopyEnhancedParams", "DataCopyCO12DstParams",
        "Nd2NzParams", "Nz2NdParamsFull", "SliceInfo", "BinaryRepeatParams", "UnaryRepeatParams",
        "GatherRepeatParams", "BrcbRepeatParams", "LoadData2DParams", "LoadData2DParamsV2", "LoadData3DParamsV1",
        "LoadData3DParamsV2", "LoadData3DParamsV2Pro", "MmadParams", "FixpipeParamsV220", "FixpipeParams",
        "QuantMode_t", "SoftMaxTiling", "SoftMaxShapeInfo", "LayerNormTiling", "RmsNormTiling", "TCubeTiling",
        "GeluTiling", "SwiGLUTiling", "TopkTiling", "TopKInfo", "SortParams", "ShapeInfo", "LocalMemAllocator",
        "MaskMode", "BlockMode", "CubeFormat", "LayoutMode", "ReduceMode", "AippParams", "Hardware",
        "TEventID", "TensorTrait", "MrgSort4Info", "TransposeParamsExt", "TransDataTo5HDParams",
        "ReduceOrder", "IterateOrder", "ScheduleType", "MatmulConfig", "MatmulApiStaticTiling",
        "CopyRepeatParams", "DeqScale", "AtomicDtype", "MatmulShapeParams", "KernelMode", "HardwareType",
        "SoftmaxConfig", "LayerNormConfig", "GetSoftMaxFlashV2Tiling", "Int4Type",
        # host side
        "TilingContext", "InferShapeContext", "InferDataTypeContext", "KernelContext", "StorageShape",
        "Shape", "RuntimeAttrs", "CompileTimeTensorDesc", "TilingData", "PlatformAscendC", "CoreMemType",
        "SocVersion", "graphStatus", "DataType", "Format", "OpDef", "OpAICoreConfig", "OpParamDef",
        "OpAttrDef", "TilingDataStruct", "MultiCoreMatmulTiling", "MatmulApiTiling", "TPosition_t",
        "Tensor", "IntArrayRef", "TensorList", "OpMCTilingData", "ContinuousVector", "TypedContinuousVector",
        "StorageFormat", "Tiling4Matmul", "uint4_t", "string", "vector",
    }
)

# Class templates: `Name<...>` is a type.
KNOWN_TYPE_TEMPLATES: frozenset[str] = frozenset(
    {
        "GlobalTensor", "LocalTensor", "TQue", "TQueBind", "TBuf", "TBufPool", "TQueSync", "Matmul",
        "MatmulType", "MatmulImpl", "DataCopyPadExtParams", "DataCopyPadParams", "is_same", "enable_if",
        "conditional", "remove_cv", "integral_constant", "numeric_limits", "vector", "array", "unique_ptr",
        "shared_ptr", "pair", "tuple", "TSCM", "SelectParams", "RegTensor", "MaskReg", "TensorDesc",
        "KfcServer", "TilingDataBase", "TypedContinuousVector", "basic_string", "initializer_list",
        "is_floating_point", "is_integral", "decay", "remove_reference", "ListTensorDesc", "LocalMemAllocatorT",
        "function", "map", "unordered_map", "set", "span", "optional",
        # the standard library's alias templates for types
        "enable_if_t", "conditional_t", "remove_cv_t", "remove_reference_t", "remove_pointer_t", "decay_t",
        "make_signed_t", "make_unsigned_t", "underlying_type_t", "common_type_t", "remove_cvref_t",
        # the reference traits, whose arguments are often `T&&` (AscendC::Std has them too)
        "is_reference", "is_lvalue_reference", "is_rvalue_reference", "add_lvalue_reference",
        "add_rvalue_reference", "add_lvalue_reference_t", "add_rvalue_reference_t", "is_const", "is_volatile",
        "remove_const", "remove_volatile", "add_const", "add_volatile", "add_cv", "add_pointer", "remove_pointer",
        "remove_extent", "remove_all_extents", "is_array", "is_pointer", "is_function",
    }
)
