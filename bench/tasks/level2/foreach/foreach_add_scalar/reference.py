"""Reference for foreach_add_scalar over a list of 3 tensors."""
import numpy as np


def reference(inputs, attrs):
    out = {}
    for i in range(3):
        x = inputs[f"x{i}"]
        out[f"y{i}"] = (x.astype(np.float64) + attrs["scalar"]).astype(x.dtype)
    return out
