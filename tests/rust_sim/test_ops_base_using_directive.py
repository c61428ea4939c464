"""ops-base's kernel helpers named unqualified under `using namespace Ops::Base;` (issue 28, session 16): the ops
repositories write `namespace DropOutDoMask { using namespace Ops::Base; ... GetUbBlockSize() ... CeilDiv(a, b) }`,
and C++ finds the nominated namespace's members by the unqualified name ([namespace.udir]/2), also from a
namespace that nominates the one holding the directive ([namespace.udir]/4). Before, only a call naming
`Ops::Base::` was the helper: each of these was an unresolved call the core stopped at (ASC958 'the call of
CeilDiv, which the lowering could not resolve'). A member function or the program's own non-template function
of that name is still the one called (class scope is searched first; a non-template beats the template,
[over.match.best]), and without a directive the name stays undeclared."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendir.lower.scope import collect
from frontend.pipeline import load_text
from passes.sim import run

HEADERS = """
#include "kernel_operator.h"
#include "op_kernel/platform_util.h"
#include "op_kernel/math_util.h"
"""

KERNEL = HEADERS + """
namespace Tiling {
using namespace AscendC;
using namespace Ops::Base;

template <typename T>
class Tiles {
public:
    __aicore__ inline uint32_t Blocks(uint32_t n) { return CeilDiv(n, GetUbBlockSize() / (uint32_t)sizeof(T)); }
    __aicore__ inline uint32_t Aligned(uint32_t n);
};

template <typename T>
__aicore__ inline uint32_t Tiles<T>::Aligned(uint32_t n) { return CeilAlign(n, 16U); }

__aicore__ inline int32_t Quarter(int32_t a) { return FloorDiv(a, 4); }
}  // namespace Tiling

using namespace Tiling;

extern "C" __global__ __aicore__ void udir(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 4);
    zGm.SetGlobalBuffer((__gm__ int32_t *)z, 4);
    uint32_t n = static_cast<uint32_t>(xGm.GetValue(0));
    Tiles<float> tiles;
    zGm.SetValue(0, static_cast<int32_t>(tiles.Blocks(n)));
    zGm.SetValue(1, static_cast<int32_t>(tiles.Aligned(n)));
    zGm.SetValue(2, Quarter(xGm.GetValue(1)));
    zGm.SetValue(3, static_cast<int32_t>(GetUbBlockSize()));
}
"""

OWN = HEADERS + """
using namespace AscendC;
using namespace Ops::Base;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return a / b + 1000; }

class Platform {
public:
    __aicore__ inline uint32_t GetUbBlockSize() { return 7; }
    __aicore__ inline uint32_t Block() { return GetUbBlockSize(); }
};

extern "C" __global__ __aicore__ void own(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 4);
    zGm.SetGlobalBuffer((__gm__ int32_t *)z, 4);
    uint32_t n = static_cast<uint32_t>(xGm.GetValue(0));
    Platform p;
    zGm.SetValue(0, static_cast<int32_t>(CeilDiv(n, 8U)));
    zGm.SetValue(1, static_cast<int32_t>(p.Block()));
    zGm.SetValue(2, static_cast<int32_t>(Ops::Base::CeilDiv(n, 8U)));
    zGm.SetValue(3, 0);
}
"""

UNDIRECTED = HEADERS + """
using namespace AscendC;

extern "C" __global__ __aicore__ void bare(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> zGm;
    zGm.SetGlobalBuffer((__gm__ int32_t *)z, 4);
    zGm.SetValue(0, static_cast<int32_t>(GetUbBlockSize()));
}
"""


def _run(tmp_path: Path, text: str, x: list[int]):  # type: ignore[no-untyped-def]
    src = tmp_path / "udir.cpp"
    src.write_text(text, encoding="utf-8")
    return run(str(src), {"x": np.array(x, np.int32)}, chip="950PR", block_dim=1, outputs={"z": ((4,), "int32")})


def test_unqualified_helpers_under_a_using_directive(tmp_path: Path) -> None:
    result = _run(tmp_path, KERNEL, [100, -7, 0, 0])
    assert result.ok, [str(d) for d in result.findings]
    # 100 floats in 32-byte blocks of 8: 13 blocks; 100 aligned up to 16: 112; -7 / 4 truncates to -1; the
    # kernel at global scope sees Ops::Base through `using namespace Tiling;`: 32
    np.testing.assert_array_equal(result.outputs["z"], [13, 112, -1, 32])


def test_the_programs_own_function_or_member_is_still_called(tmp_path: Path) -> None:
    result = _run(tmp_path, OWN, [100, 0, 0, 0])
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"], [1012, 7, 13, 0])


def test_without_a_directive_the_name_stays_undeclared(tmp_path: Path) -> None:
    result = _run(tmp_path, UNDIRECTED, [0, 0, 0, 0])
    assert not result.ok
    assert any("GetUbBlockSize" in str(d) for d in result.findings), [str(d) for d in result.findings]


@pytest.mark.parametrize(("here", "found", "absent"), [
    ("Ops", {"Base", "Ops::Base", "Util"}, set()),      # `using namespace Base;` read from inside Ops
    ("Other", {"Util"}, {"Ops::Base", "Base"}),          # Ops's directive does not reach a sibling namespace
    ("", {"Util"}, {"Ops::Base"}),
    ("Tiles::Inner", {"Util", "Ops", "Tiles::Ops", "Ops::Base"}, {"Tiles::Ops::Base"}),  # through Tiles, then Ops
])
def test_nominated_namespaces(here: str, found: set[str], absent: set[str]) -> None:
    text = """
namespace Ops { using namespace Base; }
using namespace Util;
namespace Tiles { using namespace Ops; namespace Inner { } }
"""
    program = load_text(text, "udir.cpp")
    nominated = collect([u.ast for u in program.units]).nominated(here)
    assert found <= nominated and not absent & nominated, nominated
