"""Reference for reduce_max over the last axis."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-10.0, 10.0, size=shape)).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": np.asarray(x.max(axis=-1)).astype(x.dtype)}
