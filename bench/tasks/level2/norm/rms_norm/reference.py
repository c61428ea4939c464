"""Reference for rms_norm over the last axis."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    dt = case["dtypes"]["x"]
    return {"x": (rng.standard_normal(s["x"]) * 2.0).astype(dt),
            "gamma": rng.uniform(0.5, 1.5, size=s["gamma"]).astype(dt)}


def reference(inputs, attrs):
    x = inputs["x"].astype(np.float64)
    rstd = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + attrs["epsilon"])
    return {"y": (x * rstd * inputs["gamma"].astype(np.float64)).astype(inputs["x"].dtype)}
