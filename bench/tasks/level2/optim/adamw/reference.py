"""Reference for adamw (torch.optim.AdamW's step, amsgrad off)."""
import numpy as np


def make_inputs(case, rng):
    s = case["shapes"]
    return {"param": rng.standard_normal(s["param"]).astype(np.float32),
            "exp_avg": (rng.standard_normal(s["exp_avg"]) * 0.01).astype(np.float32),
            "exp_avg_sq": rng.uniform(0.0, 1e-3, size=s["exp_avg_sq"]).astype(np.float32),
            "grad": (rng.standard_normal(s["grad"]) * 0.1).astype(np.float32)}


def reference(inputs, attrs):
    f = {k: v.astype(np.float64) for k, v in inputs.items()}
    lr, b1, b2, t = attrs["lr"], attrs["beta1"], attrs["beta2"], attrs["step"]
    p = f["param"] * (1.0 - lr * attrs["weight_decay"])
    m = b1 * f["exp_avg"] + (1.0 - b1) * f["grad"]
    v = b2 * f["exp_avg_sq"] + (1.0 - b2) * f["grad"] ** 2
    denom = np.sqrt(v / (1.0 - b2 ** t)) + attrs["eps"]
    p = p - lr / (1.0 - b1 ** t) * m / denom
    return {"param_out": p.astype(np.float32), "exp_avg_out": m.astype(np.float32),
            "exp_avg_sq_out": v.astype(np.float32)}
