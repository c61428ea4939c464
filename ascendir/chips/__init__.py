"""Chip configurations: core counts, memory sizes, alignments, limits and timing parameters per SoC.

One TOML file per chip lives in `data/`; numbers come from docs/ascendc-reference.md (sections 2
and 6) and the weak ones carry a comment there. Everything chip-dependent that the verifier or the
simulator needs is read from here, never written as a constant elsewhere.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "DEFAULT_CHIP",
    "MEMORY_SPACES",
    "Chip",
    "ChipDataError",
    "UnknownChipError",
    "chip_for_source",
    "op_def_archs",
    "known_chips",
    "load_chip",
    "tposition_memory",
]

DEFAULT_CHIP = "910B2"

DATA_DIR = Path(__file__).parent / "data"

# Canonical memory-space names, and the TOML keys of their sizes / alignments.
MEMORY_SPACES: Mapping[str, str] = MappingProxyType(
    {
        "UB": "ub",
        "L1": "l1",
        "L0A": "l0a",
        "L0B": "l0b",
        "L0C": "l0c",
        "BT": "bias_table",
        "FB": "fixpipe_buffer",
    }
)
_SPACE_ALIASES: Mapping[str, str] = MappingProxyType(
    {"BIAS": "BT", "BIAS_TABLE": "BT", "BIASTABLE": "BT", "FIXPIPE_BUFFER": "FB", "FBUF": "FB"}
)

# blockDim counts per kernel type; the KERNEL_TYPE_* spellings map onto the three basic ones.
_KERNEL_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "aiv": "aiv",
        "aic": "aic",
        "mix": "mix",
        "mix_vector_core": "mix_vector_core",
        "kernel_type_aiv_only": "aiv",
        "kernel_type_aic_only": "aic",
        "kernel_type_mix_aic_1_1": "mix",
        "kernel_type_mix_aic_1_2": "mix",
        "kernel_type_mix_aiv_1_0": "aiv",
        "kernel_type_mix_aic_1_0": "aic",
        "kernel_type_mix_vector_core": "mix_vector_core",
    }
)


class UnknownChipError(KeyError):
    """A chip name that no configuration file describes."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)

    def __str__(self) -> str:
        return f"unknown chip '{self.name}'; known chips: {', '.join(known_chips())}"


class ChipDataError(ValueError):
    """A chip configuration file that is malformed."""


