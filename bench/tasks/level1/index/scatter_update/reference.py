"""Reference for scatter_update: var[indices] = updates, in place (distinct indices)."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["var"]
    dt = case["dtypes"]["var"]

    def draw(s):
        return rng.integers(-1000, 1000, size=s) if dt == "int32" else rng.uniform(-1.0, 1.0, size=s)

    m = case["shapes"]["indices"][0]
    indices = rng.permutation(shape[0])[:m]
    return {"var": draw(shape).astype(dt), "indices": indices.astype(np.int32),
            "updates": draw(case["shapes"]["updates"]).astype(dt)}


def reference(inputs, attrs):
    out = inputs["var"].copy()
    out[inputs["indices"]] = inputs["updates"]
    return {"var_out": out}
