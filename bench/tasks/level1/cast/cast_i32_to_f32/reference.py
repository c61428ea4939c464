"""Reference for cast_i32_to_f32: int32 -> float32 (Integers beyond 2^24 round to the nearest float32, ties to even; the result must match bit for bit)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.integers(-(2**30), 2**30, size=shape)).astype("int32")}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": (x).astype("float32")}
