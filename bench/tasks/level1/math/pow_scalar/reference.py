r"""Reference for pow_scalar: y_i = x_i^{\,\mathrm{exponent}}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(0.1, 3.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (np.power(x, attrs["exponent"])).astype(inputs["x"].dtype)}
