r"""Reference for silu: y_i = \frac{x_i}{1 + e^{-x_i}}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-6.0, 6.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (x / (1.0 + np.exp(-x))).astype(inputs["x"].dtype)}
