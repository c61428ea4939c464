"""Reference for vector_norm over the last axis."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-1.0, 1.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": np.asarray(np.sqrt((x.astype(np.float64) ** 2).sum(axis=-1))).astype(x.dtype)}
