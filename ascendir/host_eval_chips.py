"""The chip a host tiling function runs for, in the host evaluator: core counts and memory sizes by chip name
(from ascendir/chips when the simulator's chip object has them, else the fallback table here).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ChipNumbers:
    """The platform numbers the host API reports (core counts, memory sizes in bytes)."""

    name: str
    aiv_cores: int
    aic_cores: int
    vector_cores: int
    ub: int
    l1: int
    l0a: int
    l0b: int
    l0c: int
    l2: int | None
    hbm: int | None
    # GetLibApiWorkSpaceSize(); 16 MiB is what 910B samples reserve (weak: make it a chip parameter)
    lib_workspace: int = 16 * 1024 * 1024
    # what PlatformAscendC::GetSocVersion() reports (the 910B1-4 and the 910_93 all say ASCEND910B)
    soc: str = "ASCEND910B"
    # Ops::Base::GetUbBlockSize / GetVRegSize and GetCurNpuArch (host.chip_fact): the UB alignment, the vector
    # register width in bytes, __NPU_ARCH__; the fallbacks are the 2201 chips' values (ascendir/chips/data)
    ub_block: int = 32
    vreg: int = 256
    npu_arch: int = 2201
    # Ops::Base::GetCacheLineSize(context): 256 bytes on every chip (ops-nn avg_pool's arch35 platform_util.h, a
    # copy of op_common's helpers, returns 256U; repeat_interleave_grad's tiling test sets clSize 256). The chip
    # files' dcache_line_bytes (64) is the scalar data cache's line, not this one
    cache_line: int = 256
    # the chip's name in its platform file ("version" / "SoC_version" of GetPlatformRes): the chip file's soc_version
    soc_name: str = "Ascend910B2"


_KIB = 1024
_MIB = 1024 * _KIB
_GIB = 1024 * _MIB

# Used until (or where) `ascendir.chips` has no answer; numbers from docs/ascendc-reference.md §6.
FALLBACK_CHIPS: dict[str, ChipNumbers] = {
    "910B2": ChipNumbers("910B2", 48, 24, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         192 * _MIB, 64 * _GIB),
    "910B4": ChipNumbers("910B4", 40, 20, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         96 * _MIB, 32 * _GIB),
    "910B3": ChipNumbers("910B3", 40, 20, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         None, None),
    "910B1": ChipNumbers("910B1", 50, 25, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         None, None),
}  # fmt: skip
DEFAULT_CHIP = "910B2"
_OPTIONAL_SIZES = ("l2", "hbm")

# Attribute names tried, in order, on an `ascendir.chips.Chip` for each ChipNumbers field; a field the
# chip does not have (or has as None) keeps the fallback value.
_CHIP_ALIASES: dict[str, tuple[str, ...]] = {
    "aiv_cores": ("aiv_cores",),
    "aic_cores": ("aic_cores",),
    "vector_cores": ("vector_cores",),
    "ub": ("ub_size", "ub"),
    "l1": ("l1_size", "l1"),
    "l0a": ("l0a_size", "l0a"),
    "l0b": ("l0b_size", "l0b"),
    "l0c": ("l0c_size", "l0c"),
    "l2": ("l2_bytes", "l2"),
    "hbm": ("hbm_bytes", "hbm"),
    "lib_workspace": ("lib_workspace_bytes", "lib_workspace"),
}


def resolve_chip(chip: str | Mapping[str, int | str]) -> tuple[ChipNumbers, list[str]]:
    """The numbers for a chip name or override dict, plus diagnostics about what could not be used."""
    notes: list[str] = []
    if isinstance(chip, str):
        return _chip_by_name(chip, notes), notes
    base_name = chip.get("name", DEFAULT_CHIP)
    base = _chip_by_name(str(base_name), notes)
    overrides: dict[str, Any] = {}
    for key, value in chip.items():
        if key == "name":
            continue
        if key not in _CHIP_ALIASES or not isinstance(value, int) or isinstance(value, bool):
            notes.append(f"ignored chip override {key}={value!r}")
            continue
        overrides[key] = value
    return dataclasses.replace(base, **overrides), notes


def _chip_by_name(name: str, notes: list[str]) -> ChipNumbers:
    fallback = FALLBACK_CHIPS.get(name)
    loaded = _load_chip_object(name)
    if loaded is not None:
        return _from_chip_object(name, loaded, fallback or FALLBACK_CHIPS[DEFAULT_CHIP])
    if fallback is None:
        notes.append(f"unknown chip '{name}'; using {DEFAULT_CHIP} numbers")
        return FALLBACK_CHIPS[DEFAULT_CHIP]
    return fallback


def _load_chip_object(name: str) -> object | None:
    """The `ascendir.chips` configuration of `name`, or None where that package cannot give one."""
    try:
        from ascendir.chips import load_chip
    except ImportError:  # the chips package is optional here: the fallback table covers the 910B parts
        return None
    try:
        return load_chip(name)
    except Exception:  # noqa: BLE001 - however the chips package rejects a name, fall back to the table
        return None


# platform_ascendc::SocVersion by __NPU_ARCH__ (include/utils/tiling/platform/platform_ascendc.h)
_SOC_BY_ARCH = {
    2201: "ASCEND910B", 2002: "ASCEND310P", 1001: "ASCEND910", 3002: "ASCEND310B", 3510: "ASCEND950",
}  # fmt: skip


def _from_chip_object(name: str, obj: object, fallback: ChipNumbers) -> ChipNumbers:
    values: dict[str, Any] = {}
    arch = getattr(obj, "npu_arch", None)
    if isinstance(arch, int) and arch in _SOC_BY_ARCH:
        values["soc"] = _SOC_BY_ARCH[arch]
    if isinstance(arch, int) and not isinstance(arch, bool):
        values["npu_arch"] = arch
    soc_name = getattr(obj, "soc_version", None)
    if isinstance(soc_name, str):
        values["soc_name"] = soc_name
    vreg = getattr(obj, "vector_register_bytes", None)
    if isinstance(vreg, int) and not isinstance(vreg, bool):
        values["vreg"] = vreg
    ub_align = (getattr(obj, "alignments", None) or {}).get("UB")
    if isinstance(ub_align, int) and not isinstance(ub_align, bool):
        values["ub_block"] = ub_align
    for key, aliases in _CHIP_ALIASES.items():
        for alias in aliases:
            if not hasattr(obj, alias):
                continue
            value = getattr(obj, alias)
            if isinstance(value, int) and not isinstance(value, bool):
                values[key] = value
            elif value is None and key in _OPTIONAL_SIZES:
                values[key] = None  # the chip file does not know it: do not borrow another chip's number
            break
    return dataclasses.replace(fallback, name=name, **values)


# The intrinsics of a chip's platform section "AICoreintrinsicDtypeMap" (fe::PlatFormInfos::GetPlatformRes), by
# __NPU_ARCH__: those the ops repositories' own tiling tests give each chip (ops-nn transpose_batch_mat_mul's
# test_transpose_batch_mat_mul_tiling.cpp hardware_info: Ascend910B with Intrinsic_fix_pipe_l0c2out and
# Intrinsic_data_move_out2l1_nd2nz, Ascend950 with Intrinsic_data_move_l12bt too), with the dtype list those tests
# write for a present one (ops-math tests/ut/common/tiling_case_executor.cpp: "float16", and "bf16" for l12bt).
# Weak: the real platform files list more dtypes; an intrinsic not listed here reads as absent ("").
_INTRINSICS: dict[int, dict[str, str]] = {
    2201: {"Intrinsic_fix_pipe_l0c2out": "float16", "Intrinsic_data_move_out2l1_nd2nz": "float16"},
    3510: {"Intrinsic_fix_pipe_l0c2out": "float16", "Intrinsic_data_move_out2l1_nd2nz": "float16",
           "Intrinsic_data_move_l12bt": "bf16"},
}  # fmt: skip


def platform_res(chip: ChipNumbers, label: str, key: str) -> str:
    """The value GetPlatformRes(label, key, value) gives on `chip`, "" where it has none."""
    if label == "version" and key == "SoC_version":
        return chip.soc_name
    if label == "AICoreintrinsicDtypeMap":
        return _INTRINSICS.get(chip.npu_arch, {}).get(key, "")
    return ""
