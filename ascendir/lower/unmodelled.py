"""What a value of no IR type stands for: the lowering gives a variable, member or result whose C type it could
not resolve (ASC105, ASC103) or does not model (arch35's register API) the IR type `none`, which says nothing of
the construct. The op that makes such a value (its cell's alloca, an undef) carries the construct's text in
UNMODELLED_TYPE_ATTR, so that the simulator program, which cannot hold the value, names it (issue 28:
'a value of type none (MaskReg: arch35's register API (AscendC::Reg, MicroAPI), which the lowering does
not model)') as the checker does at that line.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, NoneType, StringAttr
from xdsl.ir import Attribute, Operation

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.ast_queries import node_text, type_text
from frontend import ast as A


def _untyped(t: Attribute) -> bool:
    return isinstance(t, NoneType) or isinstance(t, MemRefType) and isinstance(t.element_type, NoneType)


def describe(t: object, node: A.Node | None) -> str:
    """The construct a value of C type `t`, made at `node`, stands for: the type as written where the node
    declares it, else the lowering's text of it, and why it has no IR type."""
    written = ""
    if isinstance(node, A.Declarator | A.Param) and isinstance(getattr(node, "type", None), A.TypeRef):
        written = type_text(node.type, full=True)
    elif isinstance(node, A.Call):
        callee = node.callee.member if isinstance(node.callee, A.Member) else node_text(node.callee)
        written = f"the result of {callee}" if callee != "?" else ""
    text = written or (str(t) if str(t) not in ("", "?") else "")
    if isinstance(t, C.RegisterApiT):
        why = "arch35's register API (AscendC::Reg, MicroAPI), which the lowering does not model"
    elif isinstance(t, C.UnresolvedArgT):
        why = "named by a template argument the lowering could not resolve"
    elif isinstance(t, C.UnknownT) and t.text not in ("", "?") and t.text != text:
        why = f"of type {t.text}, which the lowering could not resolve"
    else:
        why = "a type the lowering could not resolve"
    return f"{text}: {why}" if text else why


def mark(op: Operation, t: object, node: A.Node | None) -> None:
    """Puts the construct's text on `op` when its result has no IR type."""
    if op.results and _untyped(op.results[0].type):
        op.attributes[asc.UNMODELLED_TYPE_ATTR] = StringAttr(describe(t, node))
