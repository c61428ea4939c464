"""Tests for ascendir.testcase: reading reference programs and JSON test cases without executing them."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from ascendir.host_eval import TensorSpec
from ascendir.testcase import TestCase, read_json_text, read_reference_text, read_test_case

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport math\n"


def ref(body: str) -> TestCase:
    return read_reference_text(HEADER + textwrap.dedent(body), "t.py")


def inputs_of(expr: str, consts: str = "") -> TestCase:
    """A program whose get_inputs returns `[expr]`."""
    return ref(f"{textwrap.dedent(consts)}\ndef get_inputs():\n    return [{expr}]\n")


def shape_dtype(expr: str, consts: str = "") -> tuple[tuple[int, ...], str]:
    case = inputs_of(expr, consts)
    assert case.diagnostics == [], [str(d) for d in case.diagnostics]
    assert len(case.inputs) == 1
    return case.inputs[0].shape, case.inputs[0].dtype


def single_error(case: TestCase) -> str:
    errors = case.errors
    assert len(errors) == 1, [str(d) for d in case.diagnostics]
    assert errors[0].line >= 1 and errors[0].col >= 1
    return errors[0].message


# --------------------------------------------------------------------------------- a full program

FULL = '''
class Model(nn.Module):
    """Docstring."""
    def __init__(self, dim: int, kernel_size=(3, 5)):
        super().__init__()
        self.dim = dim

    def forward(self, x, y, alpha):
        return torch.softmax(x, dim=self.dim) * alpha

batch_size = 16
dim = 16384
in_channels = 3
kernel_size = (3, 5)
shape = (dim // 4, 2)

def get_inputs():
    """Random inputs."""
    x = torch.randn(batch_size, dim)
    y = torch.rand((batch_size, *shape), dtype=torch.float16)
    return [x, y, 0.5]

def get_init_inputs():
    return [in_channels, kernel_size, batch_size * 2]
'''


def test_full_program() -> None:
    case = ref(FULL)
    assert case.diagnostics == []
    assert case.ok
    assert case.inputs == [TensorSpec((16, 16384), "float32"), TensorSpec((16, 4096, 2), "float16")]
    assert case.scalars == [0.5]
    assert case.call_args == [case.inputs[0], case.inputs[1], 0.5]
    assert case.init_args == [3, (3, 5), 32]
    assert case.forward_params == ["x", "y", "alpha"]
    assert case.init_params == ["dim", "kernel_size"]


def test_testcase_not_collected() -> None:
    assert TestCase.__test__ is False


def test_empty_init_inputs_and_no_model() -> None:
    case = ref("def get_inputs():\n    return [torch.rand(4)]\ndef get_init_inputs():\n    return []\n")
    assert case.diagnostics == [] and case.init_args == [] and case.forward_params is None


# --------------------------------------------------------------------------------- tensor factories


@pytest.mark.parametrize(
    ("expr", "shape", "dtype"),
    [
        ("torch.randn(2, 3)", (2, 3), "float32"),
        ("torch.rand((2, 3))", (2, 3), "float32"),
        ("torch.rand([2, 3])", (2, 3), "float32"),
        ("torch.rand(size=(2, 3))", (2, 3), "float32"),
        ("torch.rand(())", (), "float32"),
        ("torch.zeros(4, dtype=torch.int32)", (4,), "int32"),
        ("torch.ones(4, 5, dtype=torch.bfloat16)", (4, 5), "bfloat16"),
        ("torch.empty(4, device='cpu', requires_grad=True)", (4,), "float32"),
        ("torch.full((2048,), 0.5,)", (2048,), "float32"),
        ("torch.full((2,), 3)", (2,), "int64"),
        ("torch.full((2,), True)", (2,), "bool"),
        ("torch.full((2,), 1, dtype=torch.half)", (2,), "float16"),
        ("torch.randint(0, 10, (8, 4))", (8, 4), "int64"),
        ("torch.randint(10, (8,))", (8,), "int64"),
        ("torch.randint(0, 2, (1, 5, 1), dtype=torch.bool)", (1, 5, 1), "bool"),
        ("torch.randint(low=0, high=4, size=(3,))", (3,), "int64"),
        ("torch.randperm(7)", (7,), "int64"),
        ("torch.arange(10)", (10,), "int64"),
        ("torch.arange(0, 1, 0.25)", (4,), "float32"),
        ("torch.linspace(0, 1, 5)", (5,), "float32"),
        ("torch.eye(2, 3)", (2, 3), "float32"),
        ("torch.eye(4)", (4, 4), "float32"),
        ("torch.tensor(3.1415)", (), "float32"),
        ("torch.tensor([1, 2, 3])", (3,), "int64"),
        ("torch.tensor([[True], [False]])", (2, 1), "bool"),
        ("torch.tensor([[[0.8, -0.5, 0.0], [0.5, 0.8, 0]]] * 8)", (8, 2, 3), "float32"),
        ("torch.tensor([1, 2], dtype=torch.float16)", (2,), "float16"),
        ("torch.rand(2, 3, dtype=torch.float64)", (2, 3), "float64"),
        ("torch.rand(2, dtype=torch.long)", (2,), "int64"),
        ("torch.rand(2, dtype=torch.int)", (2,), "int32"),
        ("torch.rand(2, dtype=torch.uint8)", (2,), "uint8"),
        ("torch.rand(2, dtype=torch.int8)", (2,), "int8"),
        ("torch.rand(2, dtype=torch.int16)", (2,), "int16"),
    ],
)
def test_factories(expr: str, shape: tuple[int, ...], dtype: str) -> None:
    assert shape_dtype(expr) == (shape, dtype)


@pytest.mark.parametrize(
    ("expr", "shape"),
    [
        ("torch.rand(batch_size * 2, dim // 4)", (32, 1024)),
        ("torch.rand(batch_size, *shape)", (16, 7, 9)),
        ("torch.rand((batch_size, *shape))", (16, 7, 9)),
        ("torch.rand(dim % 5 + 2 ** 3 - 1, -(-dim // 1000))", (8, 5)),
        ("torch.rand(int(dim / 8), round(2.6), max(shape), min(3, 4), len(shape), abs(-2))", (512, 3, 9, 3, 2, 2)),
        ("torch.rand(math.prod(shape), math.ceil(dim / 3000), sum(shape))", (63, 2, 16)),
        ("torch.rand(shape[0], shape[-1], *shape[1:])", (7, 9, 9)),
        ("torch.rand(dim if dim > 10 else 1, 1 if False else 2)", (4096, 2)),
        ("torch.rand(*[n * 2 for n in shape])", (14, 18)),
        ("torch.rand(list_size[1], tuple(list_size)[0])", (6, 5)),
        ("torch.rand(dim >> 10, 1 << 3)", (4, 8)),
        ("torch.rand(FEATURES)", (12,)),
    ],
)
def test_constant_expressions(expr: str, shape: tuple[int, ...]) -> None:
    consts = """
    batch_size = 16
    dim = 4096
    shape = (7, 9)
    list_size = [5, 6]
    a, b = 3, 4
    FEATURES: int = a * b
    """
    assert shape_dtype(expr, consts)[0] == shape


@pytest.mark.parametrize(
    ("expr", "dtype"),
    [
        ("torch.rand(4).half()", "float16"),
        ("torch.rand(4).float()", "float32"),
        ("torch.rand(4).double()", "float64"),
        ("torch.rand(4).bfloat16()", "bfloat16"),
        ("torch.rand(4).to(torch.bfloat16)", "bfloat16"),
        ("torch.rand(4).to(dtype=torch.float16)", "float16"),
        ("torch.rand(4).to('cuda')", "float32"),
        ("torch.rand(4).to(torch.device('cuda'), torch.int8)", "int8"),
        ("torch.rand(4).cuda().contiguous()", "float32"),
        ("torch.rand(4).type(torch.int32)", "int32"),
        ("torch.rand(4).bool()", "bool"),
        ("torch.rand(4).int()", "int32"),
        ("torch.rand(4).long()", "int64"),
        ("torch.rand(4).short()", "int16"),
        ("torch.rand(4).byte()", "uint8"),
        ("torch.rand(4) > 0.5", "bool"),
        ("torch.rand(4) == torch.rand(4)", "bool"),
        ("torch.randint(0, 2, (4,)).float() * 2 - 1", "float32"),
        ("torch.randint(0, 2, (4,)) * 2", "int64"),
        ("torch.randint(0, 2, (4,)) * 2.5", "float32"),
        ("torch.randint(0, 2, (4,)) / 2", "float32"),
        ("torch.rand(4).half() + torch.rand(4)", "float32"),
        ("torch.rand(4).half() + 1.5", "float16"),
        ("torch.rand(4).half() * torch.tensor(2.0)", "float16"),
        ("torch.rand(4).half() + torch.rand(4).bfloat16()", "float32"),
        ("torch.rand(4).int() + torch.rand(4).short()", "int32"),
        ("torch.rand(4).byte() + torch.rand(4).char()", "int16"),
        ("torch.rand(4).bool() & torch.rand(4).bool()", "bool"),
        ("torch.rand(4).bool() + 1", "int64"),
        ("torch.abs(torch.rand(4)) + 1e-2", "float32"),
        ("torch.rand(4).to(torch.rand(2).half())", "float16"),
        ("torch.rand_like(torch.randint(0, 4, (4,)), dtype=torch.float)", "float32"),
        ("torch.zeros_like(torch.rand(4).half())", "float16"),
        ("torch.full_like(torch.rand(4), 7, dtype=torch.int32)", "int32"),
        ("torch.randint(0, 2, (4,)).sqrt()", "float32"),
        ("~(torch.rand(4) > 0)", "bool"),
    ],
)
def test_dtypes(expr: str, dtype: str) -> None:
    assert shape_dtype(expr)[1] == dtype


@pytest.mark.parametrize(
    ("expr", "shape"),
    [
        ("torch.rand(4, 1) + torch.rand(3)", (4, 3)),
        ("torch.rand(2, 3).T", (3, 2)),
        ("torch.rand(2, 3).t()", (3, 2)),
        ("torch.rand(2, 3).unsqueeze(0)", (1, 2, 3)),
        ("torch.rand(2, 3).unsqueeze(-1)", (2, 3, 1)),
        ("torch.rand(2, 1, 3).squeeze(1)", (2, 3)),
        ("torch.rand(1, 2, 1).squeeze()", (2,)),
        ("torch.rand(2, 3, 4).view(6, -1)", (6, 4)),
        ("torch.rand(2, 3, 4).reshape((4, 6))", (4, 6)),
        ("torch.rand(2, 3, 4).permute(2, 0, 1)", (4, 2, 3)),
        ("torch.rand(2, 3, 4).transpose(0, -1)", (4, 3, 2)),
        ("torch.rand(2, 3, 4).flatten(1)", (2, 12)),
        ("torch.rand(2, 1).expand(2, 5)", (2, 5)),
        ("torch.rand(2, 1).expand(3, -1, 4)", (3, 2, 4)),
        ("torch.eye(2, 3).unsqueeze(0).repeat(4, 1, 1)", (4, 2, 3)),
        ("torch.rand(2, 3)[0]", (3,)),
        ("torch.rand(2, 3)[:, 1:]", (2, 2)),
        ("torch.rand(2, 3)[..., None]", (2, 3, 1)),
        ("torch.rand(2, 3).sum(dim=1, keepdim=True)", (2, 1)),
        ("torch.rand(2, 3).mean()", ()),
        ("torch.cat([torch.rand(2, 3), torch.rand(4, 3)])", (6, 3)),
        ("torch.stack([torch.rand(2, 3), torch.rand(2, 3)], dim=1)", (2, 2, 3)),
        ("torch.where(torch.rand(4, 1) > 0, torch.rand(4, 5), 0.0)", (4, 5)),
        ("torch.matmul(torch.rand(7, 2, 3), torch.rand(3, 5))", (7, 2, 5)),
        ("torch.rand(2, 3) @ torch.rand(3)", (2,)),
        ("torch.tril(torch.rand(5, 5))", (5, 5)),
        ("torch.rand(3, 8).softmax(dim=-1)", (3, 8)),
        ("F.softmax(torch.rand(3, 8), dim=-1)", (3, 8)),
        ("F.affine_grid(torch.rand(4, 2, 3), size=(4, 3, 16, 32), align_corners=False)", (4, 16, 32, 2)),
        ("torch.rand(4, 6).new_zeros((2, 2))", (2, 2)),
        ("torch.randint(0, 2, torch.rand(3, 4).shape).bool()", (3, 4)),
        ("torch.rand(torch.rand(5, 6).size(-1))", (6,)),
        ("torch.rand(torch.Size([2, 3]))", (2, 3)),
    ],
)
def test_shapes(expr: str, shape: tuple[int, ...]) -> None:
    assert shape_dtype(expr)[0] == shape


def test_locals_and_reassignment() -> None:
    case = ref("""
    M = 64
    def get_inputs():
        A = torch.rand(M, M)
        A = (A + A.T) / 2
        A = torch.tril(A)
        N, C, H, W = 4, 3, 8, 8
        x = torch.rand(N, C, H, W)
        base = F.affine_grid(torch.eye(2, 3).unsqueeze(0).repeat(N, 1, 1).to(x), size=x.size(),
                             align_corners=False)
        grid = base + torch.rand_like(base) * 0.05
        x[x > 0.5] = 0
        torch.manual_seed(0)
        k = M
        k += 1
        return [A, x, grid, k, True]
    """)
    assert case.diagnostics == []
    assert [t.shape for t in case.inputs] == [(64, 64), (4, 3, 8, 8), (4, 8, 8, 2)]
    assert case.scalars == [65, True]


def test_return_tuple_name_and_starred() -> None:
    case = ref("""
    def get_inputs():
        a = torch.rand(2)
        xs = [a, a.half()]
        return [*xs, 3]
    """)
    assert case.diagnostics == []
    assert [t.dtype for t in case.inputs] == ["float32", "float16"] and case.scalars == [3]
    case = ref("""
    def get_inputs():
        out = (torch.rand(2), 1.5)
        return out
    """)
    assert case.diagnostics == [] and len(case.inputs) == 1 and case.scalars == [1.5]


def test_tuple_argument_is_a_scalar_attr() -> None:
    case = ref("def get_inputs():\n    size = (200, 300)\n    return [torch.rand(4, 3), size, [1, 2]]\n")
    assert case.diagnostics == []
    assert case.scalars == [(200, 300), (1, 2)]


def test_other_import_styles() -> None:
    case = read_reference_text(
        "import torch as th\nfrom torch import randn, float16\n"
        "def get_inputs():\n    return [th.rand(2), randn(3, dtype=float16)]\n")
    assert case.diagnostics == []
    assert case.inputs == [TensorSpec((2,), "float32"), TensorSpec((3,), "float16")]


def test_unused_bad_module_constant_is_not_reported() -> None:
    case = ref("""
    weird = open("x").read()
    if __name__ == "__main__":
        other = 1
    def get_inputs():
        return [torch.rand(2)]
    """)
    assert case.diagnostics == []


def test_init_args_with_values() -> None:
    case = ref("""
    def get_inputs():
        return [torch.rand(2)]
    def get_init_inputs():
        return [1, 2.5, (3, 5), [64, 128], True, "mean", None, torch.float16]
    """)
    assert case.diagnostics == []
    assert case.init_args == [1, 2.5, (3, 5), [64, 128], True, "mean", None, "float16"]


# --------------------------------------------------------------------------------- diagnostics


@pytest.mark.parametrize(
    ("source", "fragment", "line"),
    [
        ("def get_inputs(:\n    pass\n", "syntax error", 5),
        ("x = 1\n", "no top-level `get_inputs()`", 1),
        ("def get_input_groups():\n    return []\n", "get_input_groups", 5),
        ("def get_inputs():\n    return [torch.rand(undefined_name)]\n", "`undefined_name` is not defined", 6),
        ("def get_inputs():\n    return [torch.rand(2.5)]\n", "must be an int", 6),
        ("def get_inputs():\n    return [torch.rand(-1)]\n", "negative dimension", 6),
        ("def get_inputs():\n    return [torch.foo(2)]\n", "`torch.foo` is not supported", 6),
        ("def get_inputs():\n    return [__import__('os').system('x')]\n", "`__import__` is not defined", 6),
        ("def get_inputs():\n    return [eval('1')]\n", "`eval` is not defined", 6),
        ("def get_inputs():\n    return [torch.rand(4).item()]\n", "not known statically", 6),
        ("def get_inputs():\n    return [torch.rand(2) + torch.rand(3)]\n", "do not broadcast", 6),
        ("def get_inputs():\n    return [torch.rand(1 // 0)]\n", "division by zero", 6),
        ("def get_inputs():\n    return [torch.rand(10 ** 10 ** 10)]\n", "too large", 6),
        ("def get_inputs():\n    return [torch.rand(2 ** 300)]\n", "too large", 6),
        ("def get_inputs():\n    return [torch.rand(*([1] * 10 ** 8))]\n", "too long", 6),
        ("def get_inputs():\n    return [torch.rand(2).view(3)]\n", "cannot `.view`", 6),
        ("def get_inputs():\n    return [torch.rand(2, dtype=torch.complex64)]\n", "complex64", 6),
        ("def get_inputs():\n    return [helper()]\ndef helper():\n    return 1\n", "functions of the file", 6),
        ("def get_inputs():\n    for i in range(3):\n        pass\n    return [torch.rand(2)]\n",
         "`for` statements", 6),
        ("def get_inputs():\n    return ['text']\n", "expected a tensor", 6),
        ("def get_inputs():\n    return torch.rand(2)\n", "must return a list", 6),
        ("def get_inputs():\n    x = torch.rand(2)\n", "no `return`", 5),
        ("def get_inputs():\n    return [lambda: 1]\n", "unsupported expression (Lambda)", 6),
        ("def get_inputs():\n    return [torch.rand(2).frobnicate()]\n", "`.frobnicate()` is not supported", 6),
        ("def get_inputs():\n    return [torch.rand(2, dtype='float16')]\n", "expected a torch dtype", 6),
        ("def get_inputs():\n    a, b = 1, 2, 3\n    return [torch.rand(a)]\n", "cannot unpack", 6),
        ("def get_inputs():\n    return [torch.tensor([[1], [2, 3]])]\n", "ragged", 6),
        ("def get_inputs():\n    return [torch.rand(2, unknown=3)]\n", "unsupported keyword `unknown`", 6),
        ("def get_inputs():\n    return [torch.rand(2, 3).permute(0, 0)]\n", "not a permutation", 6),
        ("def get_inputs():\n    return [torch.rand(2, 3).transpose(0, 5)]\n", "out of range", 6),
        ("def get_inputs():\n    return [torch.cat([torch.rand(2, 3), torch.rand(2, 4)])]\n", "mismatched", 6),
        ("def get_inputs():\n    return [torch.rand(2, 3) @ torch.rand(2, 3)]\n", "do not match", 6),
        ("def get_inputs():\n    return [torch.rand((1, 2)[5])]\n", "out of range", 6),
        ("def get_inputs():\n    return [torch.rand(np.random.randint(3))]\n", "`np` is not defined", 6),
        ("import numpy as np\ndef get_inputs():\n    return [torch.rand(np.random.randint(3))]\n",
         "`numpy.random.randint` is not supported", 7),
        ("import os\ndef get_inputs():\n    return [torch.rand(os.getpid())]\n", "`os.getpid` is not supported", 7),
        ("def get_inputs():\n    return [torch.rand(2) if torch.rand(1) > 0 else 1]\n", "truth value", 6),
    ],
)
def test_diagnostics(source: str, fragment: str, line: int) -> None:
    case = ref(source)
    message = single_error(case)
    assert fragment in message, message
    assert case.errors[0].line == line
    assert not case.ok


def test_bad_module_constant_reported_at_its_definition() -> None:
    case = ref("""
    import os
    size = int(os.environ["SIZE"])
    def get_inputs():
        return [torch.rand(size), torch.rand(size)]
    """)
    message = single_error(case)  # reported once, though used twice
    assert "os.environ" in message and "needed for `size`" in message
    assert case.errors[0].line == 7  # the assignment's line (4 header lines + blank + import)
    assert case.inputs == []


def test_constant_in_unsupported_statement() -> None:
    case = ref("""
    for i in range(2):
        n = i
    def get_inputs():
        return [torch.rand(n), torch.rand(3)]
    """)
    assert "`n` is assigned inside an `for` statement" in single_error(case)
    assert case.inputs == [TensorSpec((3,), "float32")]


def test_one_bad_entry_keeps_the_others() -> None:
    case = ref("def get_inputs():\n    return [torch.rand(2), torch.nope(1), torch.rand(3)]\n")
    assert "torch.nope" in single_error(case)
    assert [t.shape for t in case.inputs] == [(2,), (3,)]
    assert (case.errors[0].line, case.errors[0].col) == (6, 28)


def test_warnings() -> None:
    case = ref("""
    class Model(nn.Module):
        def forward(self, x):
            return x
    def get_inputs():
        print_something
        return [torch.rand(2), torch.rand(2)]
    """)
    # the bare name is an undefined-name error in an expression statement: only a warning here
    assert case.ok
    messages = [d.message for d in case.diagnostics]
    assert any("expression statement ignored" in m for m in messages)
    assert any("Model.forward` takes 1" in m for m in messages)
    assert all(d.severity == "warning" for d in case.diagnostics)


def test_deep_nesting_and_long_expressions_do_not_raise() -> None:
    deep = "def get_inputs():\n    return [torch.rand(" + "(" * 150 + "1" + ")" * 150 + ")]\n"
    assert isinstance(ref(deep), TestCase)
    long_sum = "def get_inputs():\n    return [torch.rand(" + "+".join(["1"] * 20000) + ")]\n"
    case = ref(long_sum)
    assert case.inputs == [TensorSpec((20000,), "float32")] or not case.ok
    very_deep = "def get_inputs():\n    return [" + "[" * 5000 + "]" * 5000 + "]\n"
    case = ref(very_deep)
    assert not case.ok and case.diagnostics[0].line >= 1


def test_never_executes() -> None:
    case = ref("""
    import os
    os.system("touch /tmp/should_not_exist_testcase")
    x = __import__("os").system("touch /tmp/should_not_exist_testcase")
    def get_inputs():
        os.remove("/tmp/whatever")
        return [torch.rand(2)]
    """)
    assert not Path("/tmp/should_not_exist_testcase").exists()
    assert case.inputs == [TensorSpec((2,), "float32")]


# --------------------------------------------------------------------------------- JSON


def test_json_format() -> None:
    text = json.dumps({
        "inputs": [{"shape": [8, 2048], "dtype": "float16"},
                   {"shape": [], "dtype": "bf16"},
                   {"shape": [4, 4], "storage_shape": [1, 1, 16, 16], "dtype": "int8"},
                   {"shape": [3]}],
        "attrs": [0.5, 3, True, [1, 2]],
        "init_args": [2048, [3, 5]],
    })
    case = read_json_text(text, "t.json")
    assert case.diagnostics == []
    assert case.inputs == [TensorSpec((8, 2048), "float16"), TensorSpec((), "bfloat16"),
                           TensorSpec((4, 4), "int8", (1, 1, 16, 16)), TensorSpec((3,), "float32")]
    assert case.scalars == [0.5, 3, True, (1, 2)]
    assert case.init_args == [2048, (3, 5)]


@pytest.mark.parametrize(
    ("text", "fragment", "line", "col"),
    [
        ('{"inputs": [', "invalid JSON", 1, 13),
        ('[1, 2]', "must be an object", 1, 1),
        ('{"attrs": []}', "missing `inputs`", 1, 1),
        ('{"inputs": {}}', "`inputs` must be a list", 1, 12),
        ('{"inputs": [\n  {"shape": [2, -1], "dtype": "float16"}]}', "non-negative", 2, 17),
        ('{"inputs": [\n  {"shape": [2], "dtype": "float99"}]}', "unknown dtype", 2, 27),
        ('{"inputs": [\n  {"dtype": "float16"}]}', "without `shape`", 2, 3),
        ('{"inputs": [7]}', "must be an object", 1, 13),
        ('{"inputs": [{"shape": [2.5]}]}', "non-negative ints", 1, 24),
        ('{"inputs": [{"shape": [true]}]}', "non-negative ints", 1, 24),
        ('{"inputs": [], "attrs": ["x"]}', "an attr must be", 1, 26),
        ('{"inputs": [], "attrs": 3}', "`attrs` must be a list", 1, 25),
        ('{"inputs": [], "inputs": []}', "duplicate key", 1, 26),
        ('{"inputs": [], "init_args": 1}', "`init_args` must be a list", 1, 29),
    ],
)
def test_json_diagnostics(text: str, fragment: str, line: int, col: int) -> None:
    case = read_json_text(text, "t.json")
    message = single_error(case)
    assert fragment in message, message
    assert (case.errors[0].line, case.errors[0].col) == (line, col)


def test_json_warning_for_unknown_keys() -> None:
    case = read_json_text('{"inputs": [{"shape": [1], "layout": "ND"}], "extra": 1}')
    assert case.ok and len(case.inputs) == 1
    assert sorted(d.message for d in case.diagnostics) == ["unknown input key `layout` ignored",
                                                           "unknown key `extra` ignored"]


def test_json_leading_whitespace_positions() -> None:
    case = read_json_text('\n  {"inputs": [{"shape": [-3]}]}')
    assert (case.errors[0].line, case.errors[0].col) == (2, 26)
    case = read_json_text('{"inputs": 5}')
    assert (case.errors[0].line, case.errors[0].col) == (1, 12)


def test_json_deeply_nested() -> None:
    case = read_json_text('{"inputs": [], "init_args": [' + "[" * 100 + "]" * 100 + "]}")
    assert case.ok and len(case.init_args) == 1 and isinstance(case.init_args[0], tuple)
    # deeper than Python's parser allows: positions fall back to 1:1, or a diagnostic; never an exception
    case = read_json_text('{"inputs": [], "init_args": ' + "[" * 600 + "]" * 600 + "}")
    assert case.ok or case.diagnostics[0].line == 1
    case = read_json_text("[" * 100000 + "]" * 100000)
    assert not case.ok


# --------------------------------------------------------------------------------- files


def test_read_test_case_by_suffix(tmp_path: Path) -> None:
    py = tmp_path / "case.py"
    py.write_text(HEADER + "def get_inputs():\n    return [torch.rand(3, 4)]\n")
    assert read_test_case(py).inputs == [TensorSpec((3, 4), "float32")]
    js = tmp_path / "case.json"
    js.write_text('{"inputs": [{"shape": [5], "dtype": "int32"}]}')
    case = read_test_case(str(js))
    assert case.inputs == [TensorSpec((5,), "int32")] and case.filename == str(js)


def test_read_test_case_problems(tmp_path: Path) -> None:
    assert "unknown test case file type" in single_error(read_test_case(tmp_path / "x.txt"))
    assert "cannot read" in single_error(read_test_case(tmp_path / "missing.py"))
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"x = 1\ny = '\xff'\n")
    case = read_test_case(bad)
    assert "UTF-8" in single_error(case) and (case.errors[0].line, case.errors[0].col) == (2, 6)
    nul = tmp_path / "nul.py"
    nul.write_bytes(b"x = 1\0\n")
    assert "cannot parse" in single_error(read_test_case(nul)) or "syntax" in single_error(read_test_case(nul))
    problem = read_test_case(tmp_path / "x.txt").diagnostics[0]
    assert str(problem).endswith("error: unknown test case file type `.txt`; expected .py or .json")
