"""Tensor lists in GM: how a dynamic (tensor-list) input or output reaches the kernel.

For an op input declared `ParamType(DYNAMIC)` the runtime hands the kernel one GM address, that of a descriptor
it builds (the layout AscendC's ListTensorDesc parses), all in 64-bit words:

    word 0                 the byte offset from the descriptor's start to its pointer table
    then, per tensor k     a header word, dim count in the low 32 bits and k in the high 32, then its dims
    then, per tensor k     tensor k's GM address

Kernels read it with ListTensorDesc, or by hand (`*(uint64_t*)list` gives the offset, the table follows) and
turn the addresses back into pointers. The simulator gives every GM buffer of a launch an address of its own
(rust_sim/src/memory.rs: `gm_address`): buffer b starts at GM_ADDRESS_BASE + b * GM_ADDRESS_STRIDE, and an
integer cast to a GM pointer is decoded the same way. The tensors themselves are buffers of the launch after
its kernel parameters, so every check on GM (bounds, unwritten outputs, races) applies to each one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

GM_ADDRESS_BASE = 0x1000_0000_0000  # rust_sim/src/memory.rs GM_ADDRESS_BASE
GM_ADDRESS_STRIDE = 1 << 36  # rust_sim/src/memory.rs GM_ADDRESS_STRIDE


def gm_address(buffer: int, offset: int = 0) -> int:
    """The address the kernel sees for byte `offset` of the launch's GM buffer number `buffer`."""
    return GM_ADDRESS_BASE + buffer * GM_ADDRESS_STRIDE + offset


def descriptor(shapes: Sequence[Sequence[int]], buffers: Sequence[int]) -> np.ndarray:
    """The descriptor of a list of tensors of `shapes` held in GM buffers `buffers`, as uint64 words."""
    if len(shapes) != len(buffers):
        raise ValueError(f"{len(shapes)} shapes for {len(buffers)} buffers")
    words: list[int] = [0]
    for k, shape in enumerate(shapes):
        words.append(len(shape) | (k << 32))
        words.extend(int(d) for d in shape)
    words[0] = len(words) * 8  # the pointer table follows the shapes
    words.extend(gm_address(b) for b in buffers)
    return np.array(words, dtype=np.uint64)


def is_tensor_list(value: object) -> bool:
    """Whether an input or output given to a launch is a list of tensors (a dynamic input or output): a list or
    tuple whose items are arrays or tensor specs, not a (shape, dtype) pair."""
    if not isinstance(value, (list, tuple)):
        return False
    if isinstance(value, tuple) and len(value) == 2 and (
            isinstance(value[1], str | np.dtype) or isinstance(value[1], type) and issubclass(value[1], np.generic)):
        return False  # (shape, dtype), the dtype a name, a numpy dtype or a numpy scalar type (np.float16)
    return all(not isinstance(v, (int, float, str, bool)) for v in value)
