r"""Reference for addcdiv: y_i = x_i + \mathrm{value} \cdot \frac{t1_i}{t2_i}."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["x"]
    return {
        "x": (rng.uniform(-1.0, 1.0, size=shape)).astype(case["dtypes"]["x"]),
        "t1": (rng.uniform(-1.0, 1.0, size=shape)).astype(case["dtypes"]["t1"]),
        "t2": (rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.5, 2.0, size=shape)).astype(case["dtypes"]["t2"]),
    }


def reference(inputs, attrs):
    x, t1, t2 = (inputs[k].astype(np.float64) for k in ("x", "t1", "t2"))
    return {"y": (x + attrs["value"] * t1 / t2).astype(inputs["x"].dtype)}
