"""Local lambdas: `auto f = [captures](params) { body };` and calls `f(args)` in the same function.

Vendor host code names a helper it calls twice with different arguments (ops-nn mse_loss_v2's tiling):

    auto CalcBlockPerQue = [UBSize](uint32_t bufferNum) { ... optiling::blockPerQue = ...; };
    CalcBlockPerQue(1u);
    if (epochs > 1u) { CalcBlockPerQue(2u); }

A lambda is the closure object made where it is written: its value records the captures as they stand there.
A call inlines its body as a function whose frame starts with those captures and then binds the parameters
(which shadow a capture of the same name). A capture by reference (`&x`, or any name under `[&]`) is the
enclosing variable itself, its cell, so writes inside the body are seen after the call; a capture by value
(`x`, or any name under `[=]`) is the variable's value when the lambda was made, as C++ copies it then.
`this` is the enclosing function's object, whatever the capture list says (a body naming a member without
capturing `this` does not compile). Lambdas passed to other functions, stored in containers, or returned
are not modelled: their uses report the gap where the lowering meets them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.astwalk import walk
from ascendir.lower.values import Binding, Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# the type a lambda's value has: only calls use it
LAMBDA_T = C.UnknownT("lambda")


@dataclass(frozen=True)
class Closure:
    """A lambda made in a function: its text, what it captured, and the enclosing object and template types."""

    lam: A.Lambda
    captured: dict[str, Binding]
    this: Instance | None
    types: dict[str, object]


def _used_names(lam: A.Lambda) -> set[str]:
    """The unqualified names the body uses: what a default capture (`[&]`, `[=]`) takes from the enclosing
    function (names it does not have, such as its own locals or namespace-scope variables, are not found there)."""
    return {n.qname.parts[0].name for n in walk(lam.body)
            if isinstance(n, A.Name) and len(n.qname.parts) == 1}


def make(lw: FunctionLowerer, lam: A.Lambda) -> Val:
    """The closure `lam` makes where it is written."""
    by_ref: set[str] = set()
    by_value: set[str] = set()
    used = _used_names(lam)
    for capture in lam.captures:
        if capture == "&":
            by_ref |= used
        elif capture == "=":
            by_value |= used
        elif capture.startswith("&"):
            by_ref.add(capture[1:])
        elif capture.isidentifier() and capture != "this":
            by_value.add(capture)
    # an explicit capture wins over the default: `[=, &x]` takes x by reference, `[&, x]` by value
    explicit_ref = {c[1:] for c in lam.captures if c.startswith("&") and len(c) > 1}
    explicit_value = {c for c in lam.captures if c.isidentifier() and c != "this"}
    by_ref = (by_ref - explicit_value) | explicit_ref
    by_value = (by_value - explicit_ref) | explicit_value
    captured: dict[str, Binding] = {}
    for name in sorted(by_ref | by_value):
        found = _local(lw, name)
        if found is None:
            continue  # a namespace-scope variable or constant: the body finds it as any function does
        if name in by_value and isinstance(found, Cell):
            found = lw.read_binding(found, lam)  # C++ copies it when the lambda is made
        captured[name] = found
    frame = lw.frame
    return Val(LAMBDA_T, obj=Closure(lam, captured, frame.this, dict(frame.types)))


def _local(lw: FunctionLowerer, name: str) -> Binding | None:
    """`name` in the enclosing function's block scopes (not its object's members, which `this` reaches)."""
    for scope in reversed(lw.frame.scopes):
        if name in scope:
            return scope[name]
    return None


def closure_of(b: Binding | None) -> Closure | None:
    """The closure a local holds, or None."""
    return b.obj if isinstance(b, Val) and isinstance(b.obj, Closure) else None


def call(lw: FunctionLowerer, closure: Closure, args: list[Val], e: A.Call) -> Val:
    """`f(args)`: the body inlined with the captures, then the parameters, in scope; it returns the type written
    after `->`, else the one its returns give (`auto`)."""
    lam = closure.lam
    span = lam.span
    returns = lam.return_type if lam.return_type is not None else A.TypeRef(span, "auto")
    fn = A.FunctionDecl(span, A.QualifiedName(span, [A.NamePart(span, "lambda", None)]),
                        returns, list(lam.params), lam.body)
    return lw.inline_function(fn, args, closure.this, e, dict(closure.types), captured=closure.captured)
