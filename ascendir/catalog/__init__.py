"""The AscendC API catalog: every API, overload, parameter struct, enum and element type of the
reference (docs/ascendc-reference.md sections 2-5) as data, read by overload resolution, verifier
rules, rule pages and training-data generation.

The data lives in `data/*.toml` (schema and signature language: README.md); `load_catalog()` reads
it once per process.
"""

from ascendir.catalog.loader import (
    ARCHS,
    Catalog,
    CatalogError,
    arch_catalogued,
    build_catalog,
    compiler_intrinsics,
    load_catalog,
    matmul_library_functions,
    vendor_functions,
    vendor_types,
)
from ascendir.catalog.model import (
    FAMILIES,
    PARAM_KINDS,
    VEC_POSITIONS,
    Api,
    CastRoute,
    CastTable,
    ClassDef,
    ElementType,
    EnumDef,
    EnumValue,
    MaskRule,
    Overload,
    Param,
    QueueBinding,
    QueueEvent,
    Route,
    StructDef,
    StructField,
    TypeParam,
)
from ascendir.catalog.signature import SignatureError

__all__ = [
    "ARCHS",
    "FAMILIES",
    "PARAM_KINDS",
    "VEC_POSITIONS",
    "Api",
    "CastRoute",
    "CastTable",
    "Catalog",
    "CatalogError",
    "arch_catalogued",
    "compiler_intrinsics",
    "matmul_library_functions",
    "vendor_functions",
    "vendor_types",
    "ClassDef",
    "ElementType",
    "EnumDef",
    "EnumValue",
    "MaskRule",
    "Overload",
    "Param",
    "QueueBinding",
    "QueueEvent",
    "Route",
    "SignatureError",
    "StructDef",
    "StructField",
    "TypeParam",
    "build_catalog",
    "load_catalog",
]
