"""`typename T::Layout` names the member alias of the class T is, even where the enclosing namespace has a class
template of that name (C++ [basic.lookup.qual]/1, [class.qual]/1: a name after `Class::` is looked up in that
class). Issue 29: catlass's tla::Tensor declares `using Layout = Layout_;` beside the class template tla::Layout,
and PaddingMatrixBlockND picks its copy with `if constexpr (std::is_same_v<typename Tensor::Layout, LayoutInner>)`.
Before, `typename Tensor::Layout` was read as the template tla::Layout itself, the test was false for the very
type it names, and 14_optimized_matmul_tla's padding transposed a row-major A (its reads ran 2^31 elements past
the input). Our own miniature of the idiom."""

from __future__ import annotations

import numpy as np

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <type_traits>
namespace mini {
template <class S, class D>
struct Layout {
    S rows;
    D stride;
};
template <class Buffer, class Layout_>
struct Tensor {
    using Layout = Layout_;
    Buffer data;
};
using RowLayout = Layout<uint32_t, int64_t>;
template <class TensorIn>
struct Pad {
    using LayoutInner = Layout<uint32_t, int64_t>;
    template <class T>
    __aicore__ inline int32_t Kind(T const &) const
    {
        if constexpr (std::is_same_v<typename T::Layout, LayoutInner>) {
            return 1;
        } else {
            return 2;
        }
    }
    __aicore__ inline int32_t Direct() const
    {
        return std::is_same_v<typename TensorIn::Layout, LayoutInner> ? 1 : 2;
    }
};
}

extern "C" __global__ __aicore__ void member_alias(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 6);
    using Rows = mini::Tensor<int32_t, mini::RowLayout>;
    using Cols = mini::Tensor<int32_t, mini::Layout<uint32_t, int32_t>>;
    Rows rows;
    Cols cols;
    mini::Pad<Rows> pad;
    yg.SetValue(0, pad.Kind(rows));
    yg.SetValue(1, pad.Kind(cols));
    yg.SetValue(2, pad.Direct());
    yg.SetValue(3, std::is_same_v<typename Rows::Layout, mini::RowLayout> ? 1 : 2);
    yg.SetValue(4, std::is_same_v<Cols::Layout, mini::RowLayout> ? 1 : 2);
    yg.SetValue(5, sizeof(typename Rows::Layout));
}
"""


def test_a_qualified_name_is_the_classs_member_alias() -> None:
    result = run(SOURCE, [np.zeros(8, np.int32)], block_dim=1, outputs={"y": np.zeros(6, np.int32)})
    assert result.ok, result.findings
    # Rows' Layout is LayoutInner, Cols' is another instance; sizeof the member alias is the Layout<uint32_t,
    # int64_t> instance's 16 bytes (a template named without arguments has no size)
    assert result.outputs["y"].tolist() == [1, 2, 1, 1, 2, 16]
