r"""Reference for sigmoid: y_i = \frac{1}{1 + e^{-x_i}}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-6.0, 6.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (1.0 / (1.0 + np.exp(-x))).astype(inputs["x"].dtype)}
