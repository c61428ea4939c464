r"""Reference for bce_with_logits, reduction none."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["logits"]
    dt = case["dtypes"]["logits"]
    return {"logits": rng.uniform(-10.0, 10.0, size=shape).astype(dt),
            "target": rng.uniform(0.0, 1.0, size=shape).astype(dt)}


def reference(inputs, attrs):
    x = inputs["logits"].astype(np.float64)
    t = inputs["target"].astype(np.float64)
    return {"loss": (np.maximum(x, 0.0) - x * t + np.log1p(np.exp(-np.abs(x)))).astype(inputs["logits"].dtype)}
