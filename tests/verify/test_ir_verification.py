"""The checker verifies the IR it lowers: an op that breaks its dialect's rules is an ASC000 internal error at the
op's source location, with the verifier's message, never a silent pass; `--no-verify-ir` (or
ASCENDIR_VERIFY_IR=0) turns the check off."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, IntegerAttr, StringAttr, i16, i32

import ascendir.lower as lowering
from cli.check import main as check_cli
from frontend.pipeline import read_input
from passes.verify import check_program, load_for_check

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "tests" / "corpus" / "clean" / "kernels" / "tpipe" / "add_custom.cpp"


@pytest.fixture
def broken_lowering(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lowering that ends every kernel with an i32 + i16 addition, which arith.addi rejects."""
    real = lowering.lower_program

    def lower_program(*args: object, **kwargs: object) -> lowering.LoweringResult:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        for kernel in result.kernels:
            block = kernel.body.block
            a = arith.ConstantOp(IntegerAttr(1, i32))
            b = arith.ConstantOp(IntegerAttr(2, i16))
            add = arith.AddiOp.create(operands=[a.result, b.result], result_types=[i32])
            add.location = FileLineColLoc(StringAttr(str(KERNEL)), IntAttr(7), IntAttr(5))
            block.insert_ops_before([a, b, add], block.last_op)  # type: ignore[arg-type]
        return result

    monkeypatch.setattr(lowering, "lower_program", lower_program)


def _program() -> object:
    return load_for_check(read_input(str(KERNEL)))[0]


def test_ir_that_does_not_verify_is_an_internal_error_at_the_op(broken_lowering: None) -> None:
    found = [d for d in check_program(_program()) if d.code == "ASC000"]  # type: ignore[arg-type]
    assert len(found) == 1
    d = found[0]
    assert d.is_error and (d.span.file, d.span.line, d.span.col) == (str(KERNEL), 7, 5)
    assert d.message.startswith("internal error: the IR lowered here does not verify: 'arith.addi': ")
    assert "i16" in d.message and "\n" not in d.message


def test_verification_can_be_turned_off(broken_lowering: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not [d for d in check_program(_program(), verify_ir=False) if d.code == "ASC000"]  # type: ignore[arg-type]
    monkeypatch.setenv("ASCENDIR_VERIFY_IR", "0")
    assert not [d for d in check_program(_program()) if d.code == "ASC000"]  # type: ignore[arg-type]


def test_the_cli_exits_2_on_ir_that_does_not_verify_and_the_flag_turns_it_off(broken_lowering: None) -> None:
    runner = CliRunner()
    on = runner.invoke(check_cli, [str(KERNEL)])
    assert on.exit_code == 2 and "does not verify: 'arith.addi'" in on.stdout + on.stderr
    off = runner.invoke(check_cli, ["--no-verify-ir", str(KERNEL)])
    assert off.exit_code == 0, off.stdout + off.stderr


def test_a_clean_kernel_verifies() -> None:
    assert check_program(_program(), verify_ir=True) == []  # type: ignore[arg-type]
