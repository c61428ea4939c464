"""Reference for cast_i32_to_f32: int32 -> float32 (round to nearest, ties to even)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.integers(-(2**30), 2**30, size=shape)).astype("int32")}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": (x).astype("float32")}
