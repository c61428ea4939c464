"""Host tiling functions lowered from the C++ of real op projects and run for concrete shapes.

Expected values are worked out by hand from the C++ (the comments show the arithmetic) for the 910B2
numbers the evaluator uses: 48 AIV / 24 AIC cores, 192 KiB of UB, a 16 MiB library workspace.
"""

from __future__ import annotations

import functools
import struct
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, math, memref, scf
from xdsl.parser import Parser
from xdsl.printer import Printer

from ascendir.dialects import host
from ascendir.host_eval import AttrValue, TensorSpec, TilingInputs, TilingResult
from ascendir.lower.host import evaluate_program_tiling, lower_host_tiling
from frontend.diagnostics import Severity
from frontend.pipeline import Program, load, load_text

CLEAN = Path(__file__).parents[1] / "corpus" / "clean"
SYNTAX_ERRORS = Path(__file__).parents[1] / "corpus" / "syntax_errors"
LIB_WS = 16 * 1024 * 1024  # GetLibApiWorkSpaceSize() on 910B2
FAILED = host.GRAPH_FAILED


def f32(value: float) -> float:
    """`value` rounded to a C++ float, as the tiling struct stores it."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


@functools.cache
def program(relative: str) -> Program:
    return load(str(CLEAN / relative))


def run(relative: str, inputs: list[TensorSpec | None], attrs: list[AttrValue | None] | None = None) -> TilingResult:
    return evaluate_program_tiling(program(relative), TilingInputs(inputs, attrs=attrs or []))


def fp(shape: tuple[int, ...], dtype: str) -> TensorSpec:
    return TensorSpec(shape, dtype)


# ----------------------------------------------------------------------------------------------------
# add_custom: legacy BEGIN_TILING_DATA_DEF object filled with set_*, switch on the dtype, UB size
# through GetCoreMemSize's reference argument, SaveToBuffer
# ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "dtype", "block_dim", "fields"),
    [
        # fp16: 16384 elements, 16 per 32-byte block -> 1024 blocks over 48 cores: 21 each, 1024 % 48 = 16
        # cores take one more; formerLength = 22 * 16, tailLength = 21 * 16; tileLength = 196352 / (3 * 2)
        # / 2 = 16362 -> multiple of 16 -> capped at 8192
        ((8, 2048), "float16", 48,
         {"totalLength": 16384, "formerNum": 16, "formerLength": 352, "tailLength": 336, "tileLength": 8192}),
        # fp32: 1000 elements, 8 per block -> 125 blocks: 2 per core, 125 - 96 = 29 cores take 3;
        # formerLength = 3 * 8, tailLength = 2 * 8; tileLength = (196608 - 256) / 6 / 4 = 8181 -> 8176 (the UB
        # size GetCoreMemSize reports on the 910B family keeps 256 bytes back for the library's kfc)
        ((1000,), "float32", 48,
         {"totalLength": 1000, "formerNum": 29, "formerLength": 24, "tailLength": 16, "tileLength": 8176}),
        # int32: 105 elements -> ceil(105 / 8) = 14 blocks < 48 cores -> 14 cores of 1 block, none extra
        ((3, 5, 7), "int32", 14,
         {"totalLength": 105, "formerNum": 0, "formerLength": 16, "tailLength": 8, "tileLength": 8176}),
    ],
)  # fmt: skip
def test_add_custom_legacy_tiling(shape: tuple[int, ...], dtype: str, block_dim: int, fields: dict[str, int]) -> None:
    result = run("projects/add_custom", [fp(shape, dtype), fp(shape, dtype)])
    assert result.diagnostics == []
    assert result.status == host.GRAPH_SUCCESS
    assert result.block_dim == block_dim
    assert result.tiling_key == 1  # SetTilingKey(1)
    assert result.workspace == {0: 0}  # currentWorkspace[0] = 0
    assert result.fields == fields
    assert result.struct_name == "AddCustomTilingData"


def test_add_custom_rejects_an_unlisted_dtype() -> None:
    # int8 falls into `default: return ge::GRAPH_FAILED` before anything is set
    result = run("projects/add_custom", [fp((4, 4), "int8"), fp((4, 4), "int8")])
    assert result.status == FAILED
    assert result.block_dim is None and result.fields == {}
    assert result.diagnostics == ["TilingFunc returned ge::GRAPH_FAILED"]


# ----------------------------------------------------------------------------------------------------
# rms_norm_custom: POD struct through GetTilingData<S>(), memset, optional float attribute with a
# default (`epsPtr != nullptr ? *epsPtr : DEFAULT_EPS`), dtype-dependent alignment and tiling key
# ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "dtype", "eps", "block_dim", "key", "fields"),
    [
        # fp16 [16, 1000]: 16 rows -> ceil(16 / 48) = 1 row per core, 16 cores; 16 halves per 32 bytes
        # -> colsAligned = ceil(1000 / 16) * 16 = 1008; epsilon absent -> 1e-6f; key 0 (fp16)
        ((16, 1000), "float16", None, 16, 0,
         {"numRows": 16, "numCols": 1000, "rowsPerCore": 1, "colsAligned": 1008, "epsilon": f32(1e-6),
          "avgFactor": f32(1 / 1000)}),
        # fp32 [2, 3, 4096]: 6 rows, 1 per core -> 6 cores; 8 floats per block -> 4096; key 1
        ((2, 3, 4096), "float32", 1e-5, 6, 1,
         {"numRows": 6, "numCols": 4096, "rowsPerCore": 1, "colsAligned": 4096, "epsilon": f32(1e-5),
          "avgFactor": 1 / 4096}),
        # bf16 [100, 7]: not DT_FLOAT16, so typeSize 4 and 8 elements per block -> colsAligned 8;
        # rowsPerCore = ceil(100 / 48) = 3, blockDim = ceil(100 / 3) = 34; key 1
        ((100, 7), "bfloat16", 0.5, 34, 1,
         {"numRows": 100, "numCols": 7, "rowsPerCore": 3, "colsAligned": 8, "epsilon": 0.5,
          "avgFactor": f32(1 / 7)}),
    ],
)  # fmt: skip
def test_rms_norm_pod_tiling(shape: tuple[int, ...], dtype: str, eps: float | None, block_dim: int, key: int,
                             fields: dict[str, float]) -> None:
    result = run("projects/rms_norm_custom", [fp(shape, dtype), fp(shape[-1:], dtype)], [eps])
    assert result.diagnostics == []
    assert result.status == host.GRAPH_SUCCESS
    assert (result.block_dim, result.tiling_key, result.workspace) == (block_dim, key, {0: 0})
    assert result.fields == fields
    assert result.struct_name == "RmsNormCustomTilingData"


def test_rms_norm_rejects_wide_rows_after_zeroing_the_struct() -> None:
    # numCols 5000 > MAX_COLS_FP32 = 4096: GRAPH_FAILED; the memset had already zeroed every field
    result = run("projects/rms_norm_custom", [fp((8, 5000), "float16"), fp((5000,), "float16")], [None])
    assert result.status == FAILED
    assert result.fields == {"numRows": 0, "numCols": 0, "rowsPerCore": 0, "colsAligned": 0, "epsilon": 0.0,
                             "avgFactor": 0.0}


# ----------------------------------------------------------------------------------------------------
# mse_loss_custom: string attribute parsed by a helper with strcmp, an enum, tiling key and a workspace
# of library + user bytes
# ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "reduction", "block_dim", "key", "workspace", "fields"),
    [
        # "mean": blockLength = ceil(1000 / 48) = 21 -> 24 (multiple of 8); ceil(1000 / 24) = 42 cores;
        # tile = ceil(24 / 64) * 64 = 64; scale = 1 / 1000; workspace = 16 MiB + 48 * 32
        ((1000,), "mean", 42, 1, LIB_WS + 48 * 32,
         {"totalLength": 1000, "blockLength": 24, "tileLength": 64, "usedCoreNum": 42, "scale": f32(1 / 1000)}),
        # "sum": 262144 elements: ceil(262144 / 48) = 5462 -> 5464; ceil(262144 / 5464) = 48 cores;
        # 5464 >= 4096 -> tile 4096; scale 1
        ((64, 4096), "sum", 48, 1, LIB_WS + 48 * 32,
         {"totalLength": 262144, "blockLength": 5464, "tileLength": 4096, "usedCoreNum": 48, "scale": 1.0}),
        # "none": 21 elements: ceil(21 / 48) = 1 -> 8; ceil(21 / 8) = 3 cores; key 0, no user workspace
        ((7, 3), "none", 3, 0, LIB_WS,
         {"totalLength": 21, "blockLength": 8, "tileLength": 64, "usedCoreNum": 3, "scale": 1.0}),
    ],
)  # fmt: skip
def test_mse_loss_string_attribute(shape: tuple[int, ...], reduction: str, block_dim: int, key: int,
                                   workspace: int, fields: dict[str, float]) -> None:
    result = run("projects/mse_loss_custom", [fp(shape, "float32"), fp(shape, "float32")], [reduction])
    assert result.diagnostics == []
    assert (result.status, result.block_dim, result.tiling_key) == (host.GRAPH_SUCCESS, block_dim, key)
    assert result.workspace == {0: workspace}
    assert result.fields == fields


def test_mse_loss_absent_reduction_means_mean() -> None:
    # ParseReduction(nullptr) -> REDUCTION_MEAN: the strcmp after `value == nullptr ||` never runs
    result = run("projects/mse_loss_custom", [fp((1000,), "float32")] * 2, [None])
    assert result.diagnostics == []
    assert (result.tiling_key, result.fields["scale"]) == (1, f32(1 / 1000))


# ----------------------------------------------------------------------------------------------------
# host/norm_tiling.cpp: a tiling class (context member, methods calling methods), three attributes
# (int, float, string compared with std::string), an optional input, std::min/max with an initializer
# list, `*td = S{}`, and a tiling key built from bits
# ----------------------------------------------------------------------------------------------------

NORM_WARNINGS = {  # std::copy_n is not modelled: reduceAxes stays as `*td = NormTilingData{}` left it
    "'std::copy_n' is not modelled by the host lowering",
}


@pytest.mark.parametrize(
    ("inputs", "attrs", "block_dim", "key", "fields"),
    [
        # fp16 [4, 8, 1000], no beta, kind "rms": axis = rank - 1 = 2 -> 32 rows of 1000; 32 cores of 1
        # row; colsAligned = AlignUp(1000, 32 / 2) = 1008; perRow = 1008 * (2 * 2 * 2 + 8) = 16128,
        # fixed = 1008 * 4 * 2 = 8064, fit = (196608 - 16384 - 8064) / 16128 = 10 -> min(10, 1, 255) = 1;
        # key = 1 (2-byte dtype) | 0 (no beta) | 4 (RMS)
        ([fp((4, 8, 1000), "float16"), fp((1000,), "float16"), None], [None, None, "rms"], 32, 5,
         {"numRows": 32, "numCols": 1000, "colsAligned": 1008, "formerCoreNum": 0, "formerRows": 1,
          "tailRows": 1, "rowsPerLoop": 1, "kind": 1, "hasBeta": 0, "epsilon": f32(1e-5),
          "avgFactor": f32(1 / 1000), "reduceAxes": [0, 0, 0, 0]}),
        # fp32 [300, 512] with beta, axis -1 -> 1, kind "layer": 48 cores, 300 / 48 = 6 rows, 300 % 48 = 12
        # cores take 7; colsAligned 512; perRow = 512 * (2 * 2 * 4 + 8) = 12288, fixed = 512 * 4 * 3 = 6144,
        # fit = (196608 - 16384 - 6144) / 12288 = 14 -> min(14, 7, 255) = 7; key = 0 | 2 (beta) | 0
        ([fp((300, 512), "float32"), fp((512,), "float32"), fp((512,), "float32")], [-1, 1e-6, "layer"], 48, 2,
         {"numRows": 300, "numCols": 512, "colsAligned": 512, "formerCoreNum": 12, "formerRows": 7,
          "tailRows": 6, "rowsPerLoop": 7, "kind": 0, "hasBeta": 1, "epsilon": f32(1e-6),
          "avgFactor": 1 / 512, "reduceAxes": [0, 0, 0, 0]}),
        # bf16 [2, 3, 64], axis 1: 2 rows of 3 * 64 = 192; 2 cores; colsAligned = AlignUp(192, 16) = 192;
        # perRow = 192 * 16 = 3072, fixed = 192 * 4 * 2 = 1536, fit = 178688 / 3072 = 58 -> 1; kind absent
        # -> LAYER_NORM; key = 1
        ([fp((2, 3, 64), "bfloat16"), fp((192,), "bfloat16"), None], [1, None, None], 2, 1,
         {"numRows": 2, "numCols": 192, "colsAligned": 192, "formerCoreNum": 0, "formerRows": 1,
          "tailRows": 1, "rowsPerLoop": 1, "kind": 0, "hasBeta": 0, "epsilon": f32(1e-5),
          "avgFactor": f32(1 / 192), "reduceAxes": [0, 0, 0, 0]}),
    ],
)  # fmt: skip
def test_norm_tiling_class(inputs: list[TensorSpec | None], attrs: list[AttrValue | None], block_dim: int,
                           key: int, fields: dict[str, object]) -> None:
    result = run("host/norm_tiling.cpp", inputs, attrs)
    assert {d.split(": warning: ")[1].split(";")[0] for d in result.diagnostics} == NORM_WARNINGS
    assert (result.status, result.block_dim, result.tiling_key) == (host.GRAPH_SUCCESS, block_dim, key)
    assert result.workspace == {0: 0}
    assert result.fields == fields
    assert result.struct_name == "NormTilingData"


def test_norm_tiling_fails_when_a_row_does_not_fit() -> None:
    # fp32 [4, 8, 1000] from axis 1: 8000 columns, perRow = 8000 * 24 = 192000 and fixed = 96000 exceed
    # the 196608 bytes of UB -> FitRowsInUb() is false -> GRAPH_FAILED
    inputs = [fp((4, 8, 1000), "float32"), fp((8, 1000), "float32"), fp((8, 1000), "float32")]
    result = run("host/norm_tiling.cpp", inputs, [1, 1e-6, None])
    assert result.status == FAILED
    assert result.block_dim is None


# ----------------------------------------------------------------------------------------------------
# The rest of the host API surface, in one function written for this test
# ----------------------------------------------------------------------------------------------------

API_SURFACE = """
#include <algorithm>
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct MixTilingData {
    uint64_t total;
    uint32_t rows;
    uint32_t cols;
    int64_t axis;
    float scale;
    uint32_t flags;
    uint32_t aicNum;
    uint32_t dims[4];
};

