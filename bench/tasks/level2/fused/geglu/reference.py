"""Reference for geglu: y = act(x[..., :H]) * x[..., H:]."""
import numpy as np


def make_inputs(case, rng):
    return {"x": rng.uniform(-5.0, 5.0, size=case["shapes"]["x"]).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    h = x.shape[-1] // 2
    a, b = x[..., :h], x[..., h:]
    y = 0.5 * a * (1.0 + np.tanh(0.7978845608028654 * (a + 0.044715 * a ** 3))) * b
    return {"y": y.astype(inputs["x"].dtype)}
