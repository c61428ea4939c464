"""Reference for add_rms_norm: s = x1 + x2, y = rms_norm(s) * gamma."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    dt = case["dtypes"]["x1"]
    return {"x1": rng.standard_normal(s["x1"]).astype(dt), "x2": rng.standard_normal(s["x2"]).astype(dt),
            "gamma": rng.uniform(0.5, 1.5, size=s["gamma"]).astype(dt)}


def reference(inputs, attrs):
    dt = inputs["x1"].dtype
    s = inputs["x1"].astype(np.float64) + inputs["x2"].astype(np.float64)
    rstd = 1.0 / np.sqrt((s * s).mean(axis=-1, keepdims=True) + attrs["epsilon"])
    return {"y": (s * rstd * inputs["gamma"].astype(np.float64)).astype(dt), "sum": s.astype(dt)}
