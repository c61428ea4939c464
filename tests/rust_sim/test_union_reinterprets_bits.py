"""A local union of numbers is one storage whose members alias (ascendir/lower/unions.py): writing one member and
reading another gives the bytes reinterpreted, as the compilers the vendor uses define it (ops-nn nll_loss.h's
FloatToHalfBits / Bf16BitsToFloat: `union { float f; uint32_t u; } c; c.f = f; uint32_t bits = c.u;`). Before,
every member read and write of such a union was left out (ASC958) and the results were unset. A narrower member
written replaces only the low bytes (little-endian); a brace list initialises the first member, a copy takes the
bytes; a union with an array member keeps the reported gap. A class's data member of a named union is such a
storage too (before, a struct of separate fields whose reads were unset tiling-field reads, ASC958)."""

from __future__ import annotations

import struct

from passes.sim import run

HEAD = """#include "kernel_operator.h"
using namespace AscendC;
union Word {
    uint32_t u;
    uint16_t h;
    float f;
};
__aicore__ inline uint32_t Bits(float f)
{
    union {
        float f;
        uint32_t u;
    } c;
    c.f = f;
    return c.u;
}
__aicore__ inline float Bf16BitsToFloat(uint16_t b)
{
    union {
        uint32_t u;
        float f;
    } c;
    if (b != 0) {
        c.u = static_cast<uint32_t>(b) << 16;
    } else {
        c.u = 0;
    }
    return c.f;
}
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<uint32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y, 6);
BODY
}
"""

BODY = """    yGm.SetValue(0, Bits(1.5f));
    yGm.SetValue(1, static_cast<uint32_t>(Bf16BitsToFloat(0x4040) * 2.0f));
    Word w = {0x11223344u};
    w.h = 0xaabb;
    yGm.SetValue(2, w.u);
    w.u += 1;
    yGm.SetValue(3, w.h);
    Word copy = w;
    w.f = -2.0f;
    yGm.SetValue(4, w.u + copy.h - 0xaabc);
    yGm.SetValue(5, static_cast<uint32_t>(Bf16BitsToFloat(0)));
"""


def test_members_alias_one_storage() -> None:
    result = run(HEAD.replace("BODY", BODY), {}, block_dim=1, outputs={"y": ((6,), "uint32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    (minus_two,) = struct.unpack("<I", struct.pack("<f", -2.0))
    assert result.outputs["y"].tolist() == [0x3FC00000, 6, 0x1122AABB, 0xAABC, minus_two, 0]


GAP = """    union {
        uint32_t u;
        uint16_t parts[2];
    } c;
    c.u = 0x00010002u;
    yGm.SetValue(0, c.parts[1]);
    for (int i = 1; i < 6; i++) { yGm.SetValue(i, 0); }
"""


def test_a_union_with_an_array_member_stays_a_reported_gap() -> None:
    source = HEAD.replace("BODY", GAP)
    lines = source.splitlines()
    write = 1 + next(i for i, line in enumerate(lines) if "c.u = 0x00010002u" in line)
    read = 1 + next(i for i, line in enumerate(lines) if "c.parts[1]" in line)
    result = run(source, {}, block_dim=1, outputs={"y": ((6,), "uint32")})
    gaps = {f.span.line for f in result.findings if f.code == "ASC958" and f.span is not None}
    assert {write, read} <= gaps, [str(f) for f in result.findings]


MEMBER = """class Holder {
public:
    __aicore__ inline void Set(float x) { w.f = x; }
    __aicore__ inline uint32_t Get() { return this->w.u; }
    Word w;
};
"""

MEMBER_BODY = """    Holder op;
    op.Set(1.5f);
    yGm.SetValue(0, op.Get());
    yGm.SetValue(1, op.w.u);
    op.w.u = 0x40400000u;
    yGm.SetValue(2, static_cast<uint32_t>(op.w.f));
    for (int i = 3; i < 6; i++) { yGm.SetValue(i, 0); }
"""


def test_a_class_member_of_a_union_type_aliases_too() -> None:
    source = HEAD.replace("extern", MEMBER + "extern").replace("BODY", MEMBER_BODY)
    result = run(source, {}, block_dim=1, outputs={"y": ((6,), "uint32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [0x3FC00000, 0x3FC00000, 3, 0, 0, 0]
