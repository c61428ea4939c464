"""The bit patterns of float constants in the simulator program text: a value rounded to f64, f32, f16 or
bf16, written as hex (exact, unlike decimal text).
"""

from __future__ import annotations

import struct as _struct

import numpy as np

from passes.sim.registers import NotModelled


def float_bits(value: float, ty: str) -> str:
    """The bit pattern of `value` rounded to float type `ty`, as hex (exact, unlike decimal text)."""
    if ty == "f64":
        return "0x" + _struct.pack(">d", value).hex()
    if ty == "f32":
        return f"0x{int(np.float32(value).view(np.uint32)):08x}"
    if ty == "f16":
        return f"0x{int(np.float16(value).view(np.uint16)):04x}"
    if ty == "bf16":  # round to nearest even from f32
        bits = int(np.float32(value).view(np.uint32))
        if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
            return "0x7fc0"
        bits += 0x7FFF + ((bits >> 16) & 1)
        return f"0x{(bits >> 16) & 0xFFFF:04x}"
    raise NotModelled(f"a float constant of type {ty}")
