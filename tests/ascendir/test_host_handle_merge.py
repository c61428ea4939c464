"""A host pointer / handle variable rebound on one branch of an `if` and read after it (ops-nn
smooth_l1_loss_v2's attribute parsing: `auto attr = attrs->GetStr(1); if (attr == nullptr) attr =
attrs->GetStr(0);`) holds, after the `if`, the value of the branch the run took: the host lowering merges the two
bindings (host_branch_merge; before, the assignment was a gap, 'assigning ... under control flow is not modelled',
and every later read of the variable one too). Also `std::remove_pointer_t` of an attribute pointer is its element
type, so a helper template can tell GetStr's `const char*` apart."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

ATTRS = ('this->Attr("first").AttrType(REQUIRED).Int(0);', 'this->Attr("second").AttrType(OPTIONAL).Int(0);',
         'this->Attr("flag").AttrType(OPTIONAL).Int(0);')

SRC = """
namespace optiling {
struct PTiling { int32_t picked; int32_t nested; int32_t early; uint32_t rows; };

template <typename PtrT>
inline const int64_t* Either(PtrT a, PtrT b)
{
    if (a == nullptr) {
        return b;          // a return under an if: the helper's result is rebound on one branch
    }
    return a;
}

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    auto attrs = context->GetAttrs();
    auto attr = attrs->GetInt(1);
    if (attr == nullptr) {
        attr = attrs->GetInt(0);
    }
    auto flag = attrs->GetInt(2);
    auto inner = attrs->GetInt(0);
    if (flag != nullptr) {
        if (*flag > 0) {
            inner = attrs->GetInt(2);
        } else {
            inner = attrs->GetInt(1);
        }
    }
    auto shape = context->GetInputShape(0);
    if (*attr > 100) {
        shape = context->GetInputShape(0);
    }
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->picked = static_cast<int32_t>(*attr);
    tiling->nested = static_cast<int32_t>(*inner);
    tiling->early = static_cast<int32_t>(*Either(attrs->GetInt(1), attrs->GetInt(0)));
    tiling->rows = static_cast<uint32_t>(shape->GetStorageShape().GetDim(0));
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def(*ATTRS)


@pytest.mark.parametrize("attrs, picked, nested", [
    ([7, None, None], 7, 7),   # no second attribute: the first; no flag: the first
    ([7, 9, None], 9, 7),      # the second attribute when given
    ([7, 9, 3], 9, 3),         # flag > 0: the flag itself (the inner if's then branch)
    ([7, 9, -4], 9, 9),        # flag <= 0: the second (the inner if's else branch)
])
def test_a_handle_rebound_under_an_if_is_the_taken_branchs(attrs: list, picked: int, nested: int) -> None:
    result = run_tiling(SRC, rows=5, cols=6, attrs=attrs)
    assert_tiled(result)
    assert result.fields["picked"] == picked
    assert result.fields["nested"] == nested
    assert result.fields["early"] == picked
    assert result.fields["rows"] == 5


STR_SRC = """
#include <type_traits>
namespace optiling {
struct PTiling { int32_t isChar; };

template <typename StrPtrT>
inline int32_t IsCharPointer(StrPtrT p)
{
    using PointeeT = std::remove_cv_t<std::remove_pointer_t<StrPtrT>>;
    if constexpr (std::is_same_v<PointeeT, char>) {
        return 1;
    } else {
        return p->size() > 0 ? 2 : 3;
    }
}

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->isChar = IsCharPointer(context->GetAttrs()->GetStr(0));
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("mode").AttrType(REQUIRED).String("sum");')


def test_remove_pointer_of_an_attribute_pointer_is_its_element_type() -> None:
    result = run_tiling(STR_SRC, attrs=["mean"])
    assert_tiled(result)
    assert result.fields["isChar"] == 1
