r"""Reference for kl_div, reduction none, log_target False."""
import numpy as np


def make_inputs(case, rng):
    shape = case["shapes"]["input"]
    dt = case["dtypes"]["input"]
    return {"input": np.log(rng.uniform(0.01, 1.0, size=shape)).astype(dt),
            "target": rng.uniform(0.01, 1.0, size=shape).astype(dt)}


def reference(inputs, attrs):
    t = inputs["target"].astype(np.float64)
    return {"loss": (t * (np.log(t) - inputs["input"].astype(np.float64))).astype(inputs["input"].dtype)}
