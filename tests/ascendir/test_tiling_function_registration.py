"""Which host function is the op's tiling function: the one `IMPL_OP_OPTILING(Op).Tiling(f)` registers, whose chain
calls the parser keeps with a plain name as callee, and never a tiling class's constructor that takes the
`gert::TilingContext *` (NPUKernelBench GeluQuant: `GeluQuantTiling(context)` was run as the tiling function, which
returned success without SetBlockDim or a tiling key, so the kernel ran no branch)."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling, find_tiling_function
from frontend.pipeline import load_text

SOURCE = """
namespace optiling {
struct DemoTilingData { uint32_t rows; };
class DemoTiling {
public:
    explicit DemoTiling(gert::TilingContext *context) : context_(context) {}
    ge::graphStatus Run()
    {
        DemoTilingData *t = context_->GetTilingData<DemoTilingData>();
        t->rows = 7;
        context_->SetBlockDim(4);
        context_->SetTilingKey(3);
        return ge::GRAPH_SUCCESS;
    }
private:
    gert::TilingContext *context_ = nullptr;
};

static ge::graphStatus TilingForDemo(gert::TilingContext *context)
{
    DemoTiling tiling(context);
    return tiling.Run();
}

IMPL_OP_OPTILING(DemoOp).Tiling(TilingForDemo);
}
"""


def test_the_registered_function_not_the_class_constructor() -> None:
    program = load_text(SOURCE, "demo.cpp")
    found = find_tiling_function([u.ast for u in program.units])
    assert found is not None and found.name.parts[-1].name == "TilingForDemo"
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((8, 64), "float16")], chip="910B2"))
    assert result.succeeded, result.diagnostics
    assert result.block_dim == 4 and result.tiling_key == 3
    assert result.fields == {"rows": 7}
