"""Where the catalog's data lives (DATA_DIR), the architectures its dtype tables describe (ARCHS), and the
plain name lists beside the TOML tables (vendor functions and types, the Matmul library's functions, compiler
intrinsics). Separate because the lowering asks for the lists without building the catalog.
"""

from __future__ import annotations

import functools
from pathlib import Path


DATA_DIR = Path(__file__).parent / "data"

# Architectures the catalog keys dtype tables by (as strings, the way TOML keys them): the ones it
# describes. Others (3510) have APIs, overloads and type tables it does not hold.
ARCHS: tuple[str, ...] = ("2201", "2002", "1001")


@functools.lru_cache(maxsize=1)
def vendor_functions() -> frozenset[str]:
    """AscendC free functions the vendor's public headers declare, catalogued or not (data/vendor_functions.txt,
    written by tools/vendor_api_functions.py): a call of one is not a call of an unknown API."""
    return _name_list("vendor_functions.txt")


@functools.lru_cache(maxsize=1)
def matmul_library_functions() -> frozenset[str]:
    """Free functions of the Matmul library's implementation (AscendC::CeilDiv, CeilAlign ...;
    data/matmul_library_functions.txt, written by tools/vendor_api_functions.py): declared for a kernel that
    includes lib/matmul_intf.h, unknown otherwise."""
    return _name_list("matmul_library_functions.txt")


@functools.lru_cache(maxsize=1)
def vendor_types() -> frozenset[str]:
    """Structs, classes, enums and aliases the vendor's headers declare at namespace scope, catalogued or not
    (data/vendor_types.txt, written by tools/vendor_api_types.py): a declaration of one names no unknown type."""
    return _name_list("vendor_types.txt")


@functools.lru_cache(maxsize=1)
def compiler_intrinsics() -> frozenset[str]:
    """The device compiler's intrinsics that the vendor's AscendC implementation calls and no header declares
    (trap, set_atomic_none, copy_gm_to_ubuf ...; data/compiler_intrinsics.txt, written by
    tools/compiler_intrinsics.py): a call of one is no use of an undeclared name."""
    return _name_list("compiler_intrinsics.txt")


def _name_list(file_name: str) -> frozenset[str]:
    """The names of a data/*.txt list, one per line, `#` comments skipped."""
    text = (DATA_DIR / file_name).read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def arch_catalogued(arch: int) -> bool:
    """Whether the catalog describes the APIs of `__NPU_ARCH__` `arch`, so that rules may judge calls by it."""
    return str(arch) in ARCHS
