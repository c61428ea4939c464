"""What the C and AscendC headers declare that the function lowering knows by name without reading the
headers: their constants, the default element type, the SIMT builtins, the register API's names, type
traits, the library object types whose methods are catalogued APIs, and the namespaces that carry no
meaning for lookup here.

A module of its own because it is data, read by names, types, calls and the verifier alike.
"""

from __future__ import annotations

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from frontend import ast as A, vendor


# The SIMT programming model's builtins (Ascend 950: `__simt_vf__` functions launched by asc_vf_call, and
# `__global__ __launch_bounds__(n)` kernels): the thread and block indices and extents, and the warp size.
SIMT_BUILTINS = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"})
SIMT_INDEX = "simt_index"
DEFAULT_DTYPE = "float"
# Constants of the C and AscendC headers code uses unqualified or with `AscendC::`; None = the value
# depends on the CANN version, so it stays unknown (but declared).
HEADER_CONSTANTS: dict[str, tuple[Scalar, int | float | None]] = {
    "FLT_MAX": (C.F32, 3.4028234663852886e38), "FLT_MIN": (C.F32, 1.1754943508222875e-38),
    "FLT_EPSILON": (C.F32, 1.1920928955078125e-07), "INT32_MAX": (C.I32, 2**31 - 1), "INT32_MIN": (C.I32, -(2**31)),
    "INT_MAX": (C.I32, 2**31 - 1), "INT_MIN": (C.I32, -(2**31)), "UINT32_MAX": (C.U32, 2**32 - 1),
    "INT64_MAX": (C.I64, 2**63 - 1), "UINT64_MAX": (C.U64, 2**64 - 1), "INT16_MAX": (Scalar("int16_t"), 2**15 - 1),
    "UINT8_MAX": (Scalar("uint8_t"), 255), "INFINITY": (C.F32, float("inf")), "NAN": (C.F32, float("nan")),
    "UINT16_MAX": (Scalar("uint16_t"), 2**16 - 1), "INT8_MAX": (Scalar("int8_t"), 2**7 - 1),
    "INT8_MIN": (Scalar("int8_t"), -(2**7)), "INT16_MIN": (Scalar("int16_t"), -(2**15)),
    "INT64_MIN": (C.I64, -(2**63)),
    "ONE_BLK_SIZE": (C.I32, 32), "ONE_REPEAT_BYTE_SIZE": (C.I32, 256), "DEFAULT_REPEAT_STRIDE": (C.I32, 8),
    "DEFAULT_BLK_STRIDE": (C.I32, 1), "BLOCK_CUBE": (C.I32, 16), "MAX_REPEAT_TIMES": (C.I32, 255),
    "ONE_BLOCK_SIZE": (C.I32, 32), "TOTAL_VEC_LOCAL_SIZE": (C.U32, None), "TOTAL_UB_SIZE": (C.U32, None),
    "TOTAL_L1_SIZE": (C.U32, None), "TOTAL_L0A_SIZE": (C.U32, None), "TOTAL_L0B_SIZE": (C.U32, None),
    "TOTAL_L0C_SIZE": (C.U32, None), "MASK_PLACEHOLDER": (C.U64, 0),
    # more of the constants in the AscendC headers (impl/basic_api/utils/kernel_utils_constants.h) that vendor
    # kernels use unqualified; those whose value differs by chip are left out
    "HALF_FACTOR": (C.I32, 2), "DOUBLE_FACTOR": (C.I32, 2), "DEFAULT_BLK_NUM": (C.I32, 8),
    "HALF_DEFAULT_REPEAT_STRIDE": (Scalar("uint8_t"), 4), "ONE_FOURTH_DEFAULT_REPEAT_STRIDE": (Scalar("uint8_t"), 2),
    "FULL_MASK": (C.U64, 2**64 - 1), "MAX_HALF_MASK_LEN": (Scalar("uint16_t"), 64), "DEFAULT_C0_SIZE": (C.I32, 32),
    "DEFAULT_BLOCK_SIZE": (C.I32, 256), "ONE_BYTE_BIT_SIZE": (C.I32, 8), "TMP_UB_SIZE": (C.U32, 8 * 1024),
    "F32_INF": (C.U32, 0x7F800000), "F32_NEG_INF": (C.U32, 0xFF800000), "F32_NAN": (C.U32, 0x7FC00000),
    "CACHE_LINE_SIZE": (C.U32, 64), "VECTOR_REG_WIDTH": (C.U32, 256), "VECTOR_REG_WIDTH_2XVL": (C.U32, 512),
    "MAX_BLOCK_COUNT": (C.I32, 4095), "MIN_BLOCK_COUNT": (C.I32, 1), "MAX_BLOCK_LEN": (C.I32, 65535),
    "MAX_16BITS_STRIDE": (C.I32, 65535), "DEFAULT_DATA_COPY_NBURST": (Scalar("uint8_t"), 1),
    "DEFAULT_DATA_COPY_STRIDE": (Scalar("uint8_t"), 0), "B16_BYTE_SIZE": (Scalar("uint8_t"), 2),
    "B32_BYTE_SIZE": (Scalar("uint8_t"), 4), "B16_DATA_NUM_PER_BLOCK": (Scalar("uint8_t"), 16),
    "B32_DATA_NUM_PER_BLOCK": (Scalar("uint8_t"), 8), "B32_DATA_NUM_PER_REPEAT": (C.I32, 64),
    "ONE_BLK_FLOAT_NUM": (C.U32, 8), "FLOAT_REPEAT_SIZE": (C.U32, 64), "TWO_BLK_SIZE": (Scalar("uint16_t"), 64),
    "PAD_SIZE": (Scalar("uint8_t"), 4), "BRCB_BROADCAST_NUMBER": (C.U32, 8), "BYTE_PER_FRACTAL": (C.I32, 512),
    "NCHW_CONV_ADDR_LIST_SIZE": (C.I32, 16),
    # the cross-core flag ids the library's SyncAll uses (impl/basic_api/dav_c220/kernel_operator_sync_impl.h, the
    # same in dav_3510), which vendor kernels name in their own CrossCoreSetFlag / CrossCoreWaitFlag
    "SYNC_AIC_FLAG": (Scalar("uint16_t"), 11), "SYNC_AIV_FLAG": (Scalar("uint16_t"), 12),
    "SYNC_AIC_AIV_FLAG": (Scalar("uint16_t"), 13), "SYNC_AIV_ONLY_ALL": (Scalar("uint16_t"), 14),
    # the Hccl API's handle that names no task (include/adv_api/hccl/internal/hccl_msg.h)
    "INVALID_HANDLE_ID": (Scalar("int8_t"), -1),
    "K_MAX_DIM": (C.I32, 8),  # the most dimensions a SliceInfo array describes (kernel_utils_constants.h)
    # the DT_* data type codes of kernel_type.h (what ORIG_DTYPE_<NAME> is compared with)
    **{name: (C.I32, code) for name, code in vendor.DT_CODES.items()},
}  # fmt: skip
# Of those, the ones that are a memory's whole size on every architecture kernel_utils_constants.h lists (UB 192 KiB
# on 2201, 248 KiB on 3510, 256 KiB on 1001 / 2002; L0C 128 / 256 / 256 KiB): the chip's own size of that memory.
# Left unknown, ops-nn mat_mul_nd2nz.h's `tempUb[(TOTAL_UB_SIZE / NUM_TWO) / sizeof(T)]` put its second half of UB at
# an unknown offset, and the ND-to-NZ copy from the first half into it came out shuffled. TOTAL_L1_SIZE (512 KiB
# less the KFC reserve on 2201) and TOTAL_VEC_LOCAL_SIZE (184 KiB on 2201) are not the memory's size: still unknown.
CHIP_MEMORY_CONSTANTS = {"TOTAL_UB_SIZE": "UB", "TOTAL_L0C_SIZE": "L0C"}
TENSOR_OPERATORS = ("+", "-", "*", "/", "&", "|")
# `mask = a < b` on LocalTensors: Compare with this mode over all of a
COMPARE_MODES = {"<": "LT", ">": "GT", "==": "EQ", "<=": "LE", ">=": "GE", "!=": "NE"}
TYPE_TRAITS = {"is_same", "IsSameType", "is_same_v", "IsSame", "is_void"}  # IsSame: AscendC::Std's alias
# AscendC's matmul utilities: IsTypeOneOf<T, ...>::value and the variable templates below
ONE_OF_TRAITS = {"IsTypeOneOf", "IsTypeOneOfV"}  # T is one of the rest
TRAIT_VALUES = {"is_same_v", "IsSameTypeV", "IsTypeOneOfV", "is_void_v"}  # variable templates: no `::value`
# Namespaces whose qualification carries no meaning for name lookup here.
TRANSPARENT_NAMESPACES = {"AscendC", "std", "Std", "ops", "optiling", "ge", "platform_ascendc", "gert", "matmul", "AscendC::Std"}
# The register API of arch35 chips (Ascend 950: `__simd_vf__` functions on RegTensor/MaskReg): a separate
# instruction set the catalog does not describe. Its names are opaque; their first use is reported once.
REGISTER_API_NAMESPACES = frozenset({"Reg", "MicroAPI"})
# Its register types, named bare after `using namespace AscendC::MicroAPI;` (asc-devkit
# include/basic_api/reg_compute: the RegTensor class and the aliases of the compiler's vector_bool, ...)
REGISTER_API_TYPES = frozenset({"RegTensor", "MaskReg", "UnalignReg", "UnalignRegForLoad", "UnalignRegForStore",
                                "AddrReg"})
