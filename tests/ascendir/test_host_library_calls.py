"""Host tiling functions that print, ask the type utilities for sizes, or compare with every ge::DataType.

The NPUKernelBench reference answers do all three (`std::cout << ... << std::endl` after setting the tiling,
`ge::TypeUtils::GetDataTypeLength`, `ge::DT_UNDEFINED` as a "none yet" marker); each used to stop the host
interpreter, so none of those answers could be run.
"""

from __future__ import annotations

from ascendir.dialects import host
from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

PRINTING = """
namespace optiling {
struct PrintTilingData { uint32_t n; uint32_t calls; };
static uint32_t Counted(uint32_t &calls) { calls += 1; return calls; }
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    PrintTilingData *t = context->GetTilingData<PrintTilingData>();
    uint32_t n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t calls = 0;
    t->n = n;
    std::cout << "n = " << t->n << ", blocks " << n / 16 << std::endl;
    std::cerr << "calls " << Counted(calls) << std::endl;   // an operand with an effect still runs
    t->calls = calls;
    context->SetBlockDim(2);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_stream_output_changes_nothing_but_its_operands_effects() -> None:
    result = evaluate_program_tiling(load_text(PRINTING, "print_tiling.cpp"), TilingInputs([TensorSpec((4, 8), "float16")]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"n": 32, "calls": 1}
    assert result.block_dim == 2


def test_a_program_stream_named_cout_is_not_the_standard_one() -> None:
    # a variable of the program's own named `cout` is shifted like any integer
    source = PRINTING.replace("uint32_t calls = 0;", "uint32_t calls = 0; uint32_t cout = 3;").replace(
        'std::cout << "n = " << t->n << ", blocks " << n / 16 << std::endl;', "t->n = cout << 2;")
    result = evaluate_program_tiling(load_text(source, "print_tiling.cpp"), TilingInputs([TensorSpec((4, 8), "float16")]))
    assert result.diagnostics == []
    assert result.fields["n"] == 12


DTYPES = """
namespace optiling {
struct SizeTilingData { uint32_t bytes; uint32_t known; uint32_t undefined; uint32_t complex; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SizeTilingData *t = context->GetTilingData<SizeTilingData>();
    ge::DataType dtype = ge::DT_UNDEFINED;
    dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeLength = 0;
    bool known = ge::TypeUtils::GetDataTypeLength(dtype, typeLength);
    t->bytes = typeLength;
    t->known = known ? 1 : 0;
    t->undefined = ge::DT_UNDEFINED;
    t->complex = ge::DT_COMPLEX64;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_data_type_length_and_every_data_type_value() -> None:
    program = load_text(DTYPES, "size_tiling.cpp")
    for dtype, size in (("float16", 2), ("float32", 4), ("int8", 1), ("bfloat16", 2), ("int64", 8)):
        result = evaluate_program_tiling(program, TilingInputs([TensorSpec((8,), dtype)]))
        assert result.diagnostics == [], dtype
        assert result.status == host.GRAPH_SUCCESS
        # graph/types.h: DT_UNDEFINED = 28, DT_COMPLEX64 = 16
        assert result.fields == {"bytes": size, "known": 1, "undefined": 28, "complex": 16}, dtype


ATTRS = """
namespace optiling {
struct AttrTilingData { int32_t rows; int32_t fromList; int32_t flag; int32_t asInt; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    AttrTilingData *t = context->GetTilingData<AttrTilingData>();
    t->rows = *context->GetAttrs()->GetInt(0);
    t->fromList = *context->GetAttrs()->GetInt(1);   // a ListInt attribute read as an int
    t->flag = *context->GetAttrs()->GetBool(2) ? 5 : 6;
    t->asInt = *context->GetAttrs()->GetInt(3);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_attributes_read_as_the_framework_stores_them() -> None:
    # the harness passes 1/0 for a bool attribute (test_cases.csv as the benchmark types it); an int read of a
    # list attribute lands on its ContinuousVector's first word, the element count
    result = evaluate_program_tiling(load_text(ATTRS, "attr_tiling.cpp"),
                                     TilingInputs([TensorSpec((4,), "float16")], attrs=[3, [48, 2], 1, True]))
    assert result.succeeded, result.diagnostics
    assert result.fields == {"rows": 3, "fromList": 2, "flag": 5, "asInt": 1}


TEMPLATED = """
namespace optiling {
enum GLU_FLAG { SWIGLU_SINGLE = 0, SWIGLU_GRAD_SINGLE = 1 };
#define unlikely(x) __builtin_expect((x), 0)
struct GluTilingData { uint32_t selfIdx; uint32_t n; };
template <GLU_FLAG Glu_Flag>
inline uint32_t GetSelfIdx() { return Glu_Flag == GLU_FLAG::SWIGLU_GRAD_SINGLE ? 1 : 0; }
template <GLU_FLAG Glu_Flag>
ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    GluTilingData *t = context->GetTilingData<GluTilingData>();
    uint32_t n = context->GetInputShape(GetSelfIdx<Glu_Flag>())->GetOriginShape().GetShapeSize();
    if (unlikely(n == 0)) {
        return ge::GRAPH_PARAM_INVALID;
    }
    t->selfIdx = GetSelfIdx<Glu_Flag>();
    t->n = n;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class SwiGlu : public OpDef {
public:
    explicit SwiGlu(const char *name) : OpDef(name)
    {
        this->AICore().SetTiling(optiling::TilingFunc<optiling::SWIGLU_GRAD_SINGLE>);
    }
};
}
"""


def test_a_tiling_function_template_gets_the_registrations_arguments() -> None:
    # SetTiling(TilingFunc<SWIGLU_GRAD_SINGLE>): Glu_Flag is bound, so GetSelfIdx picks input 1
    program = load_text(TEMPLATED, "glu_tiling.cpp")
    shapes = [TensorSpec((4,), "float16"), TensorSpec((2, 3), "float16")]
    result = evaluate_program_tiling(program, TilingInputs(shapes))
    assert result.succeeded, result.diagnostics
    assert result.fields == {"selfIdx": 1, "n": 6}
    empty = evaluate_program_tiling(program, TilingInputs([shapes[0], TensorSpec((0,), "float16")]))
    assert empty.status == 50331649 and not empty.succeeded  # ge::GRAPH_PARAM_INVALID


GLOBALS = """
namespace optiling {
struct TableTilingData { uint32_t typeSize; uint32_t perType; uint32_t calls; };
uint32_t typeSize = 0;
uint64_t table[4][4] = {};
static uint32_t calls;
void TableInit()
{
    table[1][2] = 7;
    table[2][1] = 9;
}
static void SetTypeSize(gert::TilingContext *context)
{
    calls += 1;
    if (context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT) {
        typeSize = sizeof(float);
    } else {
        typeSize = 2;
    }
}
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    TableTilingData *t = context->GetTilingData<TableTilingData>();
    SetTypeSize(context);
    SetTypeSize(context);
    TableInit();
    t->typeSize = typeSize;
    t->perType = table[typeSize / 2][3 - typeSize / 2];
    t->calls = calls;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_namespace_scope_variables_the_function_writes() -> None:
    # a global scalar set in a helper, a table filled by an init function, a static counter (zero-initialised)
    program = load_text(GLOBALS, "globals_tiling.cpp")
    fp32 = evaluate_program_tiling(program, TilingInputs([TensorSpec((4,), "float32")]))
    assert fp32.succeeded, fp32.diagnostics
    assert fp32.fields == {"typeSize": 4, "perType": 9, "calls": 2}
    fp16 = evaluate_program_tiling(program, TilingInputs([TensorSpec((4,), "float16")]))
    assert fp16.fields == {"typeSize": 2, "perType": 7, "calls": 2}


GLOBAL_STRUCT = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(GlobalTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GlobalOp, GlobalTilingData)
GlobalTilingData globalTiling;
static void Fill(uint32_t n) { globalTiling.set_n(n); }
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    Fill(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    globalTiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(globalTiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_a_tiling_struct_object_at_namespace_scope() -> None:
    result = evaluate_program_tiling(load_text(GLOBAL_STRUCT, "global_tiling.cpp"),
                                     TilingInputs([TensorSpec((3, 5), "float16")]))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"n": 15} and result.struct_name == "GlobalTilingData"


CONTEXT_READS = """
namespace optiling {
struct ReadTilingData { uint32_t dim; uint32_t nd; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ReadTilingData *t = context->GetTilingData<ReadTilingData>();
    context->SetBlockDim(6);
    t->dim = context->GetBlockDim() * 2;
    t->nd = context->GetInputDesc(0)->GetOriginFormat() == ge::FORMAT_ND &&
            context->GetInputTensor(0)->GetStorageFormat() == 2;
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_block_dim_read_back_and_nd_formats() -> None:
    result = evaluate_program_tiling(load_text(CONTEXT_READS, "read_tiling.cpp"),
                                     TilingInputs([TensorSpec((4,), "float16")]))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"dim": 12, "nd": 1}


BITS = """
namespace optiling {
struct BitsTilingData { uint32_t epsBits; uint32_t aveBits; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    BitsTilingData *t = context->GetTilingData<BitsTilingData>();
    float eps = *context->GetAttrs()->GetFloat(0);
    float ave = 1.0f / context->GetInputShape(0)->GetOriginShape().GetDim(0);
    t->epsBits = *reinterpret_cast<uint32_t *>(&eps);
    t->aveBits = *reinterpret_cast<uint32_t *>(&ave);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_a_float_read_as_its_bits() -> None:
    # `*reinterpret_cast<uint32_t *>(&eps)`: the float's bit pattern, as DeepNorm passes eps to its kernel
    result = evaluate_program_tiling(load_text(BITS, "bits_tiling.cpp"),
                                     TilingInputs([TensorSpec((4,), "float16")], attrs=[1e-6]))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"epsBits": 0x358637BD, "aveBits": 0x3E800000}
