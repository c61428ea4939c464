"""Namespace-scope variables of which each core has its own copy.

    namespace MatmulV3 {
    struct CallBackContext { bool isFirst; uint64_t inputDtypeSize; };
    __BLOCK_LOCAL__ __inline__ CallBackContext ctx;        // asc-devkit kernel_macros.h: [[block_local]]
    }
    MatmulV3::ctx.isFirst = true;                          // in a kernel's Process; read in its copy callbacks

`[[block_local]]` (A.BLOCK_LOCAL among the declaration's specifiers) gives every core its own instance of the
variable, with static storage duration: it lives for the whole launch, starts zero-initialised (or as its
initialiser says) and keeps what one function of the core stored for the next (ops-nn's Matmul callbacks keep
their state in one). The simulator runs every core's copy of the kernel program with its own registers and
locals, so such a variable is a local of the kernel being lowered, declared at the top of its entry block
(where every use, under any control flow, comes after it) the first time a name reaches it. It is then read,
written, and taken the address of as the local it is. A namespace-scope variable that is neither a constant nor
block-local (one copy shared by the cores: where the hardware keeps it is not documented) stays a gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C, namespace_lookup
from ascendir.lower.frame import at_block_entry
from ascendir.lower.values import Binding
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def is_block_local(vd: A.VarDecl) -> bool:
    return A.BLOCK_LOCAL in vd.specifiers


def binding(lw: FunctionLowerer, name: str, qualifier: Sequence[str] | None = None) -> Binding | None:
    """The storage of block-local variable `name` (written with `qualifier`) in the kernel being lowered (made on
    first use), or None when `name` is no such variable, or no kernel is being lowered."""
    if qualifier is None and lw.frames:
        qualifier = namespace_lookup.block_using(lw, name)  # (`using A::ctx;` in the block: A's)
    keys = namespace_lookup.keys(lw.scope, name, namespace_lookup.namespace_here(lw), qualifier)
    block = lw.kernel_block
    if block is None or not any(is_block_local(lw.scope.constants[k][0]) for k in keys):
        return None
    if len(keys) > 1:  # (only where one of them is block-local: any other is not this function's to answer)
        namespace_lookup.ambiguous(lw, name, qualifier, None)
    found = lw.scope.constants[keys[0]]
    decl = found[1]
    held = lw.block_locals.get(id(decl))
    if held is not None and held[0] is block:
        return held[1]
    # the initialiser sees namespace scope only; the name is written (by other functions), so it is a cell
    with at_block_entry(lw, block, name, keys[0], {name}):
        lw.declare(A.VarDecl(found[0].span, [], [_static_init(lw, decl)]))
        made = lw.frame.scopes[0].get(name)
    if made is not None:
        lw.block_locals[id(decl)] = (block, made)
    return made


def _static_init(lw: FunctionLowerer, decl: A.Declarator) -> A.Declarator:
    """`decl` with the initialisation static storage gives it ([basic.start.static]/2): without an initialiser a
    pointer starts null, and a number or a plain struct is zero-initialised (`{}`, which also takes the default
    member initialisers a constant initialisation would); a class object runs its constructor as declared."""
    if decl.init is not None or decl.ctor_args or "&" in decl.type.pointers:
        return decl
    if "*" in decl.type.pointers:
        return replace(decl, init=A.IntLit(decl.span, "0", 0), init_style="=")
    if isinstance(lw.resolve_type(decl.type, decl), C.Scalar | C.TilingT | C.StructT | C.ArrayT):
        return replace(decl, init=A.InitList(decl.span, []), init_style="{}")
    return decl
