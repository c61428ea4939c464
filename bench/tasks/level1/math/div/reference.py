r"""Reference for div: y_i = \frac{x1_i}{x2_i}."""
import numpy as np

def make_inputs(case, rng):
    shape = case["shapes"]["x1"]
    return {
        "x2": (rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.5, 2.0, size=shape)).astype(case["dtypes"]["x2"]),
        "x1": rng.uniform(-1.0, 1.0, size=case["shapes"]["x1"]).astype(case["dtypes"]["x1"]),
    }



def reference(inputs, attrs):
    x1 = inputs["x1"].astype(np.float64)
    x2 = inputs["x2"].astype(np.float64)
    return {"y": (x1 / x2).astype(inputs["x1"].dtype)}
