"""Tests for ascendir.model_args: the arguments a ModelNew wrapper hands to its custom op, evaluated over
`ast` from a reference program's get_init_inputs / get_inputs (never executed)."""

from __future__ import annotations

import textwrap

import pytest

import ascendir.testcase as tc
from ascendir.host_eval import TensorSpec
from ascendir.model_args import OpArg, custom_op_arguments, custom_op_call
from ascendir.testcase import TestCase, read_reference_text


def reference(body: str) -> TestCase:
    case = read_reference_text("import torch\nimport torch.nn as nn\n" + textwrap.dedent(body), "ref.py")
    assert case.ok, [str(d) for d in case.diagnostics]
    return case


def op_args(model: str, case: TestCase) -> list[OpArg]:
    args, diagnostics = custom_op_arguments(textwrap.dedent(model), case)
    assert args is not None, [str(d) for d in diagnostics]
    return args


def refused(model: str, case: TestCase) -> tc.TestCaseProblem:
    args, diagnostics = custom_op_arguments(textwrap.dedent(model), case)
    assert args is None
    errors = [d for d in diagnostics if d.severity == "error"]
    assert errors, "a refusal must say why"
    return errors[0]


def t(*shape: int, dtype: str = "float32") -> TensorSpec:
    return TensorSpec(shape=shape, dtype=dtype)


GEMM_REF = reference('''
    class Model(nn.Module):
        def __init__(self, in_features, out_features, bias_shape):
            super(Model, self).__init__()
            self.gemm = nn.Linear(in_features, out_features, bias=False)
            self.bias = nn.Parameter(torch.randn(bias_shape))

        def forward(self, x):
            return torch.relu(self.gemm(x) + self.bias)

    batch_size = 128
    in_features = 1024
    out_features = 512
    bias_shape = (out_features,)

    def get_inputs():
        return [torch.randn(batch_size, in_features)]

    def get_init_inputs():
        return [in_features, out_features, bias_shape]
''')


def test_linear_weight_transposed_and_parameter() -> None:
    model = '''
        import torch
        import torch_npu
        import custom_ops_lib

        class ModelNew(torch.nn.Module):
            def __init__(self, in_features, out_features, bias_shape):
                super(ModelNew, self).__init__()
                self.gemm = torch.nn.Linear(in_features, out_features, bias=False)
                self.bias = torch.nn.Parameter(torch.randn(bias_shape))

            def forward(self, x):
                weight = self.gemm.weight.transpose(0, 1).contiguous()
                return custom_ops_lib.gemm_add_relu_custom(x, weight, self.bias)
    '''
    assert op_args(model, GEMM_REF) == [t(128, 1024), t(1024, 512), t(512)]


def test_linear_bias_false_is_none_and_weight_t() -> None:
    model = '''
        import torch.nn as nn
        import custom_ops_lib

        class ModelNew(nn.Module):
            def __init__(self, in_features, out_features, bias_shape):
                super().__init__()
                self.gemm = nn.Linear(in_features, out_features, bias=False)

            def forward(self, x):
                return custom_ops_lib.op(x.half(), self.gemm.weight.t(), self.gemm.bias)
    '''
    assert op_args(model, GEMM_REF) == [t(128, 1024, dtype="float16"), t(1024, 512), None]


CONV_REF = reference('''
    class Model(nn.Module):
        def __init__(self, in_channels, out_channels, kernel_size, num_groups, bias_shape, scale_shape):
            super().__init__()

    batch_size = 128
    in_channels = 3
    out_channels = 16
    height, width = 32, 32
    kernel_size = 3
    num_groups = 8
    bias_shape = (out_channels, 1, 1)
    scale_shape = (out_channels, 1, 1)

    def get_inputs():
        return [torch.randn(batch_size, in_channels, height, width)]

    def get_init_inputs():
        return [in_channels, out_channels, kernel_size, num_groups, bias_shape, scale_shape]
''')

