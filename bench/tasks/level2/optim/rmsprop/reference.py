"""Reference for rmsprop (torch.optim.RMSprop's step: not centred, no momentum, no weight decay)."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    return {"param": rng.standard_normal(s["param"]).astype(np.float32),
            "square_avg": rng.uniform(0.0, 1e-2, size=s["square_avg"]).astype(np.float32),
            "grad": (rng.standard_normal(s["grad"]) * 0.1).astype(np.float32)}


def reference(inputs, attrs):
    f = {k: v.astype(np.float64) for k, v in inputs.items()}
    s = attrs["alpha"] * f["square_avg"] + (1.0 - attrs["alpha"]) * f["grad"] ** 2
    p = f["param"] - attrs["lr"] * f["grad"] / (np.sqrt(s) + attrs["eps"])
    return {"param_out": p.astype(np.float32), "square_avg_out": s.astype(np.float32)}
