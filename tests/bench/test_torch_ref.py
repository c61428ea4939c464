"""The benchmark reference programs run on CPU torch as they run beside the NPU: integer random draws that CPU
torch refuses (torch_npu makes them), and NPUKernelBench's check_precision called with its keyword names."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from bench.suites.torch_ref import device_torch, load_reference_program, op_call, precision_check  # noqa: E402


def test_integer_draws_are_made_as_on_the_npu() -> None:
    t = device_torch()
    with pytest.raises(NotImplementedError):
        torch.randn(4, dtype=torch.int8)  # what CPU torch does: the reason for the wrapper
    a = t.randn(64, 32, dtype=torch.int8)
    assert a.dtype == torch.int8 and a.shape == (64, 32) and int(a.abs().max()) <= 6 and bool((a != 0).any())
    assert bool((t.rand([3, 5], dtype=torch.int32) == 0).all())  # [0, 1) toward zero
    assert t.randn_like(torch.zeros(3, dtype=torch.int64)).dtype == torch.int64
    assert t.rand(2, dtype=torch.float16).dtype == torch.float16  # floating draws are torch's own
    assert t.float32 is torch.float32 and t.nn is torch.nn and isinstance(t.zeros(1), t.Tensor)


def test_a_reference_program_gets_the_device_torch(tmp_path: Path) -> None:
    path = tmp_path / "prepare_inputs.py"
    path.write_text(textwrap.dedent("""
        import torch

        def get_inputs(param, device=None):
            return (torch.randn([4, 3], device=device, dtype=getattr(torch, param["dtype"])),)
    """))
    (x,) = load_reference_program(str(path)).get_inputs({"dtype": "int64"})
    assert x.dtype == torch.int64 and x.shape == (4, 3)


def test_check_precision_takes_the_benchmarks_keywords() -> None:
    check = precision_check(1e-3, 1e-3)
    ref = torch.tensor([1.0, 2.0])
    near = ref + 5e-5
    assert check(ref, near)[0] == 1
    assert check(ref, near, max_abs_error=1e-5, max_rel_error=1e-5)[0] == 0
    assert check([ref], [near], max_abs_error=1e-4, max_rel_error=1e-4)[0] == 1


def test_op_call_captures_what_modelnew_hands_the_op(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(textwrap.dedent("""
        import torch
        import torch.nn as nn
        import kernel_gen_ops

        class Model(nn.Module):
            def forward(self, dy, x):
                return dy * x

        class ModelNew(nn.Module):
            def __init__(self, groups):
                super().__init__()
                self.groups = groups

            def forward(self, dy, x):
                import kernel_gen_ops
                y = torch.nn.functional.gelu(x)
                out = kernel_gen_ops.gelu_grad(dy, x, y, self.groups, (1, 2))
                return out.to(torch.int)
    """))
    dy, x = torch.ones(3), torch.arange(3.0)
    called = op_call(str(path), [4], [dy, x])
    assert called is not None
    op, args, kwargs = called
    assert op == "gelu_grad" and kwargs == {} and args[3:] == (4, (1, 2))
    assert torch.equal(args[2], torch.nn.functional.gelu(x))
    assert "ModelNew" not in vars(load_reference_program(str(path)))  # the reference's view stays without it


def test_op_call_is_none_without_a_call(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text("import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
                    "        raise RuntimeError('needs the NPU')\n")
    assert op_call(str(path), [], [torch.ones(1)]) is None
