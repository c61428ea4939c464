"""Reference for is_finite: y = isfinite(x)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    x = rng.uniform(-100.0, 100.0, size=shape)
    special = rng.choice(np.array([np.inf, -np.inf, np.nan]), size=shape)
    x = np.where(rng.random(size=shape) < 0.2, special, x)
    return {"x": x.astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    return {"y": np.isfinite(inputs["x"])}
