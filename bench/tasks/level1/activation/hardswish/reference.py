r"""Reference for hardswish: y_i = x_i \cdot \min(\max(x_i / 6 + 1/2,\ 0),\ 1)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-6.0, 6.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (x * np.clip(x / 6.0 + 0.5, 0.0, 1.0)).astype(inputs["x"].dtype)}
