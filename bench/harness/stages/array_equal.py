"""Equality of whole arrays, read in pieces.

`np.array_equal` makes a bool array as large as its inputs (one per byte when comparing bytes, several with
`equal_nan`) before it answers: for a 2^29-element case's outputs that is 0.5 to 2 GiB of temporaries per
comparison, at the moment both draws' outputs are held. Comparing piece by piece gives the same answers with
temporaries of one piece.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# elements (or bytes) compared at a time (equal_nan costs ~11 bytes of temporaries a float32 element)
PIECE = 1 << 18


def same_bytes(a: Any, b: Any) -> bool:
    """Whether `a` and `b` hold the same bytes, in C order (`np.array_equal` of their flat uint8 views)."""
    x = np.asarray(a).reshape(-1).view(np.uint8)
    y = np.asarray(b).reshape(-1).view(np.uint8)
    if x.size != y.size:
        return False
    return all(np.array_equal(x[i:i + PIECE], y[i:i + PIECE]) for i in range(0, x.size, PIECE))


def same_values(a: Any, b: Any) -> bool:
    """`np.array_equal(a, b, equal_nan=True)`: the same shape and values, NaN equal to NaN."""
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        return False
    x, y = x.reshape(-1), y.reshape(-1)
    return all(np.array_equal(x[i:i + PIECE], y[i:i + PIECE], equal_nan=True)
               for i in range(0, x.size, PIECE))
