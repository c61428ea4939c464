"""`std::is_same<A, B>::value` where the program declares an is_same of its own in another namespace (issue 28;
ascendir/lower/lower_names.py, type_traits.STANDARD_FOLDS).

ops-nn scatter_add (arch35/scatter_add_common.h) defines `is_same` (a false_type with a true_type partial
specialisation) and its kernel tests `if constexpr (std::is_same<int64_t, U>::value)`. The lowering refused any
`std::X` beside a program's X (tla's tuple_size, which it does not model), so the whole `if constexpr` was left out
(sim_gaps: 68 instructions in one file) and nothing in it ran. The standard traits the lowering folds by their
standard definitions are folded there too."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;

namespace Mine {
struct false_type { static constexpr bool value = false; };
struct true_type { static constexpr bool value = true; };
template <typename Tp, typename Up>
struct is_same : public false_type {};
template <typename Tp>
struct is_same<Tp, Tp> : public true_type {};
}

template <typename U>
__aicore__ inline int32_t Pick()
{
    if constexpr (std::is_same<int64_t, U>::value) {
        return 64;
    } else if constexpr (std::is_integral<U>::value) {
        return 32;
    }
    return 0;
}

extern "C" __global__ __aicore__ void pk(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    yGm.SetValue(0, Pick<int64_t>());
    yGm.SetValue(1, Pick<int32_t>());
    yGm.SetValue(2, Pick<float>());
    yGm.SetValue(3, Mine::is_same<float, float>::value ? 1 : 0);
    for (int i = 4; i < 8; i++) {
        yGm.SetValue(i, 0);
    }
}
"""


def test_the_standard_trait_is_answered_beside_the_programs_homonym(tmp_path: Path) -> None:
    path = tmp_path / "pk.cpp"
    path.write_text(SOURCE, encoding="utf-8")
    result = run(str(path), {}, chip="910B2", block_dim=1, outputs={"y": ((8,), "int32")})
    assert result.ok, [str(d) for d in result.findings]
    # Pick<int64_t>, Pick<int32_t>, Pick<float>, then the program's own trait
    np.testing.assert_array_equal(result.outputs["y"], [64, 32, 0, 1, 0, 0, 0, 0])