@dataclass(frozen=True)
class Chip:
    """One SoC's parameters. Sizes are bytes; timing tables are free-form parameters for the simulator."""

    name: str
    npu_arch: int
    cce_aicore: int  # the __CCE_AICORE__ a device compile for this chip defines (220 on 2201)
    # the macro the vector-core pass of a kernel compile defines (`__DAV_C220_VEC__` on 2201), None where
    # kernels are not compiled per core kind or the macro is not known
    vector_pass_macro: str | None
    soc_version: str
    mode: str  # "split" (separate AIC/AIV cores) or "coupled" (one scalar drives cube and vector)
    aic_cores: int  # split: cube cores; coupled: AI Cores
    aiv_cores: int  # split: vector cores; coupled: the vector unit of each AI Core (= aic_cores)
    vector_cores: int  # standalone Vector Cores beside the AI Cores (310P), 0 elsewhere
    clock_mhz: int | None
    hbm_bytes: int | None
    l2_bytes: int | None
    ub_size: int
    l1_size: int
    l0a_size: int
    l0b_size: int
    l0c_size: int
    bias_table_size: int | None
    fixpipe_buffer_size: int | None
    alignments: Mapping[str, int]  # canonical space name -> start-address alignment in bytes
    max_buffers_per_position: int
    max_buffers_total: int
    # 3510: a vector-core TQue buffer takes a buffer id at InitBuffer from one pool shared by all positions,
    # and holds no per-position event id; None where queue buffers hold event ids of their position
    vector_buffer_ids: int | None
    event_ids: int  # hardware event ids per HardEvent: ids 0 .. event_ids-1
    vector_register_bytes: int
    dcache_line_bytes: int
    aliases: tuple[str, ...]
    ub_banks: Mapping[str, int]
    throughput: Mapping[str, float]
    latency: Mapping[str, float]
    bandwidth: Mapping[str, float]
    bandwidth_measured: Mapping[str, tuple[tuple[float, float], ...]]  # route -> (KiB, GiB/s) points
    timing: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))  # [timing] table

    def __hash__(self) -> int:
        return hash(self.name)

    def timing_tables(self) -> tuple[dict[str, float], dict[str, list[tuple[float, float]]]]:
        """What the simulator's timing model reads (rust_sim/src/timing/params.rs): `table.key` numbers from the
        throughput, latency, bandwidth and timing tables plus the clock, and the measured curves by route."""
        values: dict[str, float] = {}
        for table, entries in (("throughput", self.throughput), ("latency", self.latency),
                               ("bandwidth", self.bandwidth), ("timing", self.timing)):
            values.update({f"{table}.{key}": float(value) for key, value in entries.items()})
        clock = self.clock_mhz or self.timing.get("clock_mhz")
        if clock:
            values["clock_mhz"] = float(clock)
        values["dcache_line_bytes"] = float(self.dcache_line_bytes)
        if self.l2_bytes:
            values["l2_bytes"] = float(self.l2_bytes)
        curves = {route: [(float(kib), float(gib)) for kib, gib in points]
                  for route, points in self.bandwidth_measured.items()}
        return values, curves

    @property
    def is_split(self) -> bool:
        return self.mode == "split"

    @property
    def device_defines(self) -> dict[str, str]:
        """The architecture macros a device compile for this chip defines, as `--define` would give them."""
        return {"__NPU_ARCH__": str(self.npu_arch), "__CCE_AICORE__": str(self.cce_aicore)}

    @property
    def kernel_defines(self) -> dict[str, str]:
        """What the compile of a kernel source defines: the architecture macros and, on split chips, the
        vector-core pass's macro. A mixed kernel is compiled once per core kind; its vector pass is the
        one checked (`-U __DAV_C220_VEC__ -D __DAV_C220_CUBE__` checks the cube pass)."""
        out = self.device_defines
        if self.vector_pass_macro:
            out[self.vector_pass_macro] = "1"
        return out

    def memory_size(self, space: str) -> int:
        """Size in bytes of one core's UB, L1, L0A, L0B, L0C, BT (bias table), FB or GM (HBM)."""
        canonical = _canonical_space(space)
        sizes: dict[str, int | None] = {
            "UB": self.ub_size,
            "L1": self.l1_size,
            "L0A": self.l0a_size,
            "L0B": self.l0b_size,
            "L0C": self.l0c_size,
            "BT": self.bias_table_size,
            "FB": self.fixpipe_buffer_size,
            "GM": self.hbm_bytes,
        }
        size = sizes[canonical]
        if size is None:
            raise ValueError(f"chip {self.name} has no known {canonical} size")
        return size

    def alignment(self, space: str) -> int:
        """Required start-address alignment in bytes for buffers in `space` (GM: 1, none required)."""
        canonical = _canonical_space(space)
        if canonical == "GM":
            return 1
        if canonical not in self.alignments:
            raise ValueError(f"chip {self.name} has no {canonical} alignment (no such memory on this chip?)")
        return self.alignments[canonical]

    def max_block_dim(self, kernel_type: str) -> int:
        """Most blockDim instances that run at once for a kernel type: "aiv", "aic", "mix" (1 AIC + 2 AIV
        groups on split chips), "mix_vector_core" (310P: AI Cores plus Vector Cores), or a KERNEL_TYPE_* name."""
        key = kernel_type.strip().lower()
        if key.startswith("mix_") and key != "mix_vector_core" or key in {"aiv_only", "aic_only"}:
            key = "kernel_type_" + key
        kind = _KERNEL_TYPES.get(key)
        if kind is None:
            raise ValueError(
                f"unknown kernel type '{kernel_type}'; expected aiv, aic, mix, mix_vector_core or a KERNEL_TYPE_* name"
            )
        if kind == "mix_vector_core":
            if self.vector_cores == 0:
                raise ValueError(f"chip {self.name} has no standalone vector cores")
            return self.aic_cores + self.vector_cores
        if not self.is_split:
            # Coupled chips: blockDim counts AI Cores whatever the kernel uses [DG 0009].
            return self.aic_cores
        if kind == "aiv":
            return self.aiv_cores
        if kind == "aic":
            return self.aic_cores
        return min(self.aic_cores, self.aiv_cores // 2)


def _canonical_space(space: str) -> str:
    key = space.strip().upper()
    key = _SPACE_ALIASES.get(key, key)
    if key != "GM" and key not in MEMORY_SPACES:
        raise ValueError(
            f"unknown memory space '{space}'; expected one of {', '.join([*MEMORY_SPACES, 'GM'])}"
        )
    return key


def _normalize(name: str) -> str:
    key = name.strip().lower()
    return key.removeprefix("ascend")


@functools.lru_cache(maxsize=1)
def _raw_data() -> Mapping[str, Mapping[str, Any]]:
    """File stem -> parsed TOML of every chip file (a few kB in all, so read them together once)."""
    raw: dict[str, Mapping[str, Any]] = {}
    for path in sorted(DATA_DIR.glob("*.toml")):
        with path.open("rb") as fh:
            raw[path.stem] = tomllib.load(fh)
    return MappingProxyType(raw)


@functools.lru_cache(maxsize=1)
def _name_index() -> Mapping[str, str]:
    """Normalized name, soc_version and aliases -> file stem."""
    index: dict[str, str] = {}
    for stem, data in _raw_data().items():
        for spelling in [
            stem,
            str(data.get("name", stem)),
            str(data.get("soc_version", "")),
            *data.get("aliases", []),
        ]:
            if spelling:
                index.setdefault(_normalize(spelling), stem)
    return MappingProxyType(index)


# Source folders that vendor repositories build for one architecture only: ops-nn / ops-math keep the
# Ascend 950 (3510) kernels and tiling in op_kernel/arch35 and op_host/arch35, asc-devkit its API tests in
# tests/api/*/npu_arch_3510 and tests/api/*/ascendc_case_ascend950pr_9599* (and the 310P's in
# tests/api/*/ascendc_case_ascend310p).
_ARCHITECTURE_FOLDERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"arch35|npu_arch_3510|.*ascend950.*"), "950PR"),
    (re.compile(r"ascendc_case_ascend310p.*"), "310P"),  # asc-devkit's API tests for the 310P
)
_QUOTED_INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]*)"', re.M)
_DIRECTIVE_RE = re.compile(r'^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|include)\b(.*)$')
_ARCH_MACRO_RE = re.compile(r"\b(__NPU_ARCH__|__CCE_AICORE__)\b")


