"""The built-in aclnn signature table (tools/aclnn_signatures.py -> passes/verify/data/aclnn_builtin.toml) and
rule ASC813 on bindings that the annotated corpus does not cover."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # python 3.10
    import tomli as tomllib

from frontend.pipeline import load_text
from passes.verify import check_program
from passes.verify.binding import BUILTIN_ACLNN, builtin_aclnn

ROOT = Path(__file__).resolve().parents[2]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("aclnn_signatures", ROOT / "tools" / "aclnn_signatures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


tool = _load_tool()

CUMSUM_H = """
#ifndef OP_API_INC_ACLNN_CUMSUM_H_
#define OP_API_INC_ACLNN_CUMSUM_H_
#include "aclnn/aclnn_base.h"
#ifdef __cplusplus
extern "C" {
#endif
/**
 * @brief aclnnCumsum的第一段接口: aclnnCumsumGetWorkspaceSize(self, dim, dtype, out, ...)
 */
ACLNN_API aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                  aclDataType dtype,  // the output type
                                                  aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCumsum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);
__attribute__((visibility("default"))) aclnnStatus aclnnCumsumV2GetWorkspaceSize(
    const aclTensor *self,
    int64_t dim,
    bool exclusive,
    bool reverse,
    aclTensor *out,
    uint64_t *workspaceSize,
    aclOpExecutor **executor);
