"""Reference for swiglu: y = act(x[..., :H]) * x[..., H:]."""
import numpy as np


def make_inputs(case, rng):
    return {"x": rng.uniform(-5.0, 5.0, size=case["shapes"]["x"]).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    h = x.shape[-1] // 2
    a, b = x[..., :h], x[..., h:]
    y = a / (1.0 + np.exp(-a)) * b
    return {"y": y.astype(inputs["x"].dtype)}