static uint32_t RoundUp(uint32_t a, uint32_t b)
{
    return b == 0 ? a : (a + b - 1) / b * b;
}

static ge::graphStatus MixTiling(gert::TilingContext *context)
{
    MixTilingData *t = context->GetTilingData<MixTilingData>();
    const gert::Tensor *x = context->GetInputTensor(0);
    const gert::Shape &shape = x->GetStorageShape();
    const int64_t total = x->GetShapeSize();
    const auto *attrs = context->GetAttrs();
    const int64_t *axisPtr = attrs->GetInt(0);
    const float *scalePtr = attrs->GetFloat(1);
    const bool *fastPtr = attrs->GetBool(2);
    int64_t axis = axisPtr != nullptr ? *axisPtr : -1;
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    if (axis < 0) {
        axis += rank;
    }
    const bool hasBias = context->GetOptionalInputShape(1) != nullptr;
    const ge::DataType dt = context->GetInputDataType(0);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t vecNum = platform.GetCoreNum();
    t->aicNum = platform.GetCoreNumAic();

    uint32_t rows = 1;
    uint32_t cols = 1;
    for (int64_t i = 0; i < rank; ++i) {
        if (i < axis) {
            rows *= static_cast<uint32_t>(shape.GetDim(i));
        } else {
            cols *= static_cast<uint32_t>(shape.GetDim(i));
        }
    }
    uint32_t k = 0;
    while (k < 4) {
        t->dims[k] = k < rank ? static_cast<uint32_t>(shape.GetDim(k)) : 1;
        k++;
    }
    t->total = total;
    t->rows = rows;
    t->cols = cols;
    t->axis = axis;
    t->flags = (hasBias ? 1U : 0U) | ((fastPtr != nullptr && *fastPtr) ? 2U : 0U);
    t->scale = scalePtr == nullptr ? 1.0f : *scalePtr * 2;

    context->SetBlockDim(std::max<uint32_t>(1, std::min(vecNum, rows)));
    context->SetTilingKey(dt == ge::DT_FLOAT ? 10 : 20);
    context->GetWorkspaceSizes(1)[0] = RoundUp(static_cast<uint32_t>(total * ge::GetSizeByDataType(dt)), 512);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
"""


@pytest.mark.parametrize(
    ("inputs", "attrs", "block_dim", "key", "workspace", "fields"),
    [
        # [6, 10, 7] fp32 with bias, axis 1: rows 6, cols 70; flags 1 | 2; scale 0.25 * 2; GetCoreNum() = 48
        # AIV -> min(48, 6) = 6 blocks; key 10 (fp32); workspace RoundUp(420 * 4, 512) = 2048
        ([fp((6, 10, 7), "float32"), fp((7,), "float32")], [1, 0.25, True], 6, 10, 2048,
         {"aicNum": 24, "dims": [6, 10, 7, 1], "total": 420, "rows": 6, "cols": 70, "axis": 1, "flags": 3,
          "scale": 0.5}),
        # [100, 3] fp16, no bias, no attributes: axis -1 -> 1; 100 rows -> 48 blocks; key 20; 600 -> 1024
        ([fp((100, 3), "float16"), None], [], 48, 20, 1024,
         {"aicNum": 24, "dims": [100, 3, 1, 1], "total": 300, "rows": 100, "cols": 3, "axis": 1, "flags": 0,
          "scale": 1.0}),
        # [2, 3, 4, 5, 6] int8, axis -2 -> 3: rows 2 * 3 * 4 = 24, cols 30; only the first 4 dims are kept;
        # 720 bytes -> 1024
        ([fp((2, 3, 4, 5, 6), "int8")], [-2, None, False], 24, 20, 1024,
         {"aicNum": 24, "dims": [2, 3, 4, 5], "total": 720, "rows": 24, "cols": 30, "axis": 3, "flags": 0,
          "scale": 1.0}),
    ],
)  # fmt: skip
def test_host_api_surface(inputs: list[TensorSpec | None], attrs: list[AttrValue | None], block_dim: int,
                          key: int, workspace: int, fields: dict[str, object]) -> None:
    prog = load_text(API_SURFACE, "mix_tiling.cpp")
    result = evaluate_program_tiling(prog, TilingInputs(inputs, attrs=attrs))
    assert result.diagnostics == []
    assert (result.status, result.block_dim, result.tiling_key) == (host.GRAPH_SUCCESS, block_dim, key)
    assert result.workspace == {0: workspace}
    assert result.fields == fields


def test_guarded_expressions_run_only_when_chosen() -> None:
    # `b == 0 ? 0 : a / b` and `p != nullptr && *p > 0` must not divide by zero or read an absent
    # attribute; a constant first used inside an `if` must still be usable after it
    source = """
    namespace optiling {
    struct GuardTilingData { uint32_t q; uint32_t big; uint32_t a; uint32_t b; };
    static ge::graphStatus TilingFunc(gert::TilingContext *context)
    {
        GuardTilingData *t = context->GetTilingData<GuardTilingData>();
        const uint32_t X = 5;
        const uint32_t n = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetDim(0));
        const float *limit = context->GetAttrs()->GetAttrPointer<float>(0);
        t->q = n == 0 ? 0 : 100 / n;
        t->big = (limit != nullptr && *limit > 2.0f) ? 1 : 0;
        uint32_t a = 0;
        if (n > 3) {
            a = X + n;
        }
        t->a = a;
        t->b = X + n;
        context->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    }
    """
    prog = load_text(source, "guard_tiling.cpp")
    zero = evaluate_program_tiling(prog, TilingInputs([fp((0, 4), "float16")]))
    assert zero.diagnostics == []
    assert zero.fields == {"q": 0, "big": 0, "a": 0, "b": 5}
    seven = evaluate_program_tiling(prog, TilingInputs([fp((7, 4), "float16")], attrs=[3.0]))
    assert seven.diagnostics == []
    assert seven.fields == {"q": 14, "big": 1, "a": 12, "b": 12}


def test_cmath_functions() -> None:
    source = """
    namespace optiling {
    struct MathTilingData { uint32_t c; uint32_t f; float r; uint32_t a; float p; };
    static ge::graphStatus TilingFunc(gert::TilingContext *context)
    {
        auto *t = context->GetTilingData<MathTilingData>();
        const int64_t n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
        t->c = static_cast<uint32_t>(std::ceil(static_cast<float>(n) / 3.0f));
        t->f = static_cast<uint32_t>(floor(n / 4.0));
        t->r = sqrtf(static_cast<float>(n));
        t->a = std::abs(static_cast<int32_t>(3 - n));
        t->p = std::pow(2.0f, 3.0f);
        context->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    }
    """
    result = evaluate_program_tiling(load_text(source, "math_tiling.cpp"), TilingInputs([fp((10,), "float16")]))
    assert result.diagnostics == []
    # ceil(10 / 3) = 4, floor(10 / 4.0) = 2, sqrt(10), |3 - 10| = 7, 2^3 = 8
    assert result.fields == {"c": 4, "f": 2, "r": f32(10**0.5), "a": 7, "p": 8.0}


# ----------------------------------------------------------------------------------------------------
# The whole clean corpus
# ----------------------------------------------------------------------------------------------------


def _corpus_inputs() -> list[str]:
    paths = [*sorted((CLEAN / "projects").iterdir()), *sorted((CLEAN / "host").glob("*.cpp")),
             *sorted((CLEAN / "answers").glob("*/*"))]
    return [str(p.relative_to(CLEAN)) for p in paths]


def _has_tiling_func(relative: str) -> bool:
    path = CLEAN / relative
    files = path.rglob("*") if path.is_dir() else [path]
    return any(f.is_file() and "gert::TilingContext *context)" in f.read_text().replace("* context", " *context")
               for f in files)


# What the host lowering does not model, by input: only ASC103 warnings, never errors.
UNMODELLED = {
    "projects/matmul_custom": {"MultiCoreMatmulTiling", "TCubeTiling", "usedCoreNum"},
    "answers/multikernelbench/square_matrix_multiplication.md": {"MultiCoreMatmulTiling", "TCubeTiling"},
    "host/norm_tiling.cpp": {"vector", "copy_n"},
}
ALLOWED_DIALECTS = {"builtin", "func", "arith", "scf", "memref", "math", "host"}


def _parse_context() -> Context:
    ctx = Context()
    for dialect in (arith.Arith, builtin.Builtin, func.Func, memref.MemRef, scf.Scf, math.Math, host.Host):
        ctx.load_dialect(dialect)
    return ctx


@pytest.mark.parametrize("relative", [p for p in _corpus_inputs() if _has_tiling_func(p)])
def test_every_corpus_tiling_function_lowers(relative: str) -> None:
    result = lower_host_tiling(program(relative))
    assert result.module is not None and result.func_name is not None
    assert [d for d in result.diagnostics if d.severity is not Severity.WARNING] == []
    unmodelled = UNMODELLED.get(relative, set())
    for d in result.diagnostics:
        assert d.code == "ASC103" and any(word in d.message for word in unmodelled), d.message
    if not unmodelled:
        assert result.diagnostics == []
    result.module.verify()
    ops = list(result.module.walk())
    assert {op.name.split(".")[0] for op in ops} <= ALLOWED_DIALECTS
    # the text form parses back to a verified module
    text = StringIO()
    Printer(stream=text).print_op(result.module)
    Parser(_parse_context(), text.getvalue()).parse_module().verify()


def test_corpus_has_the_expected_tiling_functions() -> None:
    found = {p: lower_host_tiling(program(p)).func_name for p in _corpus_inputs()}
    with_func = {p: name for p, name in found.items() if name is not None}
    assert len(with_func) == 22
    # registered through SetTiling under another name, or found by the TilingContext parameter
    assert with_func["projects/gelu_custom"] == "GeluTilingFunc"
    assert with_func["host/norm_tiling.cpp"] == "NormTilingFunc"
    assert with_func["host/elementwise_tiling.cpp"] == "ElementwiseTilingFunc"


@pytest.mark.parametrize("relative", [p for p in _corpus_inputs() if not _has_tiling_func(p)])
def test_programs_without_a_tiling_function(relative: str) -> None:
    result = lower_host_tiling(program(relative))
    assert result.module is None and result.func_name is None
    assert [(d.code, d.severity) for d in result.diagnostics] == [("ASC120", Severity.NOTE)]
    evaluated = evaluate_program_tiling(program(relative), TilingInputs([fp((8,), "float16")]))
    assert evaluated.status is None


# ----------------------------------------------------------------------------------------------------
# Malformed host code: diagnostics, never exceptions
# ----------------------------------------------------------------------------------------------------

MALFORMED_HEAD = """
namespace optiling {
BEGIN_TILING_DATA_DEF(BadTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BadCustom, BadTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    BadTilingData tiling;
"""
MALFORMED_TAIL = """
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


@pytest.mark.parametrize(
    ("body", "code", "message", "help_text"),
    [
        ("uint32_t n = context->GetInputShapes(0)->GetOriginShape().GetShapeSize(); tiling.set_totalLength(n);",
         "ASC100", "no member named 'GetInputShapes' in 'gert::TilingContext'", "did you mean 'GetInputShape'"),
        ("tiling.set_totalLen(4);", "ASC100", "no member named 'set_totalLen' in 'BadTilingData'",
         "did you mean 'set_totalLength'"),
        ("auto p = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()); uint32_t c = p.GetCoreNumAiu();",
         "ASC100", "no member named 'GetCoreNumAiu' in 'platform_ascendc::PlatformAscendC'", "GetCoreNumAiv"),
        ("uint32_t n = ComputeLength(context);", "ASC102", "use of undeclared identifier 'ComputeLength'", None),
    ],
)  # fmt: skip
def test_malformed_tiling_function_is_reported(body: str, code: str, message: str, help_text: str | None) -> None:
    prog = load_text(MALFORMED_HEAD + body + MALFORMED_TAIL, "bad_tiling.cpp")
    result = lower_host_tiling(prog)
    errors = [d for d in result.diagnostics if d.is_error]
    assert [(d.code, d.message) for d in errors] == [(code, message)]
    if help_text is not None:
        assert any(help_text in n.message for n in errors[0].notes)
    assert result.module is not None  # the rest of the function is still lowered
    result.module.verify()
    evaluated = evaluate_program_tiling(prog, TilingInputs([fp((8, 16), "float16")]))
    assert evaluated.status is None  # not run: the IR is known to be incomplete
    assert any(message in d for d in evaluated.diagnostics)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("tiling.set_totalLength(*context->GetAttrs()->GetAttrPointer<int64_t>(1.5));",
         "the attribute index must be an integer"),
        ("tiling.set_totalLength(TilingFunc(context));", "recursive call of 'TilingFunc' is not modelled"),
        (("const gert::StorageShape *s = context->GetInputShape(0); for (int i = 0; i < 2; ++i) "
         "{ s = context->GetInputShape(1); }"), "assigning 's' (a gert::StorageShape) under control flow"),
        ("const char *k = context->GetAttrs()->GetStr(0); if (k == \"abc\") { tiling.set_totalLength(1); }",
         "compares addresses; use strcmp or std::string"),
    ],
)  # fmt: skip
def test_unmodelled_host_code_is_a_warning(body: str, message: str) -> None:
    prog = load_text(MALFORMED_HEAD + body + MALFORMED_TAIL, "odd_tiling.cpp")
    result = lower_host_tiling(prog)
    assert [d.code for d in result.diagnostics] == ["ASC103"]
    assert message in result.diagnostics[0].message
    evaluated = evaluate_program_tiling(prog, TilingInputs([fp((8, 16), "float16")], attrs=["abc"]))
    assert evaluated.status == host.GRAPH_SUCCESS and evaluated.block_dim == 1


LOOP_OVER_INPUTS = """
    uint32_t total = 0;
    for (uint32_t i = 0; i < 3; ++i) {
        const gert::StorageShape *s = context->GetInputShape(i);
        total += s->GetOriginShape().GetShapeSize() * (context->GetInputDesc(i)->GetDataType() == ge::DT_FLOAT ? 2 : 1);
    }
    tiling.set_totalLength(total);
"""


def test_tensor_index_from_a_loop_variable() -> None:
    # foreach ops read their inputs in a loop: GetInputShape(i) / GetInputDesc(i) with i not a constant
    prog = load_text(MALFORMED_HEAD + LOOP_OVER_INPUTS + MALFORMED_TAIL, "loop_tiling.cpp")
    assert lower_host_tiling(prog).diagnostics == []
    result = evaluate_program_tiling(prog, TilingInputs([fp((8, 16), "float16"), fp((5,), "float32"),
                                                          fp((3, 3), "float16")]))
    assert result.status == host.GRAPH_SUCCESS and not result.gaps
    assert result.fields == {"totalLength": 128 + 2 * 5 + 9}


def test_tensor_index_past_the_inputs_fails_the_run() -> None:
    prog = load_text(MALFORMED_HEAD + LOOP_OVER_INPUTS + MALFORMED_TAIL, "loop_tiling.cpp")
    result = evaluate_program_tiling(prog, TilingInputs([fp((8, 16), "float16")] * 2))
    assert not result.succeeded and result.missing_inputs
    assert any("reads input 2 but only 2 inputs were given" in d for d in result.diagnostics)
    below = load_text(MALFORMED_HEAD + "tiling.set_totalLength(context->GetInputShape(context->GetInputShape(0)"
                      "->GetOriginShape().GetDim(0) - 9)->GetOriginShape().GetDim(0));" + MALFORMED_TAIL, "neg.cpp")
    result = evaluate_program_tiling(below, TilingInputs([fp((8, 16), "float16")]))
    assert not result.succeeded
    assert any("the input index is -1" in d for d in result.diagnostics)


@pytest.mark.parametrize("path", sorted(SYNTAX_ERRORS.iterdir()), ids=lambda p: p.name)
def test_inputs_with_syntax_errors_never_raise(path: Path) -> None:
    prog = load(str(path))
    result = lower_host_tiling(prog)
    assert all(d.code != "ASC000" for d in result.diagnostics)
    if result.module is not None:
        result.module.verify()
    evaluate_program_tiling(prog, TilingInputs([fp((8, 16), "float16")] * 3))
