"""What a test case file gives (TestCase: tensors, scalars, constructor arguments) and the problems found in
it (TestCaseProblem), with the limits a reader keeps to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ascendir.host_eval import TensorSpec


MAX_FILE_BYTES = 4 << 20
MAX_SEQ = 1 << 16  # elements in one evaluated list / tuple / string
MAX_INT_BITS = 256  # larger integers are refused rather than computed
MAX_STEPS = 300_000  # evaluation steps per file
MAX_RANK = 64

Scalar = int | float | bool
# a non-tensor argument: a number, a bool, or a tuple of them (a list-valued attribute such as a size)
Attr = Scalar | tuple[Scalar, ...]


@dataclass
class TestCaseProblem:
    """One problem found in a test case file; line and col are 1-based."""

    message: str
    line: int
    col: int
    severity: str = "error"  # "error" or "warning"
    filename: str = ""

    def __str__(self) -> str:
        return f"{self.filename or '<test case>'}:{self.line}:{self.col}: {self.severity}: {self.message}"


@dataclass
class TestCase:
    """The inputs a test case file gives.

    `inputs` are the tensors and `scalars` the other entries of `get_inputs()` (numbers, bools, tuples of
    them), each in order;
    `call_args` keeps all of them in their original interleaved order. `init_args` are the values of
    `get_init_inputs()` (tensors there appear as `TensorSpec`). `forward_params` / `init_params` are the
    parameter names of `Model.forward` / `Model.__init__` (without self), or None when not found.
    """

    __test__ = False  # not a pytest test class

    inputs: list[TensorSpec] = field(default_factory=list)
    scalars: list[Attr] = field(default_factory=list)
    init_args: list[object] = field(default_factory=list)
    diagnostics: list[TestCaseProblem] = field(default_factory=list)
    call_args: list[TensorSpec | Attr] = field(default_factory=list)
    forward_params: list[str] | None = None
    init_params: list[str] | None = None
    filename: str = ""

    @property
    def ok(self) -> bool:
        """True when no error was found (warnings allowed)."""
        return not any(d.severity == "error" for d in self.diagnostics)

    @property
    def errors(self) -> list[TestCaseProblem]:
        return [d for d in self.diagnostics if d.severity == "error"]
