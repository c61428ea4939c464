"""Reference for arange: y_i = start + i * step."""
import numpy as np


def make_inputs(case, rng):
    dt = case["dtypes"]["start"]
    if dt == "int32":
        start, step = rng.integers(-1000, 1000), rng.integers(-7, 8)
    elif dt == "float16":
        start, step = rng.integers(-64, 64) * 0.5, 0.125     # values stay exact-ish in fp16
    else:
        start, step = rng.uniform(-10.0, 10.0), rng.uniform(-0.01, 0.01)
    return {"start": np.array([start], dtype=dt), "step": np.array([step], dtype=dt)}


def reference(inputs, attrs):
    dt = inputs["start"].dtype
    i = np.arange(attrs["size"], dtype=np.int64)
    if np.issubdtype(dt, np.integer):
        return {"y": (int(inputs["start"][0]) + i * int(inputs["step"][0])).astype(dt)}
    y = float(inputs["start"][0]) + i.astype(np.float64) * float(inputs["step"][0])
    return {"y": y.astype(dt)}
