"""Reference for layer_norm over the last axis."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    dt = case["dtypes"]["x"]
    return {"x": (rng.standard_normal(s["x"]) * 2.0 + 0.5).astype(dt),
            "gamma": rng.uniform(0.5, 1.5, size=s["gamma"]).astype(dt),
            "beta": rng.uniform(-0.5, 0.5, size=s["beta"]).astype(dt)}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    y = (x - mean) / np.sqrt(var + attrs["epsilon"])
    y = y * inputs["gamma"].astype(np.float64) + inputs["beta"].astype(np.float64)
    return {"y": y.astype(inputs["x"].dtype)}
