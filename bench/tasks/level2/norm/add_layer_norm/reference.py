"""Reference for add_layer_norm: s = x1 + x2, y = layer_norm(s) * gamma + beta."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    dt = case["dtypes"]["x1"]
    return {"x1": rng.standard_normal(s["x1"]).astype(dt), "x2": (rng.standard_normal(s["x2"]) + 1.0).astype(dt),
            "gamma": rng.uniform(0.5, 1.5, size=s["gamma"]).astype(dt),
            "beta": rng.uniform(-0.5, 0.5, size=s["beta"]).astype(dt)}


def reference(inputs, attrs):
    dt = inputs["x1"].dtype
    s = inputs["x1"].astype(np.float64) + inputs["x2"].astype(np.float64)
    mean = s.mean(axis=-1, keepdims=True)
    var = ((s - mean) ** 2).mean(axis=-1, keepdims=True)
    y = (s - mean) / np.sqrt(var + attrs["epsilon"]) * inputs["gamma"].astype(np.float64)
    return {"y": (y + inputs["beta"].astype(np.float64)).astype(dt), "sum": s.astype(dt)}
