"""Reference for linspace: y_i = start + i * (end - start) / (steps - 1)."""
import numpy as np


def make_inputs(case, rng):
    dt = case["dtypes"]["start"]
    return {"start": np.array([rng.uniform(-10.0, 0.0)], dtype=dt), "end": np.array([rng.uniform(1.0, 10.0)], dtype=dt)}


def reference(inputs, attrs):
    steps = attrs["steps"]
    start, end = float(inputs["start"][0]), float(inputs["end"][0])
    i = np.arange(steps, dtype=np.float64)
    y = start + i * ((end - start) / (steps - 1) if steps > 1 else 0.0)
    return {"y": y.astype(inputs["start"].dtype)}
