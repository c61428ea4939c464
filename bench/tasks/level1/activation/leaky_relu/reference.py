r"""Reference for leaky_relu: y_i = \begin{cases} x_i & x_i \ge 0 \\ \mathrm{negative\_slope} \cdot x_i & x_i < 0 \end{cases}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-6.0, 6.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (np.where(x >= 0, x, attrs["negative_slope"] * x)).astype(inputs["x"].dtype)}
