r"""Reference for gelu (tanh approximation)."""
import numpy as np


def make_inputs(case, rng):
    return {"x": rng.uniform(-6.0, 6.0, size=case["shapes"]["x"]).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    u = 0.7978845608028654 * (x + 0.044715 * x ** 3)
    return {"y": (0.5 * x * (1.0 + np.tanh(u))).astype(inputs["x"].dtype)}
