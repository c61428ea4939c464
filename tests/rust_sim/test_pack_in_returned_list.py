"""A pack expanded in a braced list that a function returns, `return {t...};` (issue 29: catlass tla's
`template <class... Ts> Shape<Ts...> MakeShape(Ts const&... t) { return {t...}; }`). Before, a braced list
lowered without a known type did not expand its packs ("a pack expansion of 't' outside call arguments and braced
lists is not modelled", ASC103), and a braced list returned as a class object was not its constructor's arguments
(the object's members stayed unset, silently: 0 here)."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
using namespace AscendC;

struct Triple {
    uint32_t a;
    uint32_t b;
    uint32_t c;
    __aicore__ inline Triple(uint32_t x, uint32_t y, uint32_t z) : a(x), b(y), c(z) {}
};
template <class... Ts>
__aicore__ inline Triple MakeTriple(Ts const &...t)
{
    return {t...};
}
template <class... Ts>
__aicore__ inline Triple MakeEither(bool reversed, Ts const &...t)
{
    if (reversed) {
        return {9u, 8u, 7u};
    }
    return {t...};
}

extern "C" __global__ __aicore__ void pack_in_returned_list(GM_ADDR y)
{
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 3);
    uint32_t two = 2;
    Triple p = MakeTriple(1u, two, 3u);
    yg.SetValue(0, (float)(p.a * 100 + p.b * 10 + p.c));
    Triple q = MakeEither(two > 1, 1u, two, 3u);  // (a branch taken at run time: the returned object's path)
    Triple r = MakeEither(two > 5, 1u, two, 3u);
    yg.SetValue(1, (float)(q.a * 100 + q.b * 10 + q.c));
    yg.SetValue(2, (float)(r.a * 100 + r.b * 10 + r.c));
}
"""


def test_a_returned_braced_list_expands_its_pack() -> None:
    result = run(SOURCE, [], outputs={"y": ((3,), "float32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [123.0, 987.0, 123.0]
