"""Arrays in global memory declared at namespace scope in kernel code.

    static volatile __gm__ uint32_t g_syncFlags[16] = {0, 0, ...};
    ...
    if (GetBlockIdx() == 0) { g_syncFlags[0] = 0; }        // in a kernel, or a method it calls

Such an array has static storage in GM, one copy that every core of the launch reads and writes (vendor norm
kernels keep a flag there that orders their cores' atomic adds). The kernel lowering gives each one a GM
parameter of the kernel, after the declared ones, named STATIC_PREFIX + its name, and reads and writes it through
that pointer as through any `__gm__ T*` parameter. The kernel op records the array's initial bytes (its
initialiser; zeros where it has none, as static storage starts) under ATTR, which the simulator's program
keeps, so that a launch allocates the array with them. Only arrays of numbers are modelled.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import DictionaryAttr, StringAttr
from xdsl.ir import Block

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# the name of the kernel parameter that holds one such array
STATIC_PREFIX = "__gm_static_"

# the kernel op's attribute: {parameter name: its initial bytes, as hex}
ATTR = "gm_statics"

_NUMPY = {"int8_t": np.int8, "uint8_t": np.uint8, "int16_t": np.int16, "uint16_t": np.uint16, "int32_t": np.int32,
          "uint32_t": np.uint32, "int64_t": np.int64, "uint64_t": np.uint64, "float": np.float32,
          "half": np.float16, "bool": np.uint8, "char": np.int8}  # fmt: skip


def is_gm_array(decl: A.Declarator) -> bool:
    return decl.type.address_space == "__gm__" and not decl.type.pointers


def value(lw: FunctionLowerer, decl: A.Declarator, node: A.Node, owner: str = "") -> Val:
    """The pointer to a namespace-scope `__gm__` array of the kernel being lowered (made at its first use); with
    `owner` (a class, with its template arguments), the class's static member array of that name
    (`constexpr static __gm__ T assistGm[256] = {...}`, ops-math lin_space's index table): one array per class
    instantiation, as each has its own static member."""
    block = lw.kernel_block
    if block is None:
        raise Unsupported(f"'{decl.name}' in global memory outside a kernel is not modelled", node)
    t = lw.resolve_type(decl.type, decl)
    if not isinstance(t, C.ArrayT) or not isinstance(t.elem, C.Scalar) or t.elem.name not in _NUMPY:
        raise Unsupported(f"'{decl.name}': a static __gm__ variable other than an array of numbers is not "
                          "modelled", node)
    name = STATIC_PREFIX + (re.sub(r"\W", "_", f"{owner}_{t.elem.name}__") if owner else "") + decl.name
    pointer = C.Pointer(t.elem, gm=True)
    for arg in block.args:
        if arg.name_hint == name:
            return Val(pointer, arg)
    arg = block.insert_arg(C.ir_type(pointer), len(block.args))
    arg.name_hint = name
    lw.gm_statics[name] = _initial_bytes(lw, decl, t).hex()
    return Val(pointer, arg)


def _initial_bytes(lw: FunctionLowerer, decl: A.Declarator, t: C.ArrayT) -> bytes:
    assert isinstance(t.elem, C.Scalar)
    data = np.zeros(t.size, dtype=_NUMPY[t.elem.name])
    items = decl.init.items if isinstance(decl.init, A.InitList) else [decl.init] if decl.init is not None else []
    if len(items) > t.size:
        raise Unsupported(f"'{decl.name}' has more initialisers than elements", decl)
    for i, item in enumerate(items):
        v = lw.const_eval(item)
        if not isinstance(v, int | float):
            raise Unsupported(f"'{decl.name}': an initialiser that is not a constant number", item)
        data[i] = v
    return data.tobytes()


def kernel_attribute(lw: FunctionLowerer, block: Block) -> DictionaryAttr | None:
    """ATTR for the kernel whose entry block is `block`: the arrays it was given parameters for."""
    names = [a.name_hint for a in block.args if a.name_hint and a.name_hint.startswith(STATIC_PREFIX)]
    if not names:
        return None
    return DictionaryAttr({n: StringAttr(lw.gm_statics[n]) for n in names})
