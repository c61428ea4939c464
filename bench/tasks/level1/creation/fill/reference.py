"""Reference for fill: y = full(dims, value)."""
import numpy as np


def make_inputs(case, rng):
    dt = case["dtypes"]["value"]
    v = rng.integers(-1000, 1000) if dt == "int32" else rng.uniform(-10.0, 10.0)
    return {"value": np.array([v], dtype=dt)}


def reference(inputs, attrs):
    return {"y": np.full(tuple(attrs["dims"]), inputs["value"][0], dtype=inputs["value"].dtype)}
