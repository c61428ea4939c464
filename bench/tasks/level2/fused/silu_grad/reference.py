r"""Reference for silu_grad: dy * d/dx [x sigmoid(x)]."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    dt = case["dtypes"]["x"]
    return {"dy": rng.uniform(-1.0, 1.0, size=shape).astype(dt), "x": rng.uniform(-8.0, 8.0, size=shape).astype(dt)}


def reference(inputs, attrs):
    dy = inputs["dy"].astype(np.float64)
    x = inputs["x"].astype(np.float64)
    s = 1.0 / (1.0 + np.exp(-x))
    return {"dx": (dy * s * (1.0 + x * (1.0 - s))).astype(inputs["dy"].dtype)}
