"""Reads the names of the types the vendor's AscendC headers declare at namespace scope, for the lowering.

    .venv/bin/python tools/vendor_api_types.py [ASC_DEVKIT_ROOT] [--out ascendir/catalog/data/vendor_types.txt]

The API catalog models the parameter structs, classes and enums of the reference; the vendor headers declare
many more (LoadData2dTransposeParams, DataCopyCO12DstParams, VdeqInfo, TBufPool, the LoadData2dParams
alias ...). A declaration of one is not an "unknown type name" (ASC105): the lowering keeps such a value
opaque. Only names are read, from the headers tools/vendor_api_functions.py reads: every `struct`, `class`,
`union` or `enum` defined, and every `using X =` / `typedef ... X;` alias, at the start of a line (namespace
scope: members are indented), with a capitalised name; not the register API's (reg_compute/, Ascend 950 only).
Default root: the asc-devkit checkout in /work/realkernels.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vendor_api_functions import ROOT, parse_tool_args, write_name_list  # noqa: E402

DEFAULT_OUT = ROOT / "ascendir" / "catalog" / "data" / "vendor_types.txt"

# `struct LoadData2dTransposeParams {`, `template <TPosition pos, uint32_t n> class TBufPool : public ...`,
# `enum class CacheMode : uint8_t {`, `struct alignas(32) X {`; a forward declaration (`struct X;`) is no
# definition but names the type all the same
_RECORD = re.compile(r"^(?:template\s*<[^;{}]*?>\s*)?(?:struct|class|union|enum(?:\s+class|\s+struct)?)\s+"
                     r"(?:__attribute__\(\([^()]*\)\)\s*|alignas\(\w+\)\s*)?([A-Z][A-Za-z0-9_]*)\b(?!\s*<)", re.M)
# `using LoadData2dParams = struct LoadData2DParams;`, `template <typename T> using X = ...;`
_USING = re.compile(r"^(?:template\s*<[^;{}]*?>\s*)?using\s+([A-Z][A-Za-z0-9_]*)\s*=", re.M)
# `typedef struct { ... } Name;` is rare in these headers; `typedef uint8_t Name;` at column 0
_TYPEDEF = re.compile(r"^typedef\s[^;{}()]*?\b([A-Z][A-Za-z0-9_]*)\s*;", re.M)


def declared_types(headers: Iterable[Path]) -> set[str]:
    names: set[str] = set()
    for header in headers:
        text = header.read_text(encoding="utf-8", errors="replace")
        for pattern in (_RECORD, _USING, _TYPEDEF):
            names.update(pattern.findall(text))
    return names


def main() -> int:
    parsed = parse_tool_args("vendor_api_types", __doc__, DEFAULT_OUT)
    if parsed is None:
        return 2
    args, headers = parsed
    # the register API (include/basic_api/reg_compute: RegTensor, MaskReg ...) is Ascend 950's only: on the
    # catalogued architectures its types are unknown, as the compiler says
    headers = [p for p in headers if "reg_compute" not in p.parts]
    names = declared_types(headers)
    header = ("# Types (structs, classes, enums, aliases) the vendor's headers declare at namespace scope (asc-devkit\n"
              "# include/ and the basic API's impl/), one per line: declarations of them are not unknown types.\n"
              "# Written by tools/vendor_api_types.py; do not edit.\n")
    write_name_list(args.out, header, names, len(headers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
