"""Reference for cast_f32_to_f16: float32 -> float16 (round to nearest, ties to even)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": (rng.uniform(-1000.0, 1000.0, size=shape)).astype("float32")}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": (x).astype("float16")}
