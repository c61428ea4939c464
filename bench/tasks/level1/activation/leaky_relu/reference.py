r"""Reference for leaky_relu (the formula is in task.toml)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-6.0, 6.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (np.where(x >= 0, x, attrs["negative_slope"] * x)).astype(inputs["x"].dtype)}
