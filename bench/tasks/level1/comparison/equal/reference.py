r"""Reference for equal: y_i = (x1_i = x2_i)."""
import numpy as np

def make_inputs(case, rng):
    # values on a coarse grid, so that many pairs are exactly equal
    shape = case["shapes"]["x1"]
    dt = case["dtypes"]["x1"]
    x1 = rng.integers(-4, 5, size=shape) * 0.25
    x2 = np.where(rng.random(size=shape) < 0.5, x1, rng.integers(-4, 5, size=shape) * 0.25)
    return {"x1": x1.astype(dt), "x2": x2.astype(dt)}


def reference(inputs, attrs):
    x1, x2 = inputs["x1"], inputs["x2"]
    return {"y": np.equal(x1, x2)}
