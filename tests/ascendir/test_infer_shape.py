"""InferShape functions: found in an op project's host code, lowered to the `host` dialect and run on
concrete input shapes (`evaluate_program_infer_shape`)."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.parser import Parser
from xdsl.printer import Printer

from ascendir.dialects import host
from ascendir.host_eval import AttrValue, TensorSpec, TilingInputs, evaluate_infer_shape
from ascendir.lower.host import (
    InferShapeResult,
    evaluate_program_infer_shape,
    evaluate_program_tiling,
    find_infer_shape_function,
    lower_host_infer_shape,
)
from frontend.pipeline import Program, load_text

FAILED = host.GRAPH_FAILED
X4 = TensorSpec((8, 16, 32, 32), "float32")

OP_DEF = """
namespace ops {
class PoolCustom : public OpDef {
public:
    explicit PoolCustom(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("kernel_size").Int();
        this->SetInferShape(ge::REGISTERED);
    }
};
OP_ADD(PoolCustom);
}
"""


def project(infer_shape: str, registered: str = "InferShape") -> Program:
    """An op_host source holding `infer_shape` (in namespace ge) and an OpDef registering `registered`."""
    source = f'#include "register/op_def_registry.h"\nnamespace ge {{\n{infer_shape}\n}}\n'
    return load_text(source + OP_DEF.replace("REGISTERED", registered), "op_host/pool_custom.cpp")


def run(infer_shape: str, *inputs: TensorSpec | None, attrs: list[AttrValue | None] | None = None,
        registered: str = "InferShape") -> InferShapeResult:
    spec = TilingInputs(list(inputs), attrs=list(attrs or []))
    return evaluate_program_infer_shape(project(infer_shape, registered), spec)


def shapes_of(result: InferShapeResult) -> list[tuple[int, ...] | None]:
    assert result.succeeded, result.diagnostics
    assert result.complete, result.diagnostics
    return result.outputs


# ----------------------------------------------------------------------------------------------------
# The forms real op projects use
# ----------------------------------------------------------------------------------------------------

COPY = """
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
    const gert::Shape* x1_shape = context->GetInputShape(0);
    gert::Shape* y_shape = context->GetOutputShape(0);
    *y_shape = *x1_shape;
    return GRAPH_SUCCESS;
}
"""


@pytest.mark.parametrize("shape", [(8, 16, 32, 32), (7,), ()])
def test_copy_of_the_input_shape(shape: tuple[int, ...]) -> None:
    result = run(COPY, TensorSpec(shape, "float16"))
    assert result.status == host.GRAPH_SUCCESS
    assert shapes_of(result) == [shape]
    assert result.diagnostics == []


POOL = """
static ge::graphStatus InferShape(gert::InferShapeContext *context) {
    const gert::Shape *inputShape = context->GetInputShape(0);
    if (inputShape == nullptr || inputShape->GetDimNum() != 4) { return GRAPH_FAILED; }
    const auto *attrs = context->GetAttrs();
    const int64_t *kernelSize = attrs->GetAttrPointer<int64_t>(0);
    if (kernelSize == nullptr || *kernelSize <= 0) { return GRAPH_FAILED; }
    gert::Shape *outputShape = context->GetOutputShape(0);
    outputShape->SetDimNum(4);
    outputShape->SetDim(0, inputShape->GetDim(0));
    outputShape->SetDim(1, inputShape->GetDim(1));
    outputShape->SetDim(2, (inputShape->GetDim(2) - *kernelSize) / *kernelSize + 1);
    outputShape->SetDim(3, (inputShape->GetDim(3) - *kernelSize) / *kernelSize + 1);
    return ge::GRAPH_SUCCESS;
}
"""


@pytest.mark.parametrize(("shape", "kernel", "expected"), [
    ((8, 16, 32, 32), 2, (8, 16, 16, 16)),
    ((8, 16, 32, 32), 4, (8, 16, 8, 8)),
    ((2, 3, 9, 7), 3, (2, 3, 3, 2)),
])
def test_set_dim_num_and_set_dim_with_an_attribute(shape: tuple[int, ...], kernel: int,
                                                   expected: tuple[int, ...]) -> None:
    assert shapes_of(run(POOL, TensorSpec(shape, "float32"), attrs=[kernel])) == [expected]


def test_a_failure_branch_taken_is_a_failed_status() -> None:
    result = run(POOL, TensorSpec((8, 32, 32), "float32"), attrs=[2])  # rank 3: `return GRAPH_FAILED`
    assert result.status == FAILED
    assert not result.succeeded
    assert result.complete  # the function itself said no: nothing was left out
    assert result.outputs == []
    assert result.failure_op is not None
    assert result.diagnostics == ["InferShape returned ge::GRAPH_FAILED"]
    # and through the attribute check
    assert run(POOL, X4, attrs=[0]).status == FAILED


def test_an_attribute_not_given() -> None:
    # checked against nullptr, it is an absent attribute
    assert run(POOL, X4).status == FAILED
    # read without a check, the inputs lack it
    source = POOL.replace("kernelSize == nullptr || ", "")
    result = run(source, X4)
    assert result.status is None and not result.succeeded
    assert result.missing_inputs
    assert any("reads attribute 0 but only 0 attributes were given" in d for d in result.diagnostics)


def test_braced_initializer_assigns_the_whole_shape() -> None:
    source = """
    static graphStatus InferShape(gert::InferShapeContext *context) {
        const gert::Shape *xShape = context->GetInputShape(0);
        gert::Shape *yShape = context->GetOutputShape(0);
        *yShape = {xShape->GetDim(0), xShape->GetDim(2)};
        return GRAPH_SUCCESS;
    }
    """
    assert shapes_of(run(source, X4)) == [(8, 32)]
    assert shapes_of(run(source, TensorSpec((3, 5, 7), "float16"))) == [(3, 7)]


def test_append_dim_and_a_local_shape() -> None:
    # a local gert::Shape is an object of its own: the output gets it as it is when copied
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        const gert::Shape* x = context->GetInputShape(0);
        gert::Shape out;
        for (size_t i = 0; i + 1 < x->GetDimNum(); ++i) {
            out.AppendDim(x->GetDim(i));
        }
        out.AppendDim(x->GetShapeSize()).AppendDim(1);
        gert::Shape* y = context->GetOutputShape(0);
        *y = out;
        out.AppendDim(99);
        return ge::GRAPH_SUCCESS;
    }
    """
    assert shapes_of(run(source, TensorSpec((2, 3, 4), "float32"))) == [(2, 3, 24, 1)]


