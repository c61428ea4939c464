"""Chip configurations: every file loads, the reference's numbers come back, lookups and limits behave."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendir.chips import (
    DEFAULT_CHIP,
    Chip,
    UnknownChipError,
    chip_for_source,
    known_chips,
    load_chip,
    tposition_memory,
)

EXPECTED_CHIPS = {"910B1", "910B2", "910B3", "910B4", "910_93", "310P", "910", "950PR"}


def test_known_chips_are_the_configured_ones() -> None:
    assert set(known_chips()) == EXPECTED_CHIPS
    assert known_chips() == sorted(known_chips())
    assert DEFAULT_CHIP in known_chips()


@pytest.mark.parametrize("name", sorted(EXPECTED_CHIPS))
def test_every_chip_is_consistent(name: str) -> None:
    chip = load_chip(name)
    assert isinstance(chip, Chip)
    assert chip.npu_arch in {2201, 2002, 1001, 3510}
    assert chip.mode == ("split" if chip.npu_arch in (2201, 3510) else "coupled")
    assert chip.device_defines == {"__NPU_ARCH__": str(chip.npu_arch), "__CCE_AICORE__": str(chip.cce_aicore)}
    assert chip.soc_version.startswith("Ascend")
    for space in ("UB", "L1", "L0A", "L0B", "L0C"):
        size = chip.memory_size(space)
        assert size > 0 and size % chip.alignment(space) == 0
    assert chip.max_buffers_total == 64
    assert chip.vector_register_bytes == 256
    # §6 timing parameters are present for the simulator on every chip.
    assert chip.bandwidth["gm_ub"] == 128.0
    assert chip.throughput["vector_binary"] == 128.0
    assert chip.bandwidth_measured["gm_ub"][0] == (1.0, 7.3)


def test_910b2_numbers_from_the_reference() -> None:
    chip = load_chip("910B2")
    assert chip.npu_arch == 2201
    assert chip.soc_version == "Ascend910B2"
    assert chip.memory_size("UB") == 196608
    assert chip.memory_size("L1") == 512 * 1024
    assert (chip.memory_size("L0A"), chip.memory_size("L0B"), chip.memory_size("L0C")) == (
        65536,
        65536,
        131072,
    )
    assert (chip.aic_cores, chip.aiv_cores, chip.clock_mhz) == (24, 48, 1800)
    assert chip.max_buffers_per_position == 8
    assert chip.event_ids == 8
    assert chip.hbm_bytes == 64 * 2**30
    assert chip.ub_banks["banks"] == 48


def test_chip_specific_numbers() -> None:
    assert load_chip("910B4").clock_mhz == 1500
    assert load_chip("910B3").clock_mhz is None
    assert (load_chip("910B1").aic_cores, load_chip("910B1").aiv_cores) == (25, 50)
    assert load_chip("910_93").clock_mhz == 1850
    p310 = load_chip("310P")
    assert (p310.npu_arch, p310.memory_size("UB"), p310.memory_size("L0C")) == (2002, 262144, 262144)
    old = load_chip("910")
    assert (old.npu_arch, old.max_buffers_per_position, old.event_ids, old.aic_cores) == (1001, 4, 4, 32)
    assert old.memory_size("L1") == 1024 * 1024


def test_950_numbers() -> None:
    chip = load_chip("950")
    assert (chip.name, chip.npu_arch, chip.cce_aicore, chip.is_split) == ("950PR", 3510, 310, True)
    assert (chip.aic_cores, chip.aiv_cores, chip.max_block_dim("mix")) == (32, 64, 32)
    assert (chip.memory_size("UB"), chip.memory_size("L0C")) == (248 * 1024, 256 * 1024)
    assert tposition_memory("CO2", 3510) == "GM" and tposition_memory("C1", 3510) == "L1"


def test_the_chip_a_source_was_written_for() -> None:
    # ops-nn keeps its Ascend 950 kernels in arch35 folders; `*_apt.cpp` entries include headers from them
    assert chip_for_source("ops/add/op_kernel/arch35/add_impl.h", "") == "950PR"
    entry = '#include "kernel_operator.h"\n#include "arch35/add_impl.h"\n'
    assert chip_for_source("ops/add/op_kernel/add_apt.cpp", entry) == "950PR"
    assert chip_for_source("ops/add/op_kernel/add.cpp", '#include "add_impl.h"\n') == DEFAULT_CHIP
    assert chip_for_source("asc-devkit/tests/api/basic_api/ascendc_case_ascend950pr_9599/t.cpp", "") == "950PR"
    assert chip_for_source("asc-devkit/tests/api/basic_api/ascendc_case_ascend310p/t.cpp", "") == "310P"
    # through a header of its own folder that includes the arch35 ones (layer_norm_v4_apt.cpp -> _apt.h)
    files = {"ops/ln/op_kernel/ln_apt.h": '#include "arch35/ln_two_pass.h"\n'}
    assert chip_for_source("ops/ln/op_kernel/ln_apt.cpp", '#include "ln_apt.h"\n', read=files.get) == "950PR"
    assert chip_for_source("ops/ln/op_kernel/ln_apt.cpp", '#include "ln_apt.h"\n') == DEFAULT_CHIP
    # only a folder counts, not a file name that spells one
    assert chip_for_source("ops/arch35.cpp", "", "310P") == "310P"


def test_an_include_under_an_architecture_condition_does_not_decide_the_chip() -> None:
    # ops-nn rms_norm.cpp: the arch35 headers come in only where the build's __CCE_AICORE__ / __NPU_ARCH__
    # say 310 / 5102, so the 910B compile of the file is 910B code (its TILING_KEY_IS branches for the 910B
    # host's keys); reading it as 950 code took the arch35 branch, which has none of those keys
    entry = (
        '#include "rms_norm.h"\n'
        "#if ((defined(__CCE_AICORE__) && __CCE_AICORE__ != 310)) && \\\n"
        "    (defined(__NPU_ARCH__) && __NPU_ARCH__ != 5102)\n"
        '#include "rms_norm_split_d.h"\n'
        "#endif\n"
        "#if ((defined(__CCE_AICORE__) && __CCE_AICORE__ == 310) || \\\n"
        "    (defined(__NPU_ARCH__) && __NPU_ARCH__ == 5102))\n"
        '#include "arch35/rms_norm_regbase.h"\n'
        "#endif\n"
    )
    assert chip_for_source("ops/rms_norm/op_kernel/rms_norm.cpp", entry) == DEFAULT_CHIP
    # in the #else of an architecture condition too; a condition on anything else (an include guard) still counts
    other = '#if __NPU_ARCH__ == 2201\n#include "a.h"\n#else\n#include "arch35/b.h"\n#endif\n'
    assert chip_for_source("ops/x/op_kernel/x.cpp", other) == DEFAULT_CHIP
    guarded = '#ifndef X_APT_H\n#define X_APT_H\n#include "arch35/x_impl.h"\n#endif\n'
    assert chip_for_source("ops/x/op_kernel/x_apt.cpp", guarded) == "950PR"


def test_lookup_is_case_insensitive_and_accepts_soc_versions() -> None:
    chip = load_chip("910B2")
    assert load_chip("910b2") is chip
    assert load_chip("Ascend910B2") is chip
    assert load_chip("ascend910b2") is chip
    assert load_chip("Ascend310P3").name == "310P"
    assert load_chip("Ascend910").name == "910"
    assert load_chip().name == DEFAULT_CHIP


def test_unknown_chip_error_lists_the_known_chips() -> None:
    with pytest.raises(UnknownChipError) as info:
        load_chip("910C")
    message = str(info.value)
    assert "910C" in message
    for name in EXPECTED_CHIPS:
        assert name in message


def test_max_block_dim_per_kernel_type() -> None:
    chip = load_chip("910B2")
    assert chip.max_block_dim("aiv") == 48
    assert chip.max_block_dim("aic") == 24
    assert chip.max_block_dim("mix") == 24  # 1 AIC + 2 AIV groups
    assert chip.max_block_dim("KERNEL_TYPE_AIV_ONLY") == 48
    assert chip.max_block_dim("MIX_AIC_1_2") == 24
    coupled = load_chip("310P")
    assert coupled.max_block_dim("aiv") == coupled.max_block_dim("aic") == coupled.max_block_dim("mix") == 8
    assert coupled.max_block_dim("mix_vector_core") == 15
    with pytest.raises(ValueError, match="no standalone vector cores"):
        chip.max_block_dim("mix_vector_core")
    with pytest.raises(ValueError, match="unknown kernel type"):
        chip.max_block_dim("gpu")


def test_memory_size_and_alignment_of_optional_spaces() -> None:
    chip = load_chip("910B2")
    assert chip.alignment("L0A") == chip.alignment("l0b") == 512
    assert chip.alignment("L0C") == 64
    assert chip.alignment("BT") == chip.alignment("bias_table") == 64
    assert chip.alignment("UB") == chip.alignment("L1") == 32
    assert chip.alignment("GM") == 1
    assert chip.memory_size("BT") > 0
    assert chip.memory_size("GM") == chip.hbm_bytes
    with pytest.raises(ValueError, match="no known BT size"):
        load_chip("310P").memory_size("BT")
    with pytest.raises(ValueError, match="no known GM size"):
        load_chip("910B1").memory_size("GM")
    with pytest.raises(ValueError, match="unknown memory space"):
        chip.memory_size("L3")


@pytest.mark.parametrize(
    ("position", "arch", "memory"),
    [
        ("VECIN", 2201, "UB"),
        ("VECOUT", 2002, "UB"),
        ("VECCALC", 1001, "UB"),
        ("A1", 2201, "L1"),
        ("B1", 2002, "L1"),
        ("A2", 2201, "L0A"),
        ("B2", 1001, "L0B"),
        ("CO1", 2201, "L0C"),
        ("C1", 2201, "L1"),
        ("C1", 2002, "UB"),
        ("C2", 2201, "BT"),
        ("C2", 1001, "L0C"),
        ("CO2", 2201, "GM"),
        ("CO2", 2002, "UB"),
        ("TSCM", 2201, "L1"),
        ("GM", 2002, "GM"),
        ("TPosition::VECOUT", 2201, "UB"),
        ("QuePosition::A2", 2201, "L0A"),
    ],
)
def test_tposition_memory(position: str, arch: int, memory: str) -> None:
    assert tposition_memory(position, arch) == memory


def test_tposition_memory_rejects_undocumented_positions() -> None:
    with pytest.raises(ValueError, match="SPM"):
        tposition_memory("SPM", 2201)
    with pytest.raises(ValueError):
        tposition_memory("VECTOR", 2201)


def test_an_op_projects_definition_names_the_chip_of_its_kernels(tmp_path: Path) -> None:
    def project(name: str, *socs: str) -> str:
        (tmp_path / name / "op_host").mkdir(parents=True)
        (tmp_path / name / "op_kernel").mkdir()
        configs = "".join(f'        this->AICore().AddConfig("{soc}");\n' for soc in socs)
        (tmp_path / name / "op_host" / f"{name}_def.cpp").write_text(f"class Op {{\n    Op() {{\n{configs}    }}\n}};\n")
        return str(tmp_path / name / "op_kernel" / f"{name}.cpp")

    assert chip_for_source(project("only950", "ascend950"), "") == "950PR"
    assert chip_for_source(project("only310p", "ascend310p"), "") == "310P"
    # several architectures, a SoC the chip data does not describe, or the default's own: the default
    assert chip_for_source(project("both", "ascend910b", "ascend950"), "") == DEFAULT_CHIP
    assert chip_for_source(project("odd", "ascend950", "kirinx90"), "") == DEFAULT_CHIP
    assert chip_for_source(project("a2", "ascend910b", "ascend910_93"), "") == DEFAULT_CHIP
    assert chip_for_source(str(tmp_path / "loose.cpp"), "") == DEFAULT_CHIP
