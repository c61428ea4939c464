"""Reference for matmul: c = a @ b in float64, returned as float32."""
import numpy as np


def reference(inputs, attrs):
    return {"c": (inputs["a"].astype(np.float64) @ inputs["b"].astype(np.float64)).astype(np.float32)}
