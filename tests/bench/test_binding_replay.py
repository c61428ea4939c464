"""The op binding replayed around the kernel (bench/harness/binding_replay.py) over the shared tensor table
(bench/harness/tensor_ops.py): self-written bindings around the corpus's LeakyRelu answer."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from bench.harness import binding_replay as B
from bench.harness import tensor_ops as T
from bench.harness.binding_source import bypass_reason, kernel_calls
from bench.harness.replay_run import simulate_binding
from bench.harness.stages.correctness import poisoned, simulator_available
from bench.suites.model import Inputs

ANSWER = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "answers" / "multikernelbench" / "leaky_relu.md"
BIND = re.compile(r'python_bind_src = """.*?"""', re.S)


def _program(tmp_path: Path, body: str, params: str = "const at::Tensor& self, double negative_slope",
             helpers: str = "") -> object:
    """The LeakyRelu answer with its binding replaced by one whose function has `body`."""
    from frontend.readers import read_input
    from passes.verify import load_for_check

    bind = ('python_bind_src = """\n#include <torch/extension.h>\n#include <cmath>\n' + helpers +
            f"\nat::Tensor leaky_relu_custom_impl_npu({params})\n{{\n{body}\n}}\n\n"
            "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
            '    m.def("leaky_relu_custom", &leaky_relu_custom_impl_npu, "leaky_relu");\n}\n"""')
    text = BIND.sub(lambda _: bind, ANSWER.read_text(encoding="utf-8"))
    path = tmp_path / "leaky_relu.md"
    path.write_text(text, encoding="utf-8")
    program, _ = load_for_check(read_input(str(path), "multikernelbench"), "910B2")
    return program


def _fake_kernel(calls: list[tuple[list, list]]):
    """A launch computing LeakyRelu with numpy (no simulator): records what the kernel was handed."""
    def launch(ins: list, attrs: list, outs: list) -> None:
        calls.append(([t.data.copy() for t in ins], list(attrs)))
        x = ins[0].data
        outs[0].data[...] = np.where(x >= 0, x, x * attrs[0]).reshape(outs[0].shape)
    return launch


