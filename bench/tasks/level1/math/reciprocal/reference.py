r"""Reference for reciprocal: y_i = \frac{1}{x_i}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.25, 4.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (1.0 / x).astype(inputs["x"].dtype)}
