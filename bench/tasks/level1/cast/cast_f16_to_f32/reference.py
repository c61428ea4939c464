"""Reference for cast_f16_to_f32: float16 -> float32 (exact)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-1000.0, 1000.0, size=shape)).astype("float16")}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": (x).astype("float32")}
