r"""Reference for rsqrt: y_i = \frac{1}{\sqrt{x_i}}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(0.1, 4.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (1.0 / np.sqrt(x)).astype(inputs["x"].dtype)}