def test_append_dim_on_the_output() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        const gert::Shape* x = context->GetInputShape(0);
        gert::Shape* y = context->GetOutputShape(0);
        y->AppendDim(x->GetDim(0));
        y->AppendDim(x->GetDim(1) * 2);
        return ge::GRAPH_SUCCESS;
    }
    """
    assert shapes_of(run(source, X4)) == [(8, 32)]


def test_a_dim_loop_and_reading_the_output_back() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        const gert::Shape* x = context->GetInputShape(0);
        gert::Shape* y = context->GetOutputShape(0);
        y->SetDimNum(x->GetDimNum());
        for (size_t i = 0; i < x->GetDimNum(); ++i) {
            y->SetDim(i, x->GetDim(i));
        }
        size_t last = y->GetDimNum() - 1;
        y->SetDim(last, y->GetDim(last) / 2);
        if (y->GetShapeSize() != x->GetShapeSize() / 2) {
            return ge::GRAPH_FAILED;
        }
        return ge::GRAPH_SUCCESS;
    }
    """
    assert shapes_of(run(source, X4)) == [(8, 16, 32, 16)]
    assert shapes_of(run(source, TensorSpec((6,), "float32"))) == [(3,)]


def test_set_dim_num_keeps_what_the_shape_held() -> None:
    # gert::Shape keeps its dims in a fixed array: SetDimNum only moves the rank
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        gert::Shape* y = context->GetOutputShape(0);
        *y = *context->GetInputShape(0);
        y->SetDimNum(2);
        y->SetDimNum(3);
        gert::Shape* z = context->GetOutputShape(1);
        z->SetDimNum(2);
        return ge::GRAPH_SUCCESS;
    }
    """
    assert shapes_of(run(source, X4)) == [(8, 16, 32), (0, 0)]


def test_references_copies_and_operator_index() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        const gert::Shape& x = *context->GetInputShape(0);
        gert::Shape& y = *context->GetOutputShape(0);
        y = x;
        y[1] = x[0] + x[3];
        gert::Shape copy = y;
        copy.SetDim(0, 99);
        const gert::Shape before = y;
        y.SetDim(0, 5);
        y.AppendDim(before.GetDim(0) + copy.GetDim(0));
        return ge::GRAPH_SUCCESS;
    }
    """
    # `copy` and `before` are copies: writes to one do not reach the other
    assert shapes_of(run(source, X4)) == [(5, 40, 32, 32, 8 + 99)]