def _unconditional_includes(source: str) -> list[str]:
    """The quoted includes of `source` that no architecture condition (`#if ... __NPU_ARCH__ / __CCE_AICORE__
    ...`) encloses: an include the build for each chip decides on (ops-nn rms_norm.cpp includes its arch35
    headers only `#if __CCE_AICORE__ == 310 || __NPU_ARCH__ == 5102`) does not say the file is that chip's."""
    out: list[str] = []
    arch_stack: list[bool] = []  # per open conditional: whether its condition tests an architecture macro
    for line in source.replace("\\\n", " ").splitlines():
        m = _DIRECTIVE_RE.match(line)
        if m is None:
            continue
        kind, rest = m.groups()
        if kind in ("if", "ifdef", "ifndef"):
            arch_stack.append(bool(_ARCH_MACRO_RE.search(rest)))
        elif kind == "elif" and arch_stack:
            arch_stack[-1] = arch_stack[-1] or bool(_ARCH_MACRO_RE.search(rest))
        elif kind == "endif" and arch_stack:
            arch_stack.pop()
        elif kind == "include" and not any(arch_stack):
            inc = _QUOTED_INCLUDE_RE.match(line)
            if inc is not None:
                out.append(inc.group(1))
    return out


def chip_for_source(path: str, text: str, default: str = DEFAULT_CHIP,
                    read: Callable[[str], str | None] | None = None) -> str:
    """The chip a source was written for, when its folders say so: one in an `arch35` folder, or one that
    includes headers from one (ops-nn's `*_apt.cpp` entries, directly or through their `*_apt.h`), is
    Ascend 950 code; so is the kernel of an op project whose op_host definition builds it for the 950 only
    (`AddConfig("ascend950")`: _op_def_chip). Otherwise `default`. `read(path)` gives the text of an included file (None: absent), to
    follow quoted includes relative to their includer a few levels deep."""
    chip = _folder_chip(path) or _op_def_chip(path)
    if chip is not None:
        return chip
    found: set[str] = set()
    seen = {os.path.normpath(path)}
    level = [(path, text)]
    for _ in range(_INCLUDE_LEVELS):
        below = []
        for includer, source in level:
            for name in _unconditional_includes(source):
                target = os.path.normpath(os.path.join(os.path.dirname(includer), name))
                named = _folder_chip(name) or _folder_chip(target)
                if named is not None:
                    found.add(named)
                elif read is not None and target not in seen:
                    seen.add(target)
                    included = read(target)
                    if included is not None:
                        below.append((target, included))
        level = below
    return found.pop() if len(found) == 1 else default


