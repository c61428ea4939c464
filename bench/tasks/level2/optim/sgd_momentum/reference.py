"""Reference for sgd_momentum (torch.optim.SGD's step with an existing momentum buffer, dampening 0)."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    return {"param": rng.standard_normal(s["param"]).astype(np.float32),
            "grad": (rng.standard_normal(s["grad"]) * 0.1).astype(np.float32),
            "momentum_buffer": (rng.standard_normal(s["momentum_buffer"]) * 0.1).astype(np.float32)}


def reference(inputs, attrs):
    p = inputs["param"].astype(np.float64)
    g = inputs["grad"].astype(np.float64) + attrs["weight_decay"] * p
    buf = attrs["momentum"] * inputs["momentum_buffer"].astype(np.float64) + g
    return {"param_out": (p - attrs["lr"] * buf).astype(np.float32), "momentum_buffer_out": buf.astype(np.float32)}
