"""A copy of a union of numbers is a storage of its own, a reference or pointer to one is the union itself, and the
address of a member is a reported gap (ascendir/lower/unions.py, issue 28; the unions came in 50bae28).

Before: a union taken by value by a function, and a class object holding a union copied with the object, shared the
caller's storage (a write through the copy changed the original, with no finding), and an object assigned kept its
union unset; the address of a member was of a copy of the value read (`*p = 9` was lost, silently); `b = a;`,
`auto b = a;` and `Word *p = &a;` were left out, `Word &r = a;` read an undefined value (ASC958 where run)."""

from __future__ import annotations

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
union Word {
    uint32_t u;
    uint16_t h;
    float f;
};
class Holder {
public:
    __aicore__ inline void Set(float x) { w.f = x; }
    __aicore__ inline uint32_t Get() { return w.u; }
    Word w;
};
__aicore__ inline uint32_t Bump(Word w) { w.u += 1; return w.u; }
__aicore__ inline void AddTwo(Word *w) { w->u += 2; }
__aicore__ inline void AddThree(Word &w) { w.u += 3; }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<uint32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y, 16);
BODY
}
"""

COPIES = """    Word a = {5u};
    yGm.SetValue(0, Bump(a));
    yGm.SetValue(1, a.u);
    Word b = {1u};
    b = a;
    b.u = 7;
    auto c = a;
    c.h = 0;
    yGm.SetValue(2, a.u * 100 + b.u * 10 + c.u);
    Holder h;
    h.Set(1.5f);
    Holder g = h;
    g.w.u = 7;
    Holder e;
    e = h;
    yGm.SetValue(3, h.Get());
    yGm.SetValue(4, g.w.u);
    yGm.SetValue(5, e.w.u);
    for (int i = 6; i < 16; i++) { yGm.SetValue(i, 0); }
"""


def test_a_copy_has_its_own_storage() -> None:
    result = run(SOURCE.replace("BODY", COPIES), {}, block_dim=1, outputs={"y": ((16,), "uint32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    # (before: Bump's write reached a, [6, 6]; g's write reached h, 7; e kept 0; b = a, auto c = a were left out)
    assert result.outputs["y"].tolist()[:6] == [6, 5, 570, 0x3FC00000, 7, 0x3FC00000]


ALIASES = """    Word a = {5u};
    Word &r = a;
    r.u += 1;
    auto &s = a;
    s.u += 1;
    Word *p = &a;
    p->u += 1;
    AddTwo(&a);
    AddThree(a);
    yGm.SetValue(0, a.u);
    yGm.SetValue(1, p->u + r.h);
    for (int i = 2; i < 16; i++) { yGm.SetValue(i, 0); }
"""


def test_references_and_pointers_name_the_union_itself() -> None:
    result = run(SOURCE.replace("BODY", ALIASES), {}, block_dim=1, outputs={"y": ((16,), "uint32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist()[:2] == [13, 26]


ADDRESS = """    Word a = {5u};
    uint32_t *p = &a.u;
    *p = 9;
    yGm.SetValue(0, a.u);
    for (int i = 1; i < 16; i++) { yGm.SetValue(i, 0); }
"""


def test_the_address_of_a_member_is_a_reported_gap() -> None:
    source = SOURCE.replace("BODY", ADDRESS)
    line = 1 + next(i for i, text in enumerate(source.splitlines()) if "&a.u" in text)
    result = run(source, {}, block_dim=1, outputs={"y": ((16,), "uint32")})
    found = [f for f in result.findings if f.code == "ASC958" and f.span is not None and f.span.line == line]
    assert found and "address of union member 'u'" in found[0].message, [str(f) for f in result.findings]