# The SoCs an op project's op_host/*_def.cpp builds its kernels for (`this->AICore().AddConfig("ascend950")`),
# by architecture; SoCs the chip data does not describe (ascend310b, kirinx90, ...) are not listed.
_OP_DEF_SOC_ARCHS = {"ascend910b": 2201, "ascend910_93": 2201, "ascend950": 3510, "ascend310p": 2002, "ascend910": 1001}
_ARCH_CHIPS = {3510: "950PR", 2002: "310P", 1001: "910"}
_ADD_CONFIG_RE = re.compile(r'AddConfig\s*\(\s*"([A-Za-z0-9_]+)"')


def op_def_archs(text: str) -> dict[int, str]:
    """The architectures an op definition's `AddConfig("ascend310p")` calls build its kernels for, each with the
    chip that describes it (ascend910b and ascend910_93: the default chip); SoCs not described are left out."""
    out: dict[int, str] = {}
    for soc in _ADD_CONFIG_RE.findall(text):
        arch = _OP_DEF_SOC_ARCHS.get(soc.lower())
        if arch is not None:
            out.setdefault(arch, _ARCH_CHIPS.get(arch, DEFAULT_CHIP))
    return out


def _op_def_chip(path: str) -> str | None:
    """The chip of an op project's kernel source when the project's op_host/*_def.cpp builds its kernels for
    one architecture only, and that is not the default's (swiglu_group_quant_grad: AddConfig("ascend950")).
    None when no definition is found, it names an undescribed SoC, or several architectures."""
    from frontend.readers import op_host_sources, sibling_op_host

    host = sibling_op_host(path)
    if host is None:
        return None
    socs: set[str] = set()
    for name, text in op_host_sources(host):
        if name.endswith("_def.cpp"):
            socs.update(soc.lower() for soc in _ADD_CONFIG_RE.findall(text))
    archs = {_OP_DEF_SOC_ARCHS.get(soc) for soc in socs}
    if len(archs) != 1 or None in archs:
        return None
    return _ARCH_CHIPS.get(archs.pop())  # type: ignore[arg-type]


# how deep chip_for_source follows includes: an entry, its *_apt.h, the arch35 header that one includes
_INCLUDE_LEVELS = 3


def _folder_chip(path: str) -> str | None:
    parts = path.replace("\\", "/").split("/")[:-1]
    return next((chip for p in parts for pattern, chip in _ARCHITECTURE_FOLDERS if pattern.fullmatch(p)), None)


def folder_arch(path: str) -> int | None:
    """The architecture (`npu_arch`) a source's folder builds for (ops-nn's op_host/arch35: 3510), or None when
    its folders do not say."""
    chip = _folder_chip(path)
    return load_chip(chip).npu_arch if chip is not None else None


def known_chips() -> list[str]:
    """Names of all configured chips, sorted."""
    return sorted(_raw_data())


def load_chip(name: str = DEFAULT_CHIP) -> Chip:
    """The chip called `name` (case-insensitive; "910B2" and "Ascend910B2" both work). Cached."""
    stem = _name_index().get(_normalize(name))
    if stem is None:
        raise UnknownChipError(name)
    return _load_file(stem)


@functools.cache
def _load_file(stem: str) -> Chip:
    try:
        return _build(_raw_data()[stem])
    except (KeyError, TypeError, ValueError) as exc:
        raise ChipDataError(f"{stem}.toml: {exc}") from exc


def _floats(table: Mapping[str, Any]) -> Mapping[str, float]:
    return MappingProxyType({key: float(value) for key, value in table.items()})


