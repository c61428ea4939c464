"""What a Python binding (op.cpp) hands to EXEC_NPU_CMD, evaluated from its parameters' shapes."""

from __future__ import annotations

import textwrap

import pytest

from ascendir.binding_args import UNKNOWN, exec_arguments
from ascendir.host_eval import TensorSpec
from frontend import ast as A
from frontend.pipeline import load_text


def _exec_args(body: str, params: str, *python_args: object) -> list[object]:
    src = f"at::Tensor impl_npu({params})\n{{\n{textwrap.dedent(body)}\n}}\n"
    unit = load_text(src, "CppExtension/csrc/op.cpp").units[0].ast
    fn = next(n for n in unit.walk() if isinstance(n, A.FunctionDecl) and n.body is not None)
    call = next(c for c in fn.body.walk() if isinstance(c, A.Call) and c.callee_name == "EXEC_NPU_CMD")
    return exec_arguments(fn, call, list(python_args))


def _t(*shape: int, dtype: str = "float32") -> TensorSpec:
    return TensorSpec(shape=shape, dtype=dtype)


TWO = "const at::Tensor& a, const at::Tensor& b"


def test_parameters_pass_through_contiguous_and_into_locals() -> None:
    got = _exec_args("""
        at::Tensor bc = b.contiguous();
        at::Tensor result = at::empty_like(a);
        EXEC_NPU_CMD(aclnnX, a, bc, result);
        return result;""", TWO, _t(4, 8), _t(8, dtype="float16"))
    assert got == [_t(4, 8), _t(8, dtype="float16"), _t(4, 8)]


def test_reshape_then_expand_gives_the_expanded_shape() -> None:
    got = _exec_args("""
        at::Tensor d = a.reshape({a.size(0), 1}).expand({a.size(0), b.size(1)}).contiguous();
        EXEC_NPU_CMD(aclnnX, d, b);
        return b;""", TWO, _t(64), _t(64, 32))
    assert got == [_t(64, 32), _t(64, 32)]


def test_broadcast_tensors_gives_each_operand_the_common_shape() -> None:
    got = _exec_args("""
        std::vector<at::Tensor> both = at::broadcast_tensors({a, b});
        at::Tensor x = both[0].contiguous();
        at::Tensor s = both[1].contiguous();
        EXEC_NPU_CMD(aclnnX, x, s);
        return x;""", TWO, _t(16, 4), _t(1, dtype="float16"))
    assert got == [_t(16, 4), _t(16, 4, dtype="float16")]


def test_numbers_follow_casts_sizes_and_integer_arithmetic() -> None:
    got = _exec_args("""
        int64_t rows = a.sizes()[0] * 2 - 1;
        double eps = static_cast<double>(epsilon);
        int64_t half = static_cast<int64_t>(b.numel()) / 2;
        EXEC_NPU_CMD(aclnnX, a, rows, eps, half, a.dim());
        return a;""", "const at::Tensor& a, const at::Tensor& b, float epsilon", _t(5, 3), _t(6, 7), 1)
    assert got == [_t(5, 3), 9, 1.0, 21, 2]


@pytest.mark.parametrize("expr", [
    "a.view({7, -1})",  # 12 elements do not split into rows of 7: torch refuses, so no shape to check with
    "at::matmul(a, b)",  # an op the binding computes: not followed
    "a.index_select(0, b)",
    "someHelper(a)",
    "reassigned",  # assigned again after its declaration: its value is not followed
])
def test_what_is_not_followed_is_unknown(expr: str) -> None:
    got = _exec_args(f"""
        at::Tensor reassigned = a;
        reassigned = b;
        EXEC_NPU_CMD(aclnnX, {expr});
        return a;""", TWO, _t(3, 4), _t(4, 2))
    assert got == [UNKNOWN]


def test_an_absent_optional_input_stays_none() -> None:
    got = _exec_args("EXEC_NPU_CMD(aclnnX, a, bias); return a;",
                     "const at::Tensor& a, const c10::optional<at::Tensor>& bias", _t(2, 2), None)
    assert got == [_t(2, 2), None]
