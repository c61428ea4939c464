"""Reads the names of the device compiler's intrinsics that the AscendC implementation calls, for the lowering.

    .venv/bin/python tools/compiler_intrinsics.py [ASC_DEVKIT_ROOT]
                                                  [--out ascendir/catalog/data/compiler_intrinsics.txt]

Under the AscendC API lies the device compiler's own instruction set, declared by the compiler and by no header:
`set_flag`, `pipe_barrier`, `copy_gm_to_ubuf`, `vadd`, `set_atomic_none`, `trap` ... Kernels call some of them
directly (ops-transformer's distribute_barrier traps on a timeout; asc-devkit's data-copy tests switch atomic
modes with set_atomic_f16). A call of one is no "use of undeclared identifier" (ASC102): the lowering keeps it
as an opaque call. Only names are read, from the implementation headers tools/vendor_api_functions.py reads
(impl/basic_api: its own, its utils/ and the catalogued architectures' folders), the 950's (dav_3510,
reg_compute) and the SIMT API's (impl/simt_api): every lower-case name called as a free function there (not a
member, not qualified) that no asc-devkit header declares as a function, macro, variable, parameter, class or
out-of-class member; code for the host (`#ifdef ASCENDC_CPU_DEBUG`, `__NPU_HOST__`, which calls
the C library's fprintf, raise ...) is left out, and so are keywords, pragmas and the `_t` types of casts.
Default root: the asc-devkit checkout in /work/realkernels.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vendor_api_functions import ROOT, parse_tool_args, write_name_list  # noqa: E402

DEFAULT_OUT = ROOT / "ascendir" / "catalog" / "data" / "compiler_intrinsics.txt"

# `name(` not after `.`, `->`, `::`, `~`, `#` or another word character
_CALL = re.compile(r"(?<![\w.>:~#])([a-z_][a-z0-9_]*)\s*\(")
# what the headers declare: a macro, a variable or parameter (`T name,` `T* name)` `T name =` `T name[`), and a
# function defined at the start of a line after its return type
_MACRO = re.compile(r"#\s*define\s+([a-z_][a-z0-9_]*)")
_VARIABLE = re.compile(r"\b[\w>]+[\s*&]+([a-z_][a-z0-9_]*)\s*[,);=\[]")
_FUNCTION = re.compile(r"^[ \t]*(?:[\w:<>]+[\s*&]+)+([a-z_][a-z0-9_]*)\s*\([^;{}]*\)\s*(?:const\s*)?\{", re.M)
# a member function defined out of its class (`unsigned long long thread_group::thread_rank() const {`), a class
_MEMBER_DEFINITION = re.compile(r"\w::([a-z_][a-z0-9_]*)\s*\([^;{}]*\)\s*(?:const\s*)?\{")
_CLASS = re.compile(r"\b(?:class|struct)\s+([a-z_][a-z0-9_]*)")
_NOT_CALLS = frozenset(
    "if for while switch return sizeof alignof decltype static_cast reinterpret_cast const_cast dynamic_cast "
    "defined static_assert noexcept alignas typeid operator constexpr elif else endif volatile __volatile__ void "
    "section __section__ deprecated message asm __asm__ __attribute__ _Pragma catch".split())


def _without_comments_and_strings(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


# the macros of the builds that compile for the host: the CPU-debug build and the host pass of a kernel source
_HOST_ONLY = ("ASCENDC_CPU_DEBUG", "__NPU_HOST__", "__ASCC_HOST__")


def _without_host_code(text: str) -> str:
    """The text less pragmas and the lines only a host build compiles (`#ifdef ASCENDC_CPU_DEBUG` up to its
    `#else`, and the `#else` part of an `#ifndef ASCENDC_CPU_DEBUG`; the same for __NPU_HOST__, __ASCC_HOST__)."""
    out: list[str] = []
    stack: list[list[object]] = []  # per open #if: [its kind: "debug", "not_debug" or "", in its #else part]
    for line in text.splitlines():
        directive = line.strip()
        if re.match(r"#\s*if", directive):
            kind = ""
            if any(marker in directive for marker in _HOST_ONLY):
                kind = "not_debug" if re.match(r"#\s*(?:ifndef|if\s*!)", directive) else "debug"
            stack.append([kind, False])
        elif re.match(r"#\s*(?:else|elif)", directive) and stack:
            stack[-1][1] = True
        elif re.match(r"#\s*endif", directive) and stack:
            stack.pop()
        elif directive.startswith("#") and re.match(r"#\s*pragma", directive):
            continue  # `#pragma begin_pipe(V)`
        elif not any((kind == "debug" and not in_else) or (kind == "not_debug" and in_else)
                     for kind, in_else in stack):
            out.append(line)
    return "\n".join(out)


def intrinsics(called_in: Iterable[Path], declared_in: Iterable[Path]) -> set[str]:
    declared: set[str] = set()
    for header in declared_in:
        text = _without_comments_and_strings(header.read_text(encoding="utf-8", errors="replace"))
        for pattern in (_MACRO, _VARIABLE, _FUNCTION, _MEMBER_DEFINITION, _CLASS):
            declared.update(pattern.findall(text))
    names: set[str] = set()
    for header in called_in:
        text = header.read_text(encoding="utf-8", errors="replace")
        text = _without_host_code(_without_comments_and_strings(text))
        names.update(n for n in _CALL.findall(text)
                     if n not in _NOT_CALLS and n not in declared and not n.endswith("_t") and len(n) > 2)
    return names


# impl/basic_api folders of the 950 (arch 3510), read for intrinsics only
_REGBASE_FOLDERS = ("dav_3510", "reg_compute")


def main() -> int:
    parsed = parse_tool_args("compiler_intrinsics", __doc__, DEFAULT_OUT)
    if parsed is None:
        return 2
    args, headers = parsed
    every = sorted(p for folder in (args.root / "include", args.root / "impl") for p in folder.rglob("*")
                   if p.suffix in (".h", ".hpp"))
    impl = args.root / "impl"
    # the Ascend 950's implementation too: its register API (reg_compute) calls the compiler's register
    # intrinsics directly (plt_b32, pge_b16 ...), as arch35 kernels do; the declarations that vendor_headers
    # leaves out for its own use stay out of vendor_functions.txt
    regbase = sorted(p for name in _REGBASE_FOLDERS for p in (impl / "basic_api" / name).rglob("*")
                     if p.suffix in (".h", ".hpp"))
    # and its SIMT API's implementation, which calls the SIMT builtins that `__simt_vf__` code calls as well
    # (laneid, __shfl_down ...)
    regbase += sorted(p for p in (impl / "simt_api").rglob("*") if p.suffix in (".h", ".hpp"))
    names = intrinsics([*(p for p in headers if p.is_relative_to(impl)), *regbase], every)
    header = ("# The device compiler's intrinsics that asc-devkit's AscendC implementation calls and no header\n"
              "# declares, one per line: calls of them are not undeclared names.\n"
              "# Written by tools/compiler_intrinsics.py; do not edit.\n")
    write_name_list(args.out, header, names, len(headers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
