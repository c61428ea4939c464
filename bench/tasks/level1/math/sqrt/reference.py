"""Reference for sqrt: y = sqrt(x) over non-negative x."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {"x": rng.uniform(0.0, 4.0, size=shape).astype(case["dtypes"]["x"])}


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": np.sqrt(x.astype(np.float64)).astype(x.dtype)}
