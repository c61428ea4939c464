"""Numbers of the gert / ge / matmul_tiling headers that the host dialect's ops carry and the host lowering
and evaluator agree on: `ge::DataType` values and sizes, graphStatus, the matmul tiling API's enum values.

A module of its own because it is plain data (no xDSL), read by the lowering, the evaluator and the benchmark
harness alike.
"""

from __future__ import annotations


# Numeric values of `ge::DataType`, from the public CANN headers (graph/types.h). The lowering turns
# `ge::DT_FLOAT16` into `arith.constant 1 : i32`; `host.input_dtype` yields the same numbers.
GE_DATA_TYPES: dict[str, int] = {
    "DT_FLOAT": 0,
    "DT_FLOAT16": 1,
    "DT_INT8": 2,
    "DT_INT32": 3,
    "DT_UINT8": 4,
    "DT_INT16": 6,
    "DT_UINT16": 7,
    "DT_UINT32": 8,
    "DT_INT64": 9,
    "DT_UINT64": 10,
    "DT_DOUBLE": 11,
    "DT_BOOL": 12,
    "DT_STRING": 13,
    "DT_DUAL_SUB_INT8": 14,
    "DT_DUAL_SUB_UINT8": 15,
    "DT_COMPLEX64": 16,
    "DT_COMPLEX128": 17,
    "DT_QINT8": 18,
    "DT_QINT16": 19,
    "DT_QINT32": 20,
    "DT_QUINT8": 21,
    "DT_QUINT16": 22,
    "DT_RESOURCE": 23,
    "DT_STRING_REF": 24,
    "DT_DUAL": 25,
    "DT_VARIANT": 26,
    "DT_BF16": 27,
    "DT_UNDEFINED": 28,
    "DT_INT4": 29,
    "DT_UINT1": 30,
    "DT_INT2": 31,
    "DT_UINT2": 32,
    "DT_COMPLEX32": 33,
    "DT_HIFLOAT8": 34,
    # the 8- and 4-bit floats and the bound past every type, as asc-devkit's op compiler numbers ge's types
    # (tools/build/asc_op_compile_base/asc_op_compiler/template_tiling.py: ASCENDC_COMPILE_DATATYPE_MAP, DT_MAX
    # = ASCENDC_TPL_DATATYPE_MAX). ops-nn mse_loss_v2's host starts its dtype at ge::DT_MAX ("not set yet").
    "DT_FLOAT8_E5M2": 35,
    "DT_FLOAT8_E4M3FN": 36,
    "DT_FLOAT4_E2M1": 40,
    "DT_FLOAT4_E1M2": 41,
    "DT_MAX": 42,
}
# numpy-style dtype names (what callers of the evaluator write) to `ge::DataType` names.
NUMPY_TO_GE: dict[str, str] = {
    "float32": "DT_FLOAT",
    "float16": "DT_FLOAT16",
    "int8": "DT_INT8",
    "int32": "DT_INT32",
    "uint8": "DT_UINT8",
    "int16": "DT_INT16",
    "uint16": "DT_UINT16",
    "uint32": "DT_UINT32",
    "int64": "DT_INT64",
    "uint64": "DT_UINT64",
    "float64": "DT_DOUBLE",
    "bool": "DT_BOOL",
    "bfloat16": "DT_BF16",
    "int4": "DT_INT4",  # int4b_t, two to a byte (an output given as its packed bytes: passes.sim.launch.INT4)
    # a complex tensor is pairs of floats in memory (real, imaginary); the host sees its own dtype
    "complex64": "DT_COMPLEX64",
    "complex128": "DT_COMPLEX128",
}
# Bytes per element, as `ge::GetSizeByDataType` reports them.
GE_DATA_TYPE_SIZES: dict[int, int] = {
    GE_DATA_TYPES["DT_FLOAT"]: 4,
    GE_DATA_TYPES["DT_FLOAT16"]: 2,
    GE_DATA_TYPES["DT_INT8"]: 1,
    GE_DATA_TYPES["DT_INT32"]: 4,
    GE_DATA_TYPES["DT_UINT8"]: 1,
    GE_DATA_TYPES["DT_INT16"]: 2,
    GE_DATA_TYPES["DT_UINT16"]: 2,
    GE_DATA_TYPES["DT_UINT32"]: 4,
    GE_DATA_TYPES["DT_INT64"]: 8,
    GE_DATA_TYPES["DT_UINT64"]: 8,
    GE_DATA_TYPES["DT_DOUBLE"]: 8,
    GE_DATA_TYPES["DT_BOOL"]: 1,
    GE_DATA_TYPES["DT_BF16"]: 2,
    GE_DATA_TYPES["DT_COMPLEX64"]: 8,
    GE_DATA_TYPES["DT_COMPLEX128"]: 16,
    GE_DATA_TYPES["DT_COMPLEX32"]: 4,
    GE_DATA_TYPES["DT_QINT8"]: 1,
    GE_DATA_TYPES["DT_QINT16"]: 2,
    GE_DATA_TYPES["DT_QINT32"]: 4,
    GE_DATA_TYPES["DT_QUINT8"]: 1,
    GE_DATA_TYPES["DT_QUINT16"]: 2,
    GE_DATA_TYPES["DT_HIFLOAT8"]: 1,
}
# `ge::graphStatus` is a uint32_t; a TilingFunc returns one of these.
GRAPH_SUCCESS = 0
GRAPH_FAILED = 0xFFFFFFFF
# The Matmul high-level API's host tiling objects (`matmul_tiling::MultiCoreMatmulTiling`,
# `MatmulApiTiling`) take their own enums. Values from the devkit's `matmul_tiling_base.h`
# (cannmirror/asc-devkit include/adv_api/matmul). `matmul_tiling::DataType` agrees with `ge::DataType`
# wherever both name a type.
MATMUL_POSITIONS: dict[str, int] = {
    "GM": 0, "A1": 1, "A2": 2, "B1": 3, "B2": 4, "C1": 5, "C2": 6, "CO1": 7, "CO2": 8, "VECIN": 9,
    "VECOUT": 10, "VECCALC": 11, "LCM": 11, "SPM": 12, "SHM": 12, "TSCM": 13,
}  # fmt: skip
MATMUL_FORMATS: dict[str, int] = {
    "ND": 0, "NZ": 1, "ZN": 2, "ZZ": 3, "NN": 4, "ND_ALIGN": 5, "SCALAR": 6, "VECTOR": 7, "ROW_MAJOR": 0,
    "COLUMN_MAJOR": 8,
}  # fmt: skip
MATMUL_DATA_TYPES: dict[str, int] = {
    **GE_DATA_TYPES, "DT_INT4": 29, "DT_BFLOAT16": 33, "DT_HIFLOAT8": 34, "DT_FLOAT8_E4M3FN": 35,
    "DT_FLOAT8_E5M2": 36, "DT_FLOAT4_E2M1": 37, "DT_FLOAT8_E8M0": 38, "DT_FLOAT4_E1M2": 39,
}  # fmt: skip
# Bits per element of the types the tiling library sizes buffers for (its DTYPE_BIT_TAB); for any other
# type GetTiling throws instead of returning.
MATMUL_DTYPE_BITS: dict[int, int] = {
    0: 32, 1: 16, 2: 8, 6: 16, 7: 16, 4: 8, 3: 32, 9: 64, 8: 32, 10: 64, 27: 16, 33: 16, 29: 4, 37: 4, 39: 4,
    34: 8, 35: 8, 36: 8, 38: 8,
}  # fmt: skip
