"""Reads the names of the AscendC free functions the vendor's public headers declare, for the lowering.

    .venv/bin/python tools/vendor_api_functions.py [ASC_DEVKIT_ROOT] [--out ascendir/catalog/data/vendor_functions.txt]

The API catalog models the APIs of the reference with their overloads; the vendor headers declare many more
(Where, TransData, Rint, the proposal sorts, the Fixpipe settings ...). A call of one of those is not an
"unknown AscendC API" (ASC100): the lowering keeps it as an opaque call instead. Only names are read: every
function of `include/{basic_api,adv_api,tensor_api,utils}` under the asc-devkit checkout declared at the start
of a line (namespace scope; class members are indented, and the catalog's receiver classes keep their own
method lists) with a capitalised name. Shipped kernels also call the basic API's implementation layer, which
`kernel_operator.h` brings in too (GetScalarBitcodeValue, DataCopyPadGm2UBImpl): its own headers, its utils/
and the folders of the architectures the catalog describes (dav_c220: 2201, dav_m200: 2002, dav_c100: 1001)
are read the same way. The advanced API's internals (impl/adv_api: the Matmul library's CeilDiv ...) are not:
a kernel reaches them only through the library's own headers; those of the Matmul library go to a list of
their own (matmul_library_functions.txt), for kernels that include lib/matmul_intf.h. Default root: the
asc-devkit checkout in /work/realkernels.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ROOT = Path("/work/realkernels/asc-devkit")
DEFAULT_OUT = ROOT / "ascendir" / "catalog" / "data" / "vendor_functions.txt"
MATMUL_LIBRARY_LIST = "matmul_library_functions.txt"  # written beside --out
PUBLIC_FOLDERS = ("basic_api", "adv_api", "tensor_api", "utils")
# impl/basic_api: its top-level headers (not recursively), then these folders (recursively)
IMPL_BASIC_FOLDERS = ("utils", "dav_c220", "dav_m200", "dav_c100")

# `__aicore__ inline void Where(`, `template <typename T> __aicore__ inline ... Rint(` at column 0; not the
# out-of-class definitions of members (`ElemwiseFrame<Op>::Process(`)
_DECLARATION = re.compile(r"^(?:__aicore__|__simd_vf__|inline|static|template\b)[^;{}]*?(?<!:)\b([A-Z][A-Za-z0-9_]*)\s*\(",
                          re.M)


def declared_functions(headers: Iterable[Path]) -> set[str]:
    names: set[str] = set()
    for header in headers:
        names.update(_DECLARATION.findall(header.read_text(encoding="utf-8", errors="replace")))
    return names


def vendor_headers(root: Path) -> list[Path] | None:
    """The headers both vendor-name tools read under an asc-devkit checkout; None if its folders are missing."""
    folders = [root / "include" / name for name in PUBLIC_FOLDERS]
    impl = root / "impl" / "basic_api"
    impl_folders = [impl / name for name in IMPL_BASIC_FOLDERS]
    if not all(folder.is_dir() for folder in (*folders, *impl_folders)):
        return None
    headers = sorted(p for folder in (*folders, *impl_folders) for p in folder.rglob("*") if p.suffix in (".h", ".hpp"))
    return headers + sorted(p for p in impl.glob("*") if p.suffix in (".h", ".hpp"))


def parse_tool_args(tool: str, doc: str, default_out: Path) -> tuple[argparse.Namespace, list[Path]] | None:
    """The command line the vendor-name tools share (an asc-devkit root, --out) and the headers under that root;
    None, having said why, when its folders are missing."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("root", type=Path, nargs="?", default=DEFAULT_ROOT)
    ap.add_argument("--out", type=Path, default=default_out)
    args = ap.parse_args()
    headers = vendor_headers(args.root)
    if headers is None:
        print(f"{tool}: no asc-devkit include/ and impl/basic_api/ folders under '{args.root}'", file=sys.stderr)
        return None
    return args, headers


def write_name_list(out: Path, header: str, names: Iterable[str], read: int) -> None:
    """Writes a data/*.txt name list (its `#` header, then the names sorted, one per line) and says so."""
    listed = sorted(names)
    out.write_text(header + "".join(f"{name}\n" for name in listed))
    print(f"{len(listed)} names from {read} headers -> {out}")


def main() -> int:
    parsed = parse_tool_args("vendor_api_functions", __doc__, DEFAULT_OUT)
    if parsed is None:
        return 2
    args, headers = parsed
    names = declared_functions(headers)
    header = ("# AscendC free functions the vendor's headers declare (asc-devkit include/ and the basic API's impl/),\n"
              "# one per line: calls of them are not unknown APIs. Written by tools/vendor_api_functions.py; do not edit.\n")
    write_name_list(args.out, header, names, len(headers))
    # the Matmul library's own helpers (impl/adv_api/detail/matmul: AscendC::CeilDiv, CeilAlign ...), which a
    # kernel reaches through lib/matmul_intf.h only
    library = sorted(p for p in (args.root / "impl" / "adv_api" / "detail" / "matmul").rglob("*")
                     if p.suffix in (".h", ".hpp"))
    header = ("# Free functions the Matmul library's implementation declares (asc-devkit impl/adv_api/detail/matmul),\n"
              "# one per line: not unknown APIs in a kernel that includes lib/matmul_intf.h.\n"
              "# Written by tools/vendor_api_functions.py; do not edit.\n")
    write_name_list(args.out.with_name(MATMUL_LIBRARY_LIST), header, declared_functions(library) - names, len(library))
    return 0


if __name__ == "__main__":
    sys.exit(main())
