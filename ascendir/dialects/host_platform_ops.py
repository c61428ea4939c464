"""The platform in the host dialect: `PlatformAscendC` and its core counts, memory sizes, SoC version, the
library's workspace size and the chip facts the ops repositories' host utilities ask for.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, i64
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from ascendir.dialects.host_types import (
    CoreKind,
    CoreKindAttr,
    MemSpace,
    MemSpaceAttr,
    PlatformType,
    TilingContextType,
)


@irdl_op_definition
class PlatformOp(IRDLOperation):
    """`platform_ascendc::PlatformAscendC(context->GetPlatformInfo())`."""

    name = "host.platform"

    context = operand_def(TilingContextType)
    result = result_def(PlatformType)

    traits = traits_def(Pure())
    assembly_format = "$context attr-dict"

    def __init__(self, context: SSAValue) -> None:
        super().__init__(operands=[context], result_types=[PlatformType()])


@irdl_op_definition
class CoreNumOp(IRDLOperation):
    """`platform.GetCoreNumAiv()` / `GetCoreNumAic()` / `GetCoreNumVector()`."""

    name = "host.core_num"

    platform = operand_def(PlatformType)
    kind = prop_def(CoreKindAttr)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform $kind attr-dict"

    def __init__(self, platform: SSAValue, kind: CoreKind) -> None:
        super().__init__(operands=[platform], properties={"kind": CoreKindAttr(kind)}, result_types=[i64])


@irdl_op_definition
class MemSizeOp(IRDLOperation):
    """`platform.GetCoreMemSize(CoreMemType::X, size)`: bytes of one memory."""

    name = "host.mem_size"

    platform = operand_def(PlatformType)
    space = prop_def(MemSpaceAttr)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform $space attr-dict"

    def __init__(self, platform: SSAValue, space: MemSpace) -> None:
        super().__init__(operands=[platform], properties={"space": MemSpaceAttr(space)}, result_types=[i64])


# platform_ascendc::SocVersion (asc-devkit include/utils/tiling/platform/platform_ascendc.h), every enumerator:
# a host compares GetSocVersion() with chips the simulator has no model of too (ops-nn situ_glu's IsCapable:
# ASCEND910_93, ASCEND910B, ASCEND950), and an enumerator missing here left that condition out. The values are
# C++'s: ASCEND910_95 = ASCEND950, and the enumerators after it count on from there (AS31XM1 is 5, as
# ASCEND910_55 is); the 910_93 reports ASCEND910B (host_eval_chips), so ASCEND910_93 only compares unequal.
SOC_VERSIONS: dict[str, int] = {
    "ASCEND910": 0, "ASCEND910B": 1, "ASCEND310P": 2, "ASCEND310B": 3, "ASCEND950": 4, "ASCEND910_55": 5,
    "ASCEND910_95": 4,
    **{name: 5 + i for i, name in enumerate((
        "AS31XM1", "ASCEND031", "ASCEND035", "ASCEND310", "ASCEND610", "ASCEND610Lite", "ASCEND910_93", "BS9SX1A",
        "BS9SX2A", "HI3796CV300CS", "HI3796CV300ES", "MC61AM21A", "MC62", "SD3403", "KIRINX90", "KIRIN9030",
        "MC32DM11A", "ASCEND350"))},
    "RESERVED_VERSION": 99999,
}  # fmt: skip


@irdl_op_definition
class SocVersionOp(IRDLOperation):
    """`platform.GetSocVersion()`: the chip's platform_ascendc::SocVersion, as its number."""

    name = "host.soc_version"

    platform = operand_def(PlatformType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform attr-dict"

    def __init__(self, platform: SSAValue) -> None:
        super().__init__(operands=[platform], result_types=[i64])


@irdl_op_definition
class LibWorkspaceSizeOp(IRDLOperation):
    """`platform.GetLibApiWorkSpaceSize()`: the system workspace the high-level APIs need."""

    name = "host.lib_workspace_size"

    platform = operand_def(PlatformType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform attr-dict"

    def __init__(self, platform: SSAValue) -> None:
        super().__init__(operands=[platform], result_types=[i64])


# The chip facts `host.chip_fact` reads: Ops::Base::GetUbBlockSize(context) (the UB block, 32 bytes: the UB
# alignment of the chip file), Ops::Base::GetVRegSize(context) (the vector register width in bytes: the chip
# file's vector_register_bytes) and PlatformAscendC::GetCurNpuArch() (the NpuArch enum, whose DAV_<n>
# enumerators are named by the chip's __NPU_ARCH__ number: the chip file's npu_arch) and
# Ops::Base::GetCacheLineSize(context) (the cache line of GM accesses the arch35 tilings align to, 256 bytes).
CHIP_FACTS = ("ub_block", "vreg", "npu_arch", "cache_line")


@irdl_op_definition
class ChipFactOp(IRDLOperation):
    """One of CHIP_FACTS of the chip the tiling runs for."""

    name = "host.chip_fact"

    platform = operand_def(PlatformType)
    fact = prop_def(StringAttr)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform $fact attr-dict"

    def __init__(self, platform: SSAValue, fact: str) -> None:
        if fact not in CHIP_FACTS:
            raise ValueError(f"unknown chip fact {fact!r}")
        super().__init__(operands=[platform], properties={"fact": StringAttr(fact)}, result_types=[i64])
