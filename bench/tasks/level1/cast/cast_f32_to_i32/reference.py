"""Reference for cast_f32_to_i32: float32 -> int32 (truncate towards zero)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-1.0e6, 1.0e6, size=shape)).astype("float32")}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": (np.trunc(x)).astype("int32")}
