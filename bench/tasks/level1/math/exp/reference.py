r"""Reference for exp: y_i = e^{x_i}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-4.0, 4.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (np.exp(x)).astype(inputs["x"].dtype)}
