"""`std::initializer_list<T>` parameters of host helpers bound to a braced list (ascendir/lower/host_init_list.py):
a range-for over the list, `size()`, a pointer walk from `begin()` to `end()`, and `gert::StorageShape ==`.

NPUKernelBench AddLayerNorm's host checks its shapes with `CheckNotNullAll({...})` and `CheckEqualsAll<...>({...})`
written this way; before, the loops and `size()` were left out (ASC103) and the answer was not judged.
"""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
#include "register/tilingdata_base.h"
#include <initializer_list>
namespace optiling {
BEGIN_TILING_DATA_DEF(ITilingData)
TILING_DATA_FIELD_DEF(uint32_t, ok);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(I, ITilingData)
template <typename T>
static bool CheckNotNullAll(std::initializer_list<T> ptrList)
{
    for (auto &ptr : ptrList) {
        if (ptr == nullptr) {
            return false;
        }
    }
    return true;
}
template <typename T>
static inline bool CheckEqualsAll(std::initializer_list<T> eleList)
{
    bool ret = true;
    if (eleList.size() > 0) {
        const T *fontPtr = eleList.begin();
        for (const T *curtPtr = eleList.begin(); curtPtr != eleList.end(); curtPtr++) {
            ret = ret && (*(curtPtr) == *(fontPtr));
            fontPtr = curtPtr;
        }
    }
    return ret;
}
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ITilingData tiling;
    const gert::StorageShape *a = context->GetInputShape(0);
    const gert::StorageShape *b = context->GetInputShape(1);
    size_t an = a->GetStorageShape().GetDimNum();
    size_t bn = b->GetStorageShape().GetDimNum();
    uint32_t ok = 0;
    if (CheckNotNullAll({a, b})) { ok += 1; }
    if (CheckEqualsAll<size_t>({an, bn, an})) { ok += 10; }
    if (CheckEqualsAll<const gert::StorageShape>({*a, *b})) { ok += 100; }
    tiling.set_ok(ok);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


@pytest.mark.parametrize(("a", "b", "ok"), [
    ((2, 3), (2, 3), 111),  # not null, equal dim counts, equal shapes
    ((2, 3), (2, 4), 11),  # equal dim counts, shapes differ
    ((2, 3), (6,), 1),  # dim counts differ
])
def test_initializer_list_helpers(a: tuple[int, ...], b: tuple[int, ...], ok: int) -> None:
    inputs = TilingInputs([TensorSpec(a, "float32"), TensorSpec(b, "float32")])
    result = evaluate_program_tiling(load_text(SOURCE, "i.cpp"), inputs)
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"ok": ok}


def test_a_loop_that_breaks_is_reported() -> None:
    source = SOURCE.replace("return false;\n        }\n    }\n    return true;", "break;\n        }\n    }\n    return true;")
    assert source != SOURCE
    result = evaluate_program_tiling(load_text(source, "i.cpp"), TilingInputs([TensorSpec((2,), "float32")] * 2))
    assert any("breaks or continues" in d for d in result.diagnostics), result.diagnostics
