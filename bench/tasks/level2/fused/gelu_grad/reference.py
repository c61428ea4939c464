r"""Reference for gelu_grad: dy * d/dx [x/2 (1 + tanh(c (x + a x^3)))]."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    dt = case["dtypes"]["x"]
    return {"dy": rng.uniform(-1.0, 1.0, size=shape).astype(dt), "x": rng.uniform(-5.0, 5.0, size=shape).astype(dt)}


def reference(inputs, attrs):
    dy = inputs["dy"].astype(np.float64)
    x = inputs["x"].astype(np.float64)
    c, a = 0.7978845608028654, 0.044715
    t = np.tanh(c * (x + a * x ** 3))
    d = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * c * (1.0 + 3.0 * a * x * x)
    return {"dx": (dy * d).astype(inputs["dy"].dtype)}
