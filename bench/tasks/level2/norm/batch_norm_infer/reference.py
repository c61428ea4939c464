"""Reference for batch_norm_infer (channels last)."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    dt = case["dtypes"]["x"]
    return {"x": (rng.standard_normal(s["x"]) * 2.0 + 0.3).astype(dt),
            "mean": rng.uniform(-0.5, 0.5, size=s["mean"]).astype(dt),
            "var": rng.uniform(0.5, 4.0, size=s["var"]).astype(dt),
            "gamma": rng.uniform(0.5, 1.5, size=s["gamma"]).astype(dt),
            "beta": rng.uniform(-0.5, 0.5, size=s["beta"]).astype(dt)}


def reference(inputs, attrs):
    f = {k: v.astype(np.float64) for k, v in inputs.items()}
    y = (f["x"] - f["mean"]) / np.sqrt(f["var"] + attrs["epsilon"]) * f["gamma"] + f["beta"]
    return {"y": y.astype(inputs["x"].dtype)}
