"""Every kernel of the clean corpus lowers to IR that verifies and survives print -> parse -> print.

With source locations, a module holding an `scf.while` is round-tripped in the generic format: xDSL
0.74 prints the custom form of `scf.while` with its `loc(...)` before the region, where its own parser
does not accept it.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

from ascendir.context import make_context
from ascendir.lower import lower_program
from frontend.pipeline import load_bundle
from frontend.readers import Bundle, collect_inputs

CLEAN = Path(__file__).resolve().parents[1] / "corpus" / "clean"
BUNDLES = {
    Path(b.input).resolve().relative_to(CLEAN).as_posix(): b for b in collect_inputs([str(CLEAN)], "auto")
}

# Inputs whose lowering is known to be wrong; strict, so a fix shows up as a failure to remove the entry.
KNOWN_BAD: dict[str, str] = {}


def cases() -> list[object]:
    return [
        pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_BAD[name], strict=True)) if name in KNOWN_BAD
        else name
        for name in sorted(BUNDLES)
    ]  # fmt: skip


@cache
def lowered(name: str) -> ModuleOp:
    bundle: Bundle = BUNDLES[name]
    result = lower_program(load_bundle(bundle))
    assert not result.diagnostics, [d.message for d in result.diagnostics]
    return result.module


def print_ir(module: ModuleOp, **options: bool) -> str:
    out = io.StringIO()
    Printer(stream=out, **options).print_op(module)
    return out.getvalue()


def reprint(text: str, **options: bool) -> str:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return print_ir(module, **options)


def undominated_uses(module: ModuleOp) -> list[str]:
    """Operands defined neither earlier in the user's block nor in a block enclosing it (xDSL's verify
    does not check dominance)."""
    found = []
    for op in module.walk():
        for operand in op.operands:
            owner = operand.owner  # the defining op, or the block of a block argument
            block = owner.parent_block() if isinstance(owner, Operation) else owner
            user = block.find_ancestor_op_in_block(op) if block is not None else None
            if user is None or (isinstance(owner, Operation) and not owner.is_before_in_block(user)):
                found.append(
                    f"{op.name} uses %{operand.name_hint or '?'} outside the scope of its definition"
                )
    return found


@pytest.mark.parametrize("name", cases())
def test_lowered_module_verifies(name: str) -> None:
    module = lowered(name)
    module.verify()
    assert not undominated_uses(module)


@pytest.mark.parametrize("name", cases())
def test_custom_form_round_trips(name: str) -> None:
    text = print_ir(lowered(name))
    assert reprint(text) == text


@pytest.mark.parametrize("name", cases())
def test_debuginfo_form_round_trips(name: str) -> None:
    module = lowered(name)
    has_while = any(isinstance(op, scf.WhileOp) for op in module.walk())
    options = {"print_debuginfo": True, "print_generic_format": has_while}
    text = print_ir(module, **options)
    assert 'loc("' in text or not module.body.block.ops  # host-only inputs lower to an empty module
    assert reprint(text, **options) == text
