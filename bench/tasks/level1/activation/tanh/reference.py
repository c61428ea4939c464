r"""Reference for tanh: y_i = \tanh x_i."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-6.0, 6.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (np.tanh(x)).astype(inputs["x"].dtype)}