# Free functions of the same instruction set: launching a vector function, the vector register length.
# (and the CTRL register's accessors, whose bits the register API's Cast reads: register_api.CTRL_CALLS)
REGISTER_API_FUNCTIONS = frozenset({"asc_vf_call", "VF_CALL", "GetVecLen", "GetVRegSize", "GetCtrlSpr", "SetCtrlSpr",
                                    "ResetCtrlSpr"})


def in_register_api(qname: A.QualifiedName) -> bool:
    """Whether a qualifier of `qname` (not its last part) names a register API namespace (`Reg::`, `MicroAPI::`).
    Asked of every name and type the lowering reads: a plain loop, and an unqualified name answered at once."""
    parts = qname.parts
    if len(parts) < 2:
        return False
    for p in parts[:-1]:
        if p.name in REGISTER_API_NAMESPACES:
            return True
    return False


# The callee of the opaque call standing for a statement not lowered that sets or waits for flags.
FLAGS_NOT_LOWERED = "<not lowered: SetFlag/WaitFlag>"
FLAG_CALLS = frozenset({"SetFlag", "WaitFlag", "set_flag", "wait_flag"})
# Library object types: their methods are catalogued APIs, not code we inline.
OBJECT_TYPES = {"Matmul", "TQueSync", "TCubeTiling", "TEventID", "MatmulImpl", "LocalMemAllocator", "TSCM"}
# The Matmul object's spellings: asc-devkit's matmul_intf.h makes `Matmul` an alias of `MatmulImpl`, which vendor
# kernels name directly (ops-nn mat_mul_v3's `MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB> mm_;`).
MATMUL_OBJECTS = frozenset({"Matmul", "MatmulImpl"})
