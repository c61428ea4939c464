"""Reference for matmul_gelu: c = gelu_tanh(a @ b + bias) in float64, returned as float32."""
import numpy as np


def reference(inputs, attrs):
    z = inputs["a"].astype(np.float64) @ inputs["b"].astype(np.float64) + inputs["bias"].astype(np.float64)
    c = 0.5 * z * (1.0 + np.tanh(0.7978845608028654 * (z + 0.044715 * z ** 3)))
    return {"c": c.astype(np.float32)}
