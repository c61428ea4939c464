r"""Reference for sigmoid_mul: x * sigmoid(gate)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    dt = case["dtypes"]["x"]
    return {"x": rng.uniform(-2.0, 2.0, size=shape).astype(dt), "gate": rng.uniform(-8.0, 8.0, size=shape).astype(dt)}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    g = inputs["gate"].astype(np.float64)
    return {"y": (x / (1.0 + np.exp(-g))).astype(inputs["x"].dtype)}