CONV_MODEL = '''
    import torch
    import custom_ops_lib

    class ModelNew(torch.nn.Module):
        def __init__(self, in_channels: int, out_channels: int, kernel_size: int, num_groups: int,
                     bias_shape, scale_shape, epsilon: float = 1e-5) -> None:
            super().__init__()
            self.num_groups = int(num_groups)
            self.epsilon = float(epsilon)
            self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, bias=True)
            self.add_bias = torch.nn.Parameter(torch.randn(bias_shape))
            self.scale = torch.nn.Parameter(torch.randn(scale_shape))
            self.group_norm = torch.nn.GroupNorm(self.num_groups, out_channels)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return custom_ops_lib.conv2d_add_scale_sigmoid_group_norm_custom(
                x,
                self.conv2d.weight,
                self.conv2d.bias,
                self.add_bias.reshape(-1),
                self.scale.reshape(-1),
                self.group_norm.weight,
                self.group_norm.bias,
                self.num_groups,
                self.epsilon,
            )
'''


def test_conv2d_and_group_norm_weights_and_scalar_attributes() -> None:
    assert op_args(CONV_MODEL, CONV_REF) == [
        t(128, 3, 32, 32), t(16, 3, 3, 3), t(16), t(16), t(16), t(16), t(16), 8, 1e-5,
    ]


def test_conv_layer_configuration_reads_back_as_torch_stores_it() -> None:
    model = '''
        import torch
        import custom_ops_lib

        class ModelNew(torch.nn.Module):
            def __init__(self, in_channels, out_channels, kernel_size, num_groups, bias_shape, scale_shape):
                super().__init__()
                self.conv = torch.nn.ConvTranspose2d(in_channels, out_channels, (kernel_size, 5), stride=2,
                                                     groups=1)
                self.depthwise = torch.nn.Conv2d(out_channels, out_channels, kernel_size, groups=out_channels,
                                                 bias=False)
                self.gn = torch.nn.GroupNorm(num_groups=num_groups, num_channels=out_channels, eps=1e-6)

            def forward(self, x):
                stride = self.conv.stride
                return custom_ops_lib.op(x, self.conv.weight, self.depthwise.weight, stride[0], stride[1],
                                         self.conv.padding, self.gn.num_groups, self.gn.eps, self.conv.groups)
    '''
    assert op_args(model, CONV_REF) == [
        t(128, 3, 32, 32), t(3, 16, 3, 5), t(16, 1, 3, 3), 2, 2, (0, 0), 8, 1e-6, 1,
    ]


def test_norms_embedding_attention_recurrent_and_buffers() -> None:
    case = reference('''
        def get_inputs():
            return [torch.randn(4, 10, 32)]

        def get_init_inputs():
            return [32, 4]
    ''')
    model = '''
        import torch
        from torch import nn
        import custom_ops_lib as ops

        class ModelNew(nn.Module):
            def __init__(self, dim, heads):
                super().__init__()
                self.bn = nn.BatchNorm1d(dim)
                self.ln = nn.LayerNorm([10, dim], elementwise_affine=True)
                self.emb = nn.Embedding(100, dim)
                self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
                self.gru = nn.GRU(dim, 2 * dim, num_layers=2)
                self.register_buffer("h0", torch.zeros(2, 4, 2 * dim, dtype=torch.float16))
                layers = []
                for i in range(3):
                    layers.append(nn.Linear(dim, dim))
                self.layers = nn.ModuleList(layers)

            def forward(self, x):
                return ops.everything(x, self.bn.running_var, self.ln.weight, self.emb.weight,
                                      self.attn.in_proj_weight, self.attn.out_proj.weight, self.gru.weight_ih_l1,
                                      self.gru.weight_hh_l0, self.h0, self.layers[2].bias)
    '''
    assert op_args(model, case) == [
        t(4, 10, 32), t(32), t(10, 32), t(100, 32), t(96, 32), t(32, 32), t(192, 64), t(192, 64),
        t(2, 4, 64, dtype="float16"), t(32),
    ]


