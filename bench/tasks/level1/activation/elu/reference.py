r"""Reference for elu: y_i = \begin{cases} x_i & x_i > 0 \\ \alpha (e^{x_i} - 1) & x_i \le 0 \end{cases}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-6.0, 6.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (np.where(x > 0, x, attrs["alpha"] * np.expm1(np.minimum(x, 0.0)))).astype(inputs["x"].dtype)}
