"""Reference for matmul_bias: c = a @ b + bias in float64, returned as float32."""
import numpy as np


def reference(inputs, attrs):
    c = inputs["a"].astype(np.float64) @ inputs["b"].astype(np.float64) + inputs["bias"].astype(np.float64)
    return {"c": c.astype(np.float32)}