def test_forward_guard_helper_function_and_assignment_form() -> None:
    case = reference('''
        def get_inputs():
            return [torch.randn(16, 256, 256), 0.5]

        def get_init_inputs():
            return [1]
    ''')
    model = '''
        import torch
        import custom_ops_lib

        def _to_tensor(value, like):
            if not isinstance(value, torch.Tensor):
                return torch.tensor([float(value)], dtype=like.dtype)
            return value.reshape(1)

        class ModelNew(torch.nn.Module):
            def __init__(self, dim: int):
                super().__init__()
                self.dim = dim

            def forward(self, x, alpha):
                if self.dim != 1:
                    raise NotImplementedError("only dim=1")
                scale = _to_tensor(alpha, x)
                out = custom_ops_lib.scaled_custom(x.contiguous(), scale, self.dim)
                return out
    '''
    call, _ = custom_op_call(textwrap.dedent(model), case)
    assert call is not None
    assert call.name == "custom_ops_lib.scaled_custom"
    assert call.args == [t(16, 256, 256), t(1), 1]
    assert call.line == 19


def test_raise_reached_for_these_inputs_is_refused() -> None:
    case = reference('''
        def get_inputs():
            return [torch.randn(16, 256, 256)]

        def get_init_inputs():
            return [2]
    ''')
    model = '''
        import torch
        import custom_ops_lib

        class ModelNew(torch.nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.dim = dim

            def forward(self, x):
                if self.dim != 1:
                    raise NotImplementedError("only dim=1")
                return custom_ops_lib.reduce_custom(x)
    '''
    problem = refused(model, case)
    assert "raises" in problem.message and problem.line == 12


def test_unsupported_construct_gives_a_diagnostic_not_an_exception() -> None:
    model = '''
        import torch
        import custom_ops_lib

        class ModelNew(torch.nn.Module):
            def __init__(self, in_features, out_features, bias_shape):
                super().__init__()
                self.lstm = torch.nn.TransformerEncoderLayer(in_features, 8)

            def forward(self, x):
                return custom_ops_lib.op(x, self.lstm.weight)
    '''
    problem = refused(model, GEMM_REF)
    assert "TransformerEncoderLayer" in problem.message
    assert (problem.line, problem.filename) == (8, "model_src.py")


WRAPPER = "import torch, ops\nclass ModelNew(torch.nn.Module):\n    def __init__(self, a, b, c):\n"


@pytest.mark.parametrize("model, needle", [
    ("class Other:\n    pass\n", "ModelNew"),
    (WRAPPER + "        pass\n    def forward(self, x):\n        return torch.relu(x)\n",
     "without calling the custom op"),
    (WRAPPER.replace("a, b, c", "a") + "        pass\n", "positional arguments"),
    (WRAPPER + "        pass\n    def forward(self, x):\n        while True:\n            pass\n",
     "`while` statements"),
    (WRAPPER + "        self.w = torch.nn.Parameter(torch.randn(a, b))\n    def forward(self, x):\n"
     + "        return ops.f(x, self.w.item())\n", ".item()"),
    ("def broken(:\n", "syntax error"),
])
def test_refusals(model: str, needle: str) -> None:
    assert needle in refused(model, GEMM_REF).message


def test_constructor_arguments_that_do_not_fit_are_refused() -> None:
    # the reference gives bias_shape where this model expects eps: `float(eps)` of a tuple
    model = '''
        import torch
        import custom_ops_lib

        class ModelNew(torch.nn.Module):
            def __init__(self, in_features, out_features, eps):
                super().__init__()
                self.eps = float(eps)
                self.weight = torch.nn.Parameter(torch.randn(in_features, out_features))

            def forward(self, x):
                return custom_ops_lib.op(x, self.weight, self.eps)
    '''
    assert "float()" in refused(model, GEMM_REF).message


def test_try_import_alias_and_torch_ops_namespace() -> None:
    model = '''
        import torch
        try:
            import custom_ops_lib as ops_lib
        except ImportError:
            ops_lib = None

        class ModelNew(torch.nn.Module):
            def __init__(self, *args):
                super().__init__()
                self.n = len(args)

            def forward(self, x):
                y = torch.ops.myops.first(x, self.n)
                return ops_lib.second(y)
    '''
    call, _ = custom_op_call(textwrap.dedent(model), GEMM_REF)
    assert call is not None and call.name == "torch.ops.myops.first"
    assert call.args == [t(128, 1024), 3]