def test_input_tensors_and_descs() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        auto a = context->GetInputTensor(0)->GetOriginShape();
        auto b = context->GetInputTensor(1)->GetOriginShape();
        if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
            return GRAPH_FAILED;
        }
        int64_t n = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1;
        *context->GetOutputShape(0) = {a.GetDim(0), b.GetDim(1) * n};
        return GRAPH_SUCCESS;
    }
    """
    a, b = TensorSpec((4, 8), "float16"), TensorSpec((8, 3), "float16")
    assert shapes_of(run(source, a, b)) == [(4, 6)]
    assert shapes_of(run(source, TensorSpec((4, 8), "float32"), b)) == [(4, 3)]
    assert run(source, a, TensorSpec((7, 3), "float16")).status == FAILED


def test_helper_functions_take_the_context() -> None:
    source = """
    static int64_t OutLength(const gert::Shape* x, int64_t k) { return (x->GetDim(2) - k) / k + 1; }

    static ge::graphStatus FillPooled(gert::InferShapeContext* ctx, gert::Shape* out) {
        const gert::Shape* x = ctx->GetInputShape(0);
        const int64_t k = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
        *out = gert::Shape({x->GetDim(0), x->GetDim(1), OutLength(x, k)});
        return ge::GRAPH_SUCCESS;
    }

    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        return FillPooled(context, context->GetOutputShape(0));
    }
    """
    assert shapes_of(run(source, X4, attrs=[4])) == [(8, 16, 8)]


OPTIONAL = """
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
    const gert::Shape* bias = context->GetOptionalInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    if (bias == nullptr) {
        *y = *context->GetInputShape(0);
        return ge::GRAPH_SUCCESS;
    }
    *y = *bias;
    return ge::GRAPH_SUCCESS;
}
"""


def test_an_optional_input_is_read_only_past_its_null_check() -> None:
    assert shapes_of(run(OPTIONAL, X4, None)) == [(8, 16, 32, 32)]
    assert shapes_of(run(OPTIONAL, X4, TensorSpec((16,), "float32"))) == [(16,)]


def test_the_registered_function_is_the_one_run() -> None:
    # SetInferShape names the function; another one called InferShape is not used
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        context->GetOutputShape(0)->AppendDim(1);
        return ge::GRAPH_SUCCESS;
    }
    static ge::graphStatus InferShapeForPool(gert::InferShapeContext* context) {
        context->GetOutputShape(0)->AppendDim(2);
        return ge::GRAPH_SUCCESS;
    }
    """
    assert shapes_of(run(source, X4, registered="ge::InferShapeForPool")) == [(2,)]
    assert shapes_of(run(source, X4, registered="NotDefinedHere")) == [(1,)]
    units = [u.ast for u in project(source, "InferShapeForPool").units]
    found = find_infer_shape_function(units)
    assert found is not None and found.name.parts[-1].name == "InferShapeForPool"


def test_a_function_named_like_infershape_is_found() -> None:
    source = """
    static ge::graphStatus PoolInfershapeImpl(gert::InferShapeContext* context) {
        *context->GetOutputShape(0) = {5, 6};
        return ge::GRAPH_SUCCESS;
    }
    """
    assert shapes_of(run(source, X4, registered="Unrelated")) == [(5, 6)]


def test_no_infer_shape_function() -> None:
    source = """
    static ge::graphStatus TilingFunc(gert::TilingContext* context) {
        context->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    """
    prog = project(source, "Unrelated")
    assert find_infer_shape_function([u.ast for u in prog.units]) is None
    result = evaluate_program_infer_shape(prog, TilingInputs([X4]))
    assert result.status is None and not result.succeeded
    assert result.outputs == []
    assert len(result.diagnostics) == 1 and "no InferShape function" in result.diagnostics[0]
    assert "ASC121" in result.diagnostics[0]
    # the tiling function beside it is still found and run as before
    assert evaluate_program_tiling(prog, TilingInputs([X4])).block_dim == 1


def test_the_tiling_function_beside_it_is_not_changed() -> None:
    source = """
    static ge::graphStatus TilingFunc(gert::TilingContext* context) {
        const gert::Shape x = context->GetInputShape(0)->GetOriginShape();
        context->SetBlockDim(x.GetDim(0));
        return ge::GRAPH_SUCCESS;
    }
    """ + COPY
    prog = project(source)
    tiling = evaluate_program_tiling(prog, TilingInputs([X4]))
    assert tiling.succeeded and tiling.block_dim == 8
    assert shapes_of(evaluate_program_infer_shape(prog, TilingInputs([X4]))) == [(8, 16, 32, 32)]


