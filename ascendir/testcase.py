"""Read test case files: the concrete input shapes, dtypes and attribute values a kernel is checked for.

Two formats, picked by the file's suffix (`read_test_case`):

``.py`` -- a MultiKernelBench-style reference program::

    batch_size = 16
    dim = 16384

    class Model(nn.Module):
        def __init__(self, dim): ...
        def forward(self, x, y, alpha): ...

    def get_inputs():
        x = torch.randn(batch_size, dim, dtype=torch.float16)
        return [x, torch.randint(0, 10, (batch_size,)), 0.5]

    def get_init_inputs():
        return [dim]

  The program is NEVER executed or imported: it is parsed with `ast` and `get_inputs()` /
  `get_init_inputs()` are evaluated abstractly over the syntax tree. Tensors are tracked as (shape, dtype)
  only. Understood: module-level constants (assignments, tuple unpacking), simple local assignments in the
  two functions, int/float/bool/str/tuple/list values, arithmetic (``+ - * / // % ** << >>``, unary
  ops, comparisons, ``and``/``or``, ``x if c else y``), starred items, indexing and slicing of tuples, the
  builtins ``int float bool len min max abs round sum tuple list range`` and ``math.prod/sqrt/ceil/floor``;
  the torch factories ``rand randn zeros ones empty full randint randperm arange linspace eye tensor`` and
  their ``*_like`` forms (sizes as separate ints, a tuple/list, ``size=``, ``dtype=`` keywords); dtype
  changes ``.half() .float() .double() .bfloat16() .int() .long() .short() .bool() .byte() .char()
  .to(dtype|tensor|device) .type(dtype)``; elementwise functions and methods (``abs exp sigmoid tril
  softmax clamp ...``), tensor arithmetic with torch's broadcasting and type promotion (comparisons give
  bool), ``x.shape``, ``x.size()``, ``x.T``, ``view/reshape/unsqueeze/squeeze/permute/transpose/flatten/
  expand/repeat``, ``torch.cat/stack/where/matmul`` and ``F.affine_grid``. torch's default dtype is
  ``float32``.

  Anything else becomes a diagnostic (an error with the line and column of the construct), never an
  exception. Module-level assignments that cannot be evaluated are only reported when used.

``.json`` -- our own plain format::

    {
      "inputs": [{"shape": [8, 2048], "dtype": "float16"},
                 {"shape": [8, 2048], "dtype": "float16", "storage_shape": [8, 128, 16]}],
      "attrs": [0.5, 3, true],
      "init_args": [2048, [3, 5]]
    }

  ``inputs`` (required) lists the tensor arguments in order: ``shape`` is a list of non-negative ints
  (``[]`` for a 0-dim tensor), ``dtype`` one of ``float16 float32 float64 bfloat16 int8 int16 int32
  int64 uint8 uint16 uint32 uint64 bool`` (default ``float32``; ``fp16``, ``half``, ``bf16``, ``fp32``,
  ``float`` ... are accepted aliases), ``storage_shape`` optional, ``name`` optional and ignored. ``attrs`` (optional, alias
  ``scalars``) are the non-tensor arguments -- numbers, bools, or lists of them (kept as tuples) -- and
  end up in `TestCase.scalars`.
  ``init_args`` (optional) are the model's constructor arguments; JSON lists become tuples.

The dtype names are numpy-style: ``float16 float32 bfloat16 int8 int16 int32 int64 uint8 bool`` ...

This module reads a file by its suffix (`read_test_case`); the readers and the evaluator live in modules of
their own, and every public name is re-exported here (`from ascendir.testcase import TestCase,
read_test_case` keeps working):

- testcase_types.py: TestCase, TestCaseProblem and the evaluation limits;
- testcase_dtypes.py: torch's dtype names, casts and type promotion;
- testcase_values.py: the abstract values the evaluator computes with (Tensor as shape and dtype, ...);
- testcase_eval.py: the evaluator of a reference program's syntax tree (Evaluator), with its mixins
  testcase_eval_arith.py, testcase_eval_access.py, testcase_eval_functions.py, testcase_eval_methods.py
  and the names it knows in testcase_names.py;
- testcase_reference.py: the reference-program reader (read_reference_text);
- testcase_json.py: the JSON reader (read_json_text).
"""

from __future__ import annotations

from pathlib import Path

from ascendir.testcase_json import read_json_text as read_json_text
from ascendir.testcase_reference import read_reference_text as read_reference_text
from ascendir.testcase_types import (
    MAX_FILE_BYTES as MAX_FILE_BYTES,
    TestCase as TestCase,
    TestCaseProblem as TestCaseProblem,
)

# Defined in the modules this one was split into; other modules import them from here.
from ascendir.testcase_reference import parse_python as parse_python
from ascendir.testcase_types import Attr as Attr, Scalar as Scalar


__all__ = ["TestCase", "TestCaseProblem", "read_json_text", "read_reference_text", "read_test_case"]


def read_test_case(path: str | Path) -> TestCase:
    """Read a test case file: `.py` (reference program) or `.json` (our format). Never raises."""
    p = Path(path)
    name = str(path)
    suffix = p.suffix.lower()
    if suffix not in (".py", ".json"):
        return TestCase(diagnostics=[TestCaseProblem(
            f"unknown test case file type `{p.suffix}`; expected .py or .json", 1, 1, "error", name)],
            filename=name)
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        return TestCase(diagnostics=[TestCaseProblem(f"cannot read the file: {e.strerror or e}", 1, 1, "error",
                                                     name)], filename=name)
    if len(data) > MAX_FILE_BYTES:
        return TestCase(diagnostics=[TestCaseProblem(
            f"file larger than {MAX_FILE_BYTES} bytes", 1, 1, "error", name)], filename=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        return TestCase(diagnostics=[TestCaseProblem("the file is not valid UTF-8", line, col, "error", name)],
                        filename=name)
    if suffix == ".py":
        return read_reference_text(text, name)
    return read_json_text(text, name)
