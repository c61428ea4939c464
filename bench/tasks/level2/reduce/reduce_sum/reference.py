"""Reference for reduce_sum over the last axis."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-1.0, 1.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": np.asarray(x.astype(np.float64).sum(axis=-1)).astype(x.dtype)}
