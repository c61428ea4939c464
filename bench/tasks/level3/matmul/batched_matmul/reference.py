"""Reference for batched_matmul: c = a @ b per batch in float64, returned as float32."""
import numpy as np


def reference(inputs, attrs):
    return {"c": np.matmul(inputs["a"].astype(np.float64), inputs["b"].astype(np.float64)).astype(np.float32)}
