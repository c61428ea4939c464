r"""Reference for smooth_l1_loss, reduction none."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["input"]
    dt = case["dtypes"]["input"]
    return {"input": rng.uniform(-3.0, 3.0, size=shape).astype(dt),
            "target": rng.uniform(-3.0, 3.0, size=shape).astype(dt)}


def reference(inputs, attrs):
    d = np.abs(inputs["input"].astype(np.float64) - inputs["target"].astype(np.float64))
    beta = attrs["beta"]
    return {"loss": np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta).astype(inputs["input"].dtype)}
