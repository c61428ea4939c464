"""Reference for matmul_transpose_b: c = a @ b.T in float64, returned as float32."""
import numpy as np


def reference(inputs, attrs):
    return {"c": (inputs["a"].astype(np.float64) @ inputs["b"].astype(np.float64).T).astype(np.float32)}
