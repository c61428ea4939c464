"""The xDSL context every tool uses: the standard dialects the lowering emits plus ours."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf

from ascendir.dialects.ascendc import ASCENDC
from ascendir.dialects.host import Host


def make_context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Func, Math, MemRef, Scf, ASCENDC, Host):
        ctx.load_dialect(dialect)
    return ctx
