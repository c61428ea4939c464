"""Reference for foreach_exp over a list of 3 tensors."""
import numpy as np


def make_inputs(case, rng):
    return {k: rng.uniform(-4.0, 4.0, size=s).astype(case["dtypes"][k]) for k, s in case["shapes"].items()}


def reference(inputs, attrs):
    out = {}
    for i in range(3):
        x = inputs[f"x{i}"]
        out[f"y{i}"] = np.exp(x.astype(np.float64)).astype(x.dtype)
    return out