def _poison(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    return poisoned(shape, np.dtype(np.float32 if dtype == "bfloat16" else dtype), 7)


def test_tensor_table_views_share_memory_and_keep_dtypes() -> None:
    x = T.make(np.arange(24, dtype=np.float32).reshape(2, 3, 4), "float32")
    p = T.call("permute", x, (0, 2, 1))
    assert p.shape == (2, 4, 3) and np.shares_memory(p.data, x.data)
    c = T.call("contiguous", p)
    assert c.data.flags.c_contiguous and not np.shares_memory(c.data, x.data)
    h = T.call("to", x, "float16")
    assert h.dtype == "float16" and h.data.dtype == np.float16
    assert T.binary("*", h, 2.0).dtype == "float16"  # a Python scalar does not promote
    assert T.call("view", x, (-1, 4)).shape == (6, 4)
    with pytest.raises(T.TensorError):
        T.call("view", x, (5, 5))
    with pytest.raises(T.NotModelled):
        T.call("index_put_", x)


def test_replay_prepares_the_kernels_tensors_and_finishes_the_result(tmp_path: Path) -> None:
    body = ("    TORCH_CHECK(self.dim() == 3, \"3-D\");\n"
            "    const int64_t rows = self.size(0) * self.size(1);\n"
            "    at::Tensor flat = self.permute({0, 2, 1}).contiguous().reshape({-1});\n"
            "    at::Tensor out = at::empty_like(flat);\n"
            "    EXEC_NPU_CMD(aclnnLeakyReluCustom, flat, negative_slope, out);\n"
            "    at::Tensor back = out.view({self.size(0), self.size(2), self.size(1)}).permute({0, 2, 1});\n"
            "    return at::relu(back) * static_cast<double>(rows) / 6.0;")
    program = _program(tmp_path, body)
    calls: list[tuple[list, list]] = []
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    replay = B.Replay(program, _fake_kernel(calls), _poison)
    result = replay.run([T.make(x, "float32"), 0.1])
    (handed,), attrs = calls[0]
    assert handed.shape == (24,) and np.array_equal(handed, x.transpose(0, 2, 1).reshape(-1))
    assert attrs == [0.1] and replay.launches == 1
    assert result.kernel and np.allclose(result.data, np.maximum(x, 0))  # rows / 6 == 1


def test_what_the_replay_does_not_model_or_the_binding_rejects(tmp_path: Path) -> None:
    program = _program(tmp_path, "    at::Tensor out = at::empty_like(self);\n"
                                 "    EXEC_NPU_CMD(aclnnLeakyReluCustom, self, negative_slope, out);\n"
                                 "    return at::logsumexp(out, {1}, true);")
    replay = B.Replay(program, _fake_kernel([]), _poison)
    with pytest.raises(B.NotModelled, match=r"at::logsumexp at line \d+"):
        replay.run([T.make(np.ones((2, 2), np.float32), "float32"), 0.1])
    program = _program(tmp_path, "    TORCH_CHECK(self.dim() == 4, \"x must be 4-D\");\n    return self;")
    with pytest.raises(B.BindingError, match="x must be 4-D"):
        B.Replay(program, _fake_kernel([]), _poison).run([T.make(np.ones((2, 2), np.float32), "float32"), 0.1])


def test_a_binding_that_never_runs_its_kernel(tmp_path: Path) -> None:
    kernel_call = "EXEC_NPU_CMD(aclnnLeakyReluCustom, self, negative_slope, out);"
    runs = _program(tmp_path, f"    at::Tensor out = at::empty_like(self);\n    {kernel_call}\n    return out;")
    assert kernel_calls(runs) and bypass_reason(runs) == ""
    # through a helper of the unit
    helper = ("static void launch(const at::Tensor& s, double k, at::Tensor& o)\n"
              f"{{\n    EXEC_NPU_CMD(aclnnLeakyReluCustom, s, k, o);\n}}\n")
    via = _program(tmp_path, "    at::Tensor out = at::empty_like(self);\n    launch(self, negative_slope, out);\n"
                             "    return out;", helpers=helper)
    assert kernel_calls(via)
    for body in (f"    at::Tensor out = at::empty_like(self);\n    // {kernel_call}\n    return at::relu(self);",
                 f"    at::Tensor out = at::empty_like(self);\n    if (false) {{\n        {kernel_call}\n    }}\n"
                 "    return at::relu(self);",
                 "    at::Tensor out = at::empty_like(self);\n    EXEC_NPU_CMD(aclnnRelu, self, out);\n    return out;"):
        program = _program(tmp_path, body)
        assert not kernel_calls(program)
        assert "never calls aclnnLeakyReluCustom" in bypass_reason(program)
    assert "aclnnRelu" in bypass_reason(program)


@pytest.mark.skipif(not simulator_available(), reason="the simulator extension is not built")
def test_simulated_through_the_binding(tmp_path: Path) -> None:
    """The kernel runs on the simulator on what the binding hands it; the binding's result is what is judged,
    an element the kernel never writes stays poison through the binding's views, and a result ATen computes
    beside the kernel is not judged."""
    body = ("    at::Tensor flat = self.reshape({-1});\n    at::Tensor out = at::empty_like(flat);\n"
            "    EXEC_NPU_CMD(aclnnLeakyReluCustom, flat, negative_slope, out);\n"
            "    return out.view({self.size(0), self.size(1)}) * 2.0;")
    program = _program(tmp_path, body)
    x = np.random.default_rng(1).standard_normal((8, 64)).astype(np.float32)
    inputs = Inputs({"x": x, "slope": 0.25}, {"x": "float32"}, 11)
    run = simulate_binding(None, program, "910B2", inputs, {"y": np.zeros((8, 64), np.float32)}, 11, None)
    assert run is not None and run.completed and not run.not_modelled, run.findings
    assert np.allclose(run.outputs["y"], np.where(x >= 0, x, 0.25 * x) * 2.0, rtol=1e-6)
    assert run.unwritten == {"y": 0} and run.instructions > 0
    # the kernel's result discarded: ATen's own answer is not the kernel's
    program = _program(tmp_path, body.replace("return out.view({self.size(0), self.size(1)}) * 2.0;",
                                              "return at::relu(self);"))
    run = simulate_binding(None, program, "910B2", inputs, {"y": x}, 11, None)
    assert "does not come from its kernel's output" in run.not_modelled
    # a kernel that writes only half of a larger buffer: the rest stays poison through the views
    program = _program(tmp_path, "    at::Tensor big = at::empty({self.size(0) * 2, self.size(1)}, self.options());\n"
                                 "    at::Tensor top = big.narrow(0, 0, self.size(0));\n"
                                 "    EXEC_NPU_CMD(aclnnLeakyReluCustom, self, negative_slope, top);\n"
                                 "    return big.view({2, self.size(0), self.size(1)}).permute({1, 0, 2});")
    run = simulate_binding(None, program, "910B2", inputs, {"y": np.zeros((8, 2, 64), np.float32)}, 11, None)
    assert run.unwritten.get("y") == x.size, (run.not_modelled, run.findings)


def test_shapes_built_from_sizes(tmp_path: Path) -> None:
    body = ("    auto shape = self.sizes().vec();\n    shape[1] *= 2;\n"
            "    std::vector<int64_t> same(self.sizes().begin(), self.sizes().end());\n"
            "    TORCH_CHECK(self.scalar_type() == at::kFloat, \"float\");\n"
            "    at::Tensor out = at::empty(shape, self.options());\n"
            "    EXEC_NPU_CMD(aclnnLeakyReluCustom, self.view(same), negative_slope, out);\n    return out;")
    calls: list[tuple[list, list]] = []

    def launch(ins: list, attrs: list, outs: list) -> None:
        calls.append(([t.shape for t in ins], [t.shape for t in outs]))
        outs[0].data[...] = 0

    result = B.Replay(_program(tmp_path, body), launch, _poison).run([T.make(np.ones((2, 3), np.float32),
                                                                             "float32"), 0.1])
    assert calls == [([(2, 3)], [(2, 6)])] and result.kernel


def test_a_number_parameter_given_a_list_is_the_bindings_rejection(tmp_path: Path) -> None:
    program = _program(tmp_path, "    TORCH_CHECK(negative_slope > 0, \"slope\");\n    return self;")
    with pytest.raises(B.BindingError, match=r"double gets \[2, 2\]"):
        B.Replay(program, _fake_kernel([]), _poison).run([T.make(np.ones(2, np.float32), "float32"), (2, 2)])


def test_copy_into_a_view_pads_the_kernels_input(tmp_path: Path) -> None:
    """padded.narrow(...).narrow(...).copy_(x) writes x into its base (matmul_with_irregular_shapes' final pads its
    operands to multiples of 128 this way); copy_ into an expanded tensor is torch's error."""
    body = ("    at::Tensor padded = at::zeros({self.size(0) + 2, 8}, self.options());\n"
            "    padded.narrow(0, 1, self.size(0)).narrow(1, 0, self.size(1)).copy_(self);\n"
            "    at::Tensor out = at::empty_like(padded);\n"
            "    EXEC_NPU_CMD(aclnnLeakyReluCustom, padded, negative_slope, out);\n"
            "    return out.narrow(0, 1, self.size(0)).narrow(1, 0, self.size(1)).contiguous();")
    calls: list[tuple[list, list]] = []
    x = np.random.default_rng(1).standard_normal((3, 5)).astype(np.float32)
    result = B.Replay(_program(tmp_path, body), _fake_kernel(calls), _poison).run([T.make(x, "float32"), 0.1])
    (handed,), _ = calls[0]
    want = np.zeros((5, 8), np.float32)
    want[1:4, :5] = x
    assert np.array_equal(handed, want)
    assert result.kernel and np.allclose(result.data, np.where(x >= 0, x, 0.1 * x))
    half = T.call("copy_", T.make(np.zeros((2, 2), np.float16), "float16"), T.make(np.full(2, 1.5), "float32"))
    assert half.dtype == "float16" and np.array_equal(half.data, np.full((2, 2), 1.5, np.float16))
    with pytest.raises(T.TensorError, match="copy_"):
        T.call("copy_", T.call("expand", T.make(np.zeros((1, 2)), "float32"), (3, 2)), T.make(np.ones(2), "float32"))


def test_vector_of_n_elements(tmp_path: Path) -> None:
    """std::vector<int64_t> v(n) holds n zeros and v(n, value) n copies (they were read as the number n)."""
    body = ("    std::vector<int64_t> shape(2);\n    std::vector<int64_t> ones(2, 1);\n"
            "    shape[0] = self.size(0) * ones[0];\n    shape[1] = self.size(1) + ones[1];\n"
            "    at::Tensor out = at::empty(shape, self.options());\n"
            "    EXEC_NPU_CMD(aclnnLeakyReluCustom, self, negative_slope, out);\n    return out;")
    calls: list[tuple[list, list]] = []

    def launch(ins: list, attrs: list, outs: list) -> None:
        calls.append(([t.shape for t in ins], [t.shape for t in outs]))
        outs[0].data[...] = 0

    B.Replay(_program(tmp_path, body), launch, _poison).run([T.make(np.ones((2, 3), np.float32), "float32"), 0.1])
    assert calls == [([(2, 3)], [(2, 4)])]