#ifdef __cplusplus
}
#endif
#endif
"""


def _kinds(decl: object) -> list[tuple[str, str]]:
    return [(p.name, p.kind) for p in decl.params]  # type: ignore[attr-defined]


def test_multi_line_declarations_with_comments() -> None:
    decls = {d.op: d for d in tool.declarations(CUMSUM_H)}
    assert set(decls) == {"aclnnCumsum", "aclnnCumsumV2"}  # the comment and the second-phase entry are no declarations
    assert _kinds(decls["aclnnCumsum"]) == [("self", "tensor"), ("dim", "int"), ("dtype", "dtype"), ("out", "tensor")]
    assert _kinds(decls["aclnnCumsumV2"]) == [("self", "tensor"), ("dim", "int"), ("exclusive", "bool"),
                                               ("reverse", "bool"), ("out", "tensor")]


def test_pointer_and_value_kinds() -> None:
    header = """
    aclnnStatus aclnnEveryKindGetWorkspaceSize(const aclTensor * const a, const aclTensorList *b, const aclScalar* c,
        int32_t d, const int64_t e, double f, float g, const bool h, aclDataType i, const aclIntArray *j,
        const aclBoolArray* k, const aclFloatArray *l, const char *m, char* n, const aclFoo* o, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
    """
    (decl,) = tool.declarations(header)
    assert [p.kind for p in decl.params] == ["tensor", "tensor_list", "scalar", "int", "int", "float", "float",
                                             "bool", "dtype", "int_array", "bool_array", "float_array", "string",
                                             "string", "other", "tensor"]
    assert [p.ctype for p in decl.params][:3] == ["aclTensor*", "aclTensorList*", "aclScalar*"]
    assert decl.params[6].ctype == "float" and decl.params[5].ctype == "double"


def test_calls_and_unreadable_lists_are_skipped() -> None:
    header = """
    inline aclnnStatus Run(const aclTensor* x, aclTensor* y) {
        uint64_t ws = 0; aclOpExecutor* ex = nullptr;
        return aclnnAbsGetWorkspaceSize(x, y, &ws, &ex);
    }
    aclnnStatus aclnnMaybeGetWorkspaceSize(const aclTensor* x,
    #if NEW_API
        bool flag,
    #endif
        aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
    aclnnStatus aclnnNoExecutorGetWorkspaceSize(const aclTensor* x, uint64_t* workspaceSize);
    """
    assert list(tool.declarations(header)) == []


def test_split_params_keeps_nested_commas() -> None:
    assert tool.split_params("std::pair<int, int> p, void (*f)(int, int), int x") == \
        ["std::pair<int, int> p", "void (*f)(int, int)", "int x"]
    assert tool.split_params(" void ") == []


def test_conflicting_duplicates_are_dropped_and_renamed_duplicates_kept() -> None:
    a = "aclnnStatus aclnnMedianGetWorkspaceSize(const aclTensor* self, aclTensor* valuesOut, " \
        "uint64_t* workspaceSize, aclOpExecutor** executor);\n" \
        "aclnnStatus aclnnIsCloseGetWorkspaceSize(const aclTensor* self, const aclTensor* other, double rtol, " \
        "double atol, bool equalNan, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);"
    b = "aclnnStatus aclnnMedianGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim, " \
        "aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor);\n" \
        "aclnnStatus aclnnIsCloseGetWorkspaceSize(const aclTensor *self, const aclTensor *other, double rtol, " \
        "double atol, bool equal_nan, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);"
    c = "aclnnStatus aclnnScaleGetWorkspaceSize(const aclTensor* self, float scale, aclTensor* out, " \
        "uint64_t* workspaceSize, aclOpExecutor** executor);"
    d = c.replace("float scale", "double scale")
    kept, conflicts = tool.catalog([("ops-nn/index/median/op_api/aclnn_a.h", a),
                                    ("ops-nn/experimental/median/op_api/aclnn_b.h", b),
                                    ("x/op_api/aclnn_c.h", c), ("y/op_api/aclnn_d.h", d)])
    assert set(conflicts) == {"aclnnMedian", "aclnnScale"}  # another parameter list; float vs double
    assert set(kept) == {"aclnnIsClose"}
    assert kept["aclnnIsClose"][0].params[4].name == "equalNan"  # the first header's names


def test_rendered_table_reads_back() -> None:
    kept, conflicts = tool.catalog([("ops-math/experimental/math/cumsum/op_api/aclnn_cumsum.h", CUMSUM_H)])
    data = tomllib.loads(tool.render(kept, conflicts, ["hicann+ops-math"], 1))
    assert data["aclnnCumsum"]["params"][2] == {"name": "dtype", "kind": "dtype", "type": "aclDataType"}
    assert data["aclnnCumsumV2"]["experimental"] is True


def test_shipped_table() -> None:
    catalog = builtin_aclnn()
    assert len(catalog) > 800
    cumsum = catalog["aclnnCumsum"]
    assert cumsum.signature() == "(self: tensor, dim: int, dtype: dtype, out: tensor)"
    assert not cumsum.experimental and cumsum.header.endswith("op_api/aclnn_cumsum.h")
    assert "aclnnMedian" not in catalog  # declared two ways (index/gather_v2 and experimental/index/median)
    assert "Generated, do not edit" in BUILTIN_ACLNN.read_text(encoding="utf-8")


VENDOR = [Path("/work/realkernels") / n for n in ("hicann+ops-math", "hicann+ops-nn", "hicann+ops-transformer")]


@pytest.mark.skipif(not all(p.is_dir() for p in VENDOR), reason="the vendor header checkouts are not here")
def test_shipped_table_is_up_to_date(tmp_path: Path) -> None:
    out = tmp_path / "aclnn_builtin.toml"
    assert tool.main([*map(str, VENDOR), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == BUILTIN_ACLNN.read_text(encoding="utf-8"), \
        "regenerate with: .venv/bin/python tools/aclnn_signatures.py"


# ------------------------------------------------------------------ the rule on small answers


def _answer(binding: str, op: str = "ScaleCustom") -> str:
    return (f'project_json_src = """[{{"op": "{op}", "input_desc": [], "output_desc": []}}]"""\n'
            'kernel_src = """\n#include "kernel_operator.h"\n'
            'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n"""\n'
            f'python_bind_src = """\n#include <torch/extension.h>\n#include "pytorch_npu_helper.hpp"\n{binding}\n"""\n')


def _asc813(binding: str, op: str = "ScaleCustom") -> list[str]:
    program = load_text(_answer(binding, op), "answer.py", fmt="multikernelbench")
    return [d.message for d in check_program(program) if d.code == "ASC813"]


def test_correct_builtin_calls_are_clean() -> None:
    assert _asc813("""
at::Tensor f(const at::Tensor& x, int64_t dim, c10::optional<at::Tensor> bias, at::IntArrayRef dims)
{
    at::Tensor out = at::empty_like(x);
    at::ScalarType dtype = x.scalar_type();
    EXEC_NPU_CMD(aclnnCumsum, x, dim, dtype, out);
    bool keepDim = false;
    EXEC_NPU_CMD(aclnnMean, x, dims, keepDim, dtype, out);
    at::Scalar alpha(1.0);
    EXEC_NPU_CMD(aclnnAdd, x, bias, alpha, out);
    return out;
}""") == []


def test_unknown_kinds_and_unlisted_ops_are_not_judged() -> None:
    assert _asc813("""
at::Tensor f(const at::Tensor& x, int64_t dim)
{
    auto view = x.view(-1);
    at::Tensor out = at::empty_like(x);
    EXEC_NPU_CMD(aclnnCumsum, view, dim, view, out);
    EXEC_NPU_CMD(aclnnNotAVendorOp, x, dim, dim, dim, out);
    return out;
}""") == []


def test_shadowed_names_are_not_judged() -> None:
    assert _asc813("""
at::Tensor f(const at::Tensor& x, int64_t dim)
{
    at::Tensor out = at::empty_like(x);
    if (dim > 0) {
        at::Tensor dim = at::empty_like(x);
    }
    EXEC_NPU_CMD(aclnnCumsum, x, out, dim, out);
    return out;
}""") == ["aclnnCumsum takes (self: tensor, dim: int, dtype: dtype, out: tensor); argument 2 'out' is an "
          "at::Tensor where 'dim' is an int"]


def test_the_projects_own_op_is_left_to_the_op_json_rules() -> None:
    binding = """
at::Tensor f(const at::Tensor& x, int64_t dim)
{
    at::Tensor out = at::empty_like(x);
    EXEC_NPU_CMD(aclnnCumsum, x, dim, out);
    return out;
}"""
    assert _asc813(binding, op="Cumsum") == []
    assert _asc813(binding) == ["aclnnCumsum takes (self: tensor, dim: int, dtype: dtype, out: tensor); "
                                "EXEC_NPU_CMD passes 3 arguments"]
