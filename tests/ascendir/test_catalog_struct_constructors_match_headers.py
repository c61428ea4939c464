"""The catalogue's parameter structs are aggregates exactly where the vendor declares no constructor, and list the
vendor's constructors (issue 28). A struct with a user-declared constructor is no aggregate ([dcl.init.aggr]/1.1):
a braced list then calls the constructor of its length ([dcl.init.list]/3.7) and no other list compiles. Session
17 marked only LoadData3DParamsV1/V2/V2Pro so; DataCopyParams, MrgSort4Info, GatherMaskParams and 30 more took
any list no longer than their members, member by member, where the compiler rejects it (`DataCopyParams{1, 32}`),
and FixpipeParams{count, len, src, dst} set its strides crosswise (its constructor's order is not its members').

The audit reads asc-devkit's headers: for each catalogued struct, the constructors of one of its definitions (the
arch branches of an #if, tensor_api's Te namespace declare their own), a defaulted parameter counting as one
constructor per arity."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ascendir.catalog import load_catalog
from ascendir.dialects import ascendc as asc
from ascendir.lower import LoweringOptions, lower_program
from frontend.pipeline import load_text

DEVKIT = Path(os.environ.get("ASCENDIR_REAL_KERNELS", "/work/ext/real")) / "asc-devkit"


def _body(text: str, start: int) -> str:
    """The text between the brace at or after `start` and its match."""
    open_at = text.index("{", start)
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[open_at + 1:i]
    return text[open_at + 1:]


def _arities(params: str) -> set[int]:
    """The argument counts a constructor of parameter list `params` takes (a defaulted parameter may be left out)."""
    parts = [p for p in params.split(",") if p.strip() and p.strip() != "void"]
    defaulted = sum("=" in p for p in parts)
    return set(range(len(parts) - defaulted, len(parts) + 1))


def _definitions(name: str, sources: dict[Path, str]) -> list[set[int] | None]:
    """For each definition of struct `name`: the argument counts its constructors take, None for an aggregate."""
    found: list[set[int] | None] = []
    head = re.compile(r"\b(?:struct|class)\s+" + name + r"\b\s*(?:final\s*)?(?::[^{;]*)?\{")
    # a declaration starts its line (an #if may give two spellings of one constructor: the same arity)
    ctor = re.compile(r"^\s*(?:(?:__aicore__|inline|constexpr|explicit)\s+)*" + name + r"\s*\(([^)]*)\)", re.M)
    for text in sources.values():
        for m in head.finditer(text):
            ctors = [_arities(c.group(1)) for c in ctor.finditer(_body(text, m.start()))]
            found.append(set().union(*ctors) if ctors else None)
    return found


@pytest.mark.skipif(not (DEVKIT / "include").is_dir(), reason=f"needs an asc-devkit checkout at {DEVKIT}")
def test_catalogued_structs_have_the_vendors_constructors() -> None:
    sources = {p: p.read_text(errors="replace") for folder in ("include", "impl")
               for p in (DEVKIT / folder).rglob("*.h")}
    wrong = []
    for s in load_catalog().structs.values():
        definitions = _definitions(s.name, sources)
        if not definitions:
            continue  # a tiling struct the host fills (SoftMaxTiling, ...): generated, no header of its own here
        ours: set[int] | None = None if s.aggregate else (
            {len(c) for c in s.constructors} | ({0} if s.default_constructor else set()))
        if ours not in definitions:
            wrong.append(f"{s.name}: catalogue {sorted(ours) if ours is not None else 'aggregate'}, headers "
                         f"{[sorted(d) if d is not None else 'aggregate' for d in definitions]}")
    assert wrong == []


KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x);
    DataCopyParams full{1, 2, 0, 0};
    DataCopyParams copied(full);
    DataCopy(t, g, copied);
    // expected-error@+1 {{no matching constructor for initialization of 'DataCopyParams' from 2 values: its constructors take 0 or 4}}
    DataCopyParams two{1, 2};
    // expected-error@+1 {{initialization of non-aggregate type 'DataCopyParams' with a designated initializer list}}
    DataCopyParams named = {.blockCount = 1, .blockLen = 2};
    DataCopy(t, g, {1, 2});  // expected-error {{no matching function for call to 'DataCopy'}} (not NDDMA's)
    // expected-error@+1 {{no matching constructor for initialization of 'MrgSort4Info' from 1 value: its constructors take 0 or 4}}
    MrgSort4Info info(3);
}
"""


def _expected(source: str) -> list[tuple[int, str]]:
    """The (line, message) of each `// expected-error[@+1] {{message}}` of `source`."""
    return [(n + bool(m.group(1)), m.group(2)) for n, line in enumerate(source.splitlines(), 1)
            if (m := re.search(r"expected-error(@\+1)? \{\{(.*)\}\}", line))]


def test_a_list_no_constructor_takes_is_the_compilers_error() -> None:
    r = lower_program(load_text(KERNEL, "k.cpp"), LoweringOptions())
    found = [(d.span.line, d.message) for d in r.diagnostics]
    assert found == _expected(KERNEL)
    assert all(d.code == "ASC101" and d.severity.name.lower() == "error" for d in r.diagnostics)
    two = next(d for d in r.diagnostics if "from 2 values" in d.message)
    assert [n.message for n in two.notes] == ["candidate: DataCopyParams()",
                                              "candidate: DataCopyParams(blockCount, blockLen, srcStride, dstStride)"]


FIXPIPE = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    FixpipeParams<float> p{2, 4, 6, 8};
    GatherRepeatParams g{1, 8};
}
"""


def test_a_list_sets_the_fields_of_the_constructor_of_its_length() -> None:
    # FixpipeParams(count, len, srcStride, dstStride) while its members are declared dstStride first; the
    # GatherRepeatParams constructor takes (dstBlkStride, dstRepStride), once '_0', '_1' (no fields catalogued)
    r = lower_program(load_text(FIXPIPE, "k.cpp"), LoweringOptions())
    assert [(d.code, d.message) for d in r.diagnostics] == []
    inits = [op for op in r.module.walk() if isinstance(op, asc.StructInitOp)]
    assert [[f.data for f in op.fields.data] for op in inits] == [
        ["cburstNum", "burstLen", "srcStride", "dstStride"], ["dstBlkStride", "dstRepStride"]]
