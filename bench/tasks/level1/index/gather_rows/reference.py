"""Reference for gather_rows: y = x[index] along dim 0."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    dt = case["dtypes"]["x"]
    x = rng.integers(-1000, 1000, size=shape) if dt == "int32" else rng.uniform(-1.0, 1.0, size=shape)
    index = rng.integers(0, shape[0], size=case["shapes"]["index"])
    return {"x": x.astype(dt), "index": index.astype(np.int32)}


def reference(inputs, attrs):
    return {"y": inputs["x"][inputs["index"]].copy()}
