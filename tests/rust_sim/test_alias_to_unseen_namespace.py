"""An alias of a name to the same name in a namespace the program never declares, `using myT = ext::myT;` (ext
from a header the lowering does not read, as catlass 102's `using fp16_t = op::fp16_t;`), is not the alias
again (review of c0727cc, which answered only the host type names of HOST_TYPE_ALIASES).

Before, `myT` resolved to `ext::myT`, whose lookup fell back to the bare name `myT`, the alias again, until
Python's recursion limit: the whole kernel was left out ('expressions or templates nested too deeply').
Now ext::myT is a type the lowering does not know, as any type name it never sees; the rest of the kernel runs."""

from __future__ import annotations

from pathlib import Path

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
using myT = ext::myT;
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    myT unused;
    yGm.SetValue(0, 7);
    yGm.SetValue(1, 8);
}
"""


def test_an_alias_to_its_name_in_an_unseen_namespace_leaves_the_kernel_lowered(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    result = run(str(src), {}, block_dim=1, outputs={"y": ((2,), "int32")})
    assert not any("nested too deeply" in f.message or "not lowered" in f.message for f in result.findings), \
        [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [7, 8]