# ----------------------------------------------------------------------------------------------------
# What goes wrong: diagnostics, never exceptions
# ----------------------------------------------------------------------------------------------------


def test_set_dim_past_the_rank_is_a_failure_of_the_function() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        gert::Shape* y = context->GetOutputShape(0);
        y->SetDim(0, 4);
        return ge::GRAPH_SUCCESS;
    }
    """
    result = run(source, X4)
    assert not result.succeeded
    assert result.status is None
    assert result.failure_op is not None and result.failure_op.name == "host.shape_set_dim"
    assert any("SetDim(0) on a shape of rank 0" in d for d in result.diagnostics)


def test_an_output_left_unset_is_reported() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        gert::Shape* y = context->GetOutputShape(0);
        gert::Shape* indices = context->GetOutputShape(1);
        *indices = *context->GetInputShape(0);
        return ge::GRAPH_SUCCESS;
    }
    """
    result = run(source, X4)
    assert result.succeeded
    assert result.outputs == [None, (8, 16, 32, 32)]
    assert result.diagnostics == ["InferShape succeeded without writing the shape of output 0"]


def test_writing_an_input_shape_does_not_compile() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        const gert::Shape* x = context->GetInputShape(0);
        x->SetDim(0, 1);
        *context->GetOutputShape(0) = *x;
        return ge::GRAPH_SUCCESS;
    }
    """
    result = run(source, X4)
    assert result.status is None and not result.succeeded
    assert any("'SetDim' writes a const gert::Shape" in d and "error" in d for d in result.diagnostics)


def test_a_tiling_context_method_is_unknown_on_an_infer_shape_context() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        context->SetBlockDim(4);
        *context->GetOutputShape(0) = *context->GetInputShape(0);
        return ge::GRAPH_SUCCESS;
    }
    """
    result = run(source, X4)
    assert result.status is None
    assert any("no member named 'SetBlockDim' in 'gert::InferShapeContext'" in d for d in result.diagnostics)


def test_what_is_not_modelled_is_a_diagnostic_and_the_result_is_incomplete() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        const gert::Shape* x = context->GetInputShape(0);
        std::set<int64_t> dims;
        for (size_t i = 0; i < x->GetDimNum(); ++i) {
            dims.insert(x->GetDim(i));
        }
        gert::Shape* y = context->GetOutputShape(0);
        y->SetDimNum(1);
        y->SetDim(0, x->GetShapeSize());
        return ge::GRAPH_SUCCESS;
    }
    """
    result = run(source, X4)
    assert not result.complete
    assert any("'set' objects are not modelled" in d for d in result.diagnostics)
    # what could be lowered still ran
    assert result.status == host.GRAPH_SUCCESS and result.outputs == [(8 * 16 * 32 * 32,)]


def test_a_dynamic_input_is_not_modelled() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        const gert::Shape* x = context->GetDynamicInputShape(0, 1);
        *context->GetOutputShape(0) = *x;
        return ge::GRAPH_SUCCESS;
    }
    """
    result = run(source, X4)
    assert not result.complete
    assert any("InferShapeContext::GetDynamicInputShape is not modelled" in d for d in result.diagnostics)
    # the copy from it is left out too; what is left returns success without setting the output
    assert result.outputs == []
    assert result.diagnostics[-1] == "InferShape succeeded without writing any output shape"


def test_a_loop_that_never_ends_is_stopped() -> None:
    source = """
    static ge::graphStatus InferShape(gert::InferShapeContext* context) {
        gert::Shape* y = context->GetOutputShape(0);
        y->SetDimNum(1);
        for (int64_t i = 0; i >= 0; i += 0) { y->SetDim(0, i); }
        return ge::GRAPH_SUCCESS;
    }
    """
    result = evaluate_program_infer_shape(project(source), TilingInputs([X4]), step_budget=5_000)
    assert result.status is None and not result.succeeded
    assert any("step budget exhausted" in d for d in result.diagnostics)


# ----------------------------------------------------------------------------------------------------
# The IR
# ----------------------------------------------------------------------------------------------------


def make_context() -> Context:
    ctx = Context()
    for dialect in (arith.Arith, builtin.Builtin, func.Func, memref.MemRef, scf.Scf, host.Host):
        ctx.load_dialect(dialect)
    return ctx


