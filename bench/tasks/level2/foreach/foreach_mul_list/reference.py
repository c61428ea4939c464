"""Reference for foreach_mul_list over a list of 3 tensors."""
import numpy as np


def reference(inputs, attrs):
    out = {}
    for i in range(3):
        a = inputs[f"a{i}"]
        out[f"y{i}"] = (a.astype(np.float64) * inputs[f"b{i}"].astype(np.float64)).astype(a.dtype)
    return out
