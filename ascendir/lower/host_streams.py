"""String streams in host tiling code, written for logging only.

Vendor tiling classes dump their values before returning:

    std::ostringstream info;
    info << "usedCoreNum: " << splitCoreOp.usedCoreNum << std::endl;
    OP_LOGD(nodeName_, "%s", info.str().c_str());
    info.str("");

What is written to a `std::ostringstream` / `std::stringstream` changes no tiling value, as what is written to
`std::cout` does not (HostLowerer._print): `<<` into one lowers only the operands with effects of their own,
`str("")` and `clear()` empty it, and `str()` is its text, which the host model holds no value of (a use of it
other than in a logging call is reported where it happens). Reading from a stream (`>>`) is not modelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

STRING_STREAMS = frozenset({"ostringstream", "stringstream"})

KIND = "string_stream"


def declare(type_name: str) -> Val:
    """A local `std::ostringstream info;`: a stream whose text the model does not keep."""
    from ascendir.lower.host import HostT

    return Val(HostT(KIND, f"std::{type_name}"))


def is_stream(v: object) -> bool:
    return isinstance(v, Val) and getattr(v.ctype, "kind", None) == KIND


def method(lw: HostLowerer, e: A.Call, name: str, v: Val) -> Val:
    from ascendir.lower.host import HostT

    if name == "str" and len(e.args) == 1 or name == "clear" and not e.args:
        for a in e.args:
            lw.expr(a)
        return Val(C.VoidT())
    if name == "str" and not e.args:
        return Val(HostT("opaque", "the text of a std::ostringstream"))
    raise Unsupported(f"{v.ctype}::{name} is not modelled by the host lowering", e)