def _build(data: Mapping[str, Any]) -> Chip:
    mode = str(data["mode"])
    if mode not in {"split", "coupled"}:
        raise ValueError(f"mode must be 'split' or 'coupled', not '{mode}'")
    memory = data["memory"]
    alignments = {}
    for key, value in data["alignment"].items():
        space = next((name for name, toml_key in MEMORY_SPACES.items() if toml_key == key), None)
        if space is None:
            raise ValueError(f"unknown alignment key '{key}'")
        alignments[space] = int(value)
    measured = {
        route: tuple((float(kib), float(gib)) for kib, gib in points)
        for route, points in data.get("bandwidth_measured", {}).items()
    }

    def optional_int(table: Mapping[str, Any], key: str) -> int | None:
        return int(table[key]) if key in table else None

    return Chip(
        name=str(data["name"]),
        npu_arch=int(data["npu_arch"]),
        cce_aicore=int(data["cce_aicore"]),
        vector_pass_macro=str(data["vector_pass_macro"]) if "vector_pass_macro" in data else None,
        soc_version=str(data["soc_version"]),
        mode=mode,
        aic_cores=int(data["aic_cores"]),
        aiv_cores=int(data["aiv_cores"]),
        vector_cores=int(data.get("vector_cores", 0)),
        clock_mhz=optional_int(data, "clock_mhz"),
        hbm_bytes=optional_int(data, "hbm_bytes"),
        l2_bytes=optional_int(data, "l2_bytes"),
        ub_size=int(memory["ub"]),
        l1_size=int(memory["l1"]),
        l0a_size=int(memory["l0a"]),
        l0b_size=int(memory["l0b"]),
        l0c_size=int(memory["l0c"]),
        bias_table_size=optional_int(memory, "bias_table"),
        fixpipe_buffer_size=optional_int(memory, "fixpipe_buffer"),
        alignments=MappingProxyType(alignments),
        max_buffers_per_position=int(data["max_buffers_per_position"]),
        max_buffers_total=int(data["max_buffers_total"]),
        vector_buffer_ids=optional_int(data, "vector_buffer_ids"),
        event_ids=int(data["event_ids"]),
        vector_register_bytes=int(data["vector_register_bytes"]),
        dcache_line_bytes=int(data["dcache_line_bytes"]),
        aliases=tuple(str(alias) for alias in data.get("aliases", [])),
        ub_banks=MappingProxyType({key: int(value) for key, value in data.get("ub_banks", {}).items()}),
        throughput=_floats(data.get("throughput", {})),
        latency=_floats(data.get("latency", {})),
        bandwidth=_floats(data.get("bandwidth", {})),
        bandwidth_measured=MappingProxyType(measured),
        timing=_floats(data.get("timing", {})),
    )


# TPosition -> memory [DG 0145]. The three positions whose memory differs by architecture are
# resolved in tposition_memory; C2PIPE2GM is inferred (L1->C2PIPE2GM copies feed the fixpipe buffer).
_POSITION_MEMORY: Mapping[str, str] = MappingProxyType(
    {
        "GM": "GM",
        "VECIN": "UB",
        "VECOUT": "UB",
        "VECCALC": "UB",
        "LCM": "UB",
        "A1": "L1",
        "B1": "L1",
        "A2": "L0A",
        "B2": "L0B",
        "CO1": "L0C",
        "TSCM": "L1",
    }
)
_POSITION_MEMORY_2201: Mapping[str, str] = MappingProxyType(
    {"C1": "L1", "C2": "BT", "CO2": "GM", "C2PIPE2GM": "FB"}
)
_POSITION_MEMORY_COUPLED: Mapping[str, str] = MappingProxyType({"C1": "UB", "C2": "L0C", "CO2": "UB"})
# Architectures with separate AIC and AIV cores, whose C1/C2/CO2 live where 2201's do (kernel_event.h
# groups 3510 with 2201 for the physical position of a queue).
_SPLIT_ARCHS = frozenset({2201, 3510})


def tposition_memory(position: str, arch: int) -> str:
    """The memory ("UB", "L1", "L0A", "L0B", "L0C", "BT", "FB", "GM") a TPosition lives in on `arch`.

    Accepts "VECIN", "TPosition::VECIN" or "QuePosition::VECIN". Positions whose memory the
    reference does not give (SPM, C2PIPE2LOCAL, C2PIPE2GM off 2201) raise ValueError.
    """
    key = position.strip().rsplit("::", 1)[-1].upper()
    memory = _POSITION_MEMORY.get(key)
    if memory is None:
        table = _POSITION_MEMORY_2201 if arch in _SPLIT_ARCHS else _POSITION_MEMORY_COUPLED
        memory = table.get(key)
    if memory is None:
        raise ValueError(f"no documented memory for TPosition '{position}' on arch {arch}")
    return memory
