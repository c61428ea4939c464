"""Reference for linear_relu: y = max(x @ w.T, 0) in float64, returned as float32."""
import numpy as np


def reference(inputs, attrs):
    z = inputs["x"].astype(np.float64) @ inputs["w"].astype(np.float64).T
    return {"y": np.maximum(z, 0.0).astype(np.float32)}
