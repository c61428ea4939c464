r"""Reference for fast_gelu: x * sigmoid(1.702 x)."""
import numpy as np


def make_inputs(case, rng):
    return {"x": rng.uniform(-8.0, 8.0, size=case["shapes"]["x"]).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    return {"y": (x / (1.0 + np.exp(-1.702 * x))).astype(inputs["x"].dtype)}
