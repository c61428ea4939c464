"""Reference for where: y = condition ? x1 : x2."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x1"]
    dt = case["dtypes"]["x1"]
    return {"condition": rng.random(size=shape) < 0.5,
            "x1": rng.uniform(-1.0, 1.0, size=shape).astype(dt),
            "x2": rng.uniform(-1.0, 1.0, size=shape).astype(dt)}


def reference(inputs, attrs):
    return {"y": np.where(inputs["condition"], inputs["x1"], inputs["x2"])}