def test_lowered_infer_shape_ir() -> None:
    lowered = lower_host_infer_shape(project(COPY))
    assert lowered.diagnostics == [] and lowered.module is not None
    assert lowered.func_name == "InferShape" and lowered.struct_name is None
    text = str(lowered.module)
    assert "func.func @InferShape(%context: !host.infer_shape_context) -> i32" in text
    assert "host.input_shape %context[0] origin of !host.infer_shape_context" in text
    assert "host.shape_assign" in text
    # printed IR reads back as the same module
    reparsed = Parser(make_context(), text).parse_module()
    reparsed.verify()
    assert str(reparsed) == text


HAND_WRITTEN = """
func.func @InferShape(%ctx: !host.infer_shape_context) -> i32 {
  %x = host.input_shape %ctx[0] origin of !host.infer_shape_context
  %has = host.has_input %ctx[1] of !host.infer_shape_context
  %k = host.attr %ctx[0] of !host.infer_shape_context : i64
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n = host.shape_dim %x[%c0]
  %y = host.output_shape_buffer %ctx[0]
  %s = host.make_shape(%n, %k)
  host.shape_assign %y, %s
  %tmp = host.shape_local
  host.shape_set_dim_num %tmp, %c1
  host.shape_set_dim %tmp[%c0], %k
  host.shape_append_dim %tmp, %n
  %read = host.shape_read %tmp
  %z = host.output_shape_buffer %ctx[1]
  host.shape_assign %z, %read
  %ok = arith.constant 0 : i32
  func.return %ok : i32
}
"""


def test_hand_written_ir_roundtrips_and_runs() -> None:
    module = Parser(make_context(), HAND_WRITTEN).parse_module()
    module.verify()
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    Parser(make_context(), out.getvalue()).parse_module().verify()
    assert str(Parser(make_context(), str(module)).parse_module()) == str(module)
    result = evaluate_infer_shape(module, "InferShape", TilingInputs([X4], attrs=[3]))
    assert result.succeeded and result.diagnostics == []
    assert result.outputs == [(8, 3), (3, 8)]


def test_the_tiling_context_prints_as_before() -> None:
    # the shared queries leave the tiling context's type implicit
    text = """
    func.func @TilingFunc(%ctx: !host.tiling_context) -> i32 {
      %x = host.input_shape %ctx[0] origin
      %a = host.attr %ctx[0] : i64
      %ok = arith.constant 0 : i32
      func.return %ok : i32
    }
    """
    module = Parser(make_context(), text).parse_module()
    printed = str(module)
    assert "host.input_shape %ctx[0] origin\n" in printed
    assert "host.attr %ctx[0] : i64" in printed
    # an InferShape function is not a tiling function, nor the other way round
    assert evaluate_infer_shape(module, "TilingFunc", TilingInputs([X4])).diagnostics == [
        "TilingFunc must take one !host.infer_shape_context, it takes (!host.tiling_context)"
    ]


def test_unknown_dim_constants() -> None:
    # graph/types.h's ge::UNKNOWN_DIM (-1) and UNKNOWN_DIM_NUM (-2), as NPUKernelBench CrossEntropyLoss's
    # InferShape compares dims with them; before, an undeclared identifier (ASC102) and nothing ran
    result = run("""
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    if (x->GetDim(0) == UNKNOWN_DIM || x->GetDimNum() == ge::UNKNOWN_DIM_NUM) {
        return GRAPH_FAILED;
    }
    *y = *x;
    return GRAPH_SUCCESS;
}
""", X4)
    assert shapes_of(result) == [(8, 16, 32, 32)]


def test_compute_node_input_and_output_counts() -> None:
    # GetComputeNodeInputNum: the inputs given (an absent optional one is no node input); GetComputeNodeOutputNum:
    # the outputs the OpDef declares (PoolCustom: one). NPUKernelBench AddLayerNorm's InferShape checks both;
    # before, they were not modelled (ASC103) and the InferShape did not run
    source = """
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
    if (context->GetComputeNodeInputNum() != 1 || context->GetComputeNodeOutputNum() != 1) {
        return GRAPH_FAILED;
    }
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
"""
    assert shapes_of(run(source, X4, None)) == [(8, 16, 32, 32)]
    assert run(source, X4, TensorSpec((32,), "float32")).status == FAILED  # two inputs given


def test_project_context_reads_host_ir() -> None:
    """ascendir.text.parse_ir (the context ascendir-opt uses) knows the host dialect: it failed to import it
    under an old name and parsed no host op."""
    from ascendir.text import parse_ir

    lowered = lower_host_infer_shape(project(COPY))
    assert lowered.module is not None
    text = str(lowered.module)
    assert str(parse_ir(text)) == text
